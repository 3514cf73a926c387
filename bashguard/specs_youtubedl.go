package bashguard

import "sync"

// youtube-dl's options, every one its parser defines (youtube_dl.options,
// 2021.12.17 and later): optparse's grammar, as yt-dlp's (letters
// clustered, a value attached or the next word, a unique prefix of a long
// name for the name). youtube-dl is no longer packaged where the tests
// run (Debian's youtube-dl is yt-dlp), so its rows were taken from its
// parser once and their kinds from yt-dlp's rows of the same options,
// which yt-dlp forked with their meaning (TestYoutubeDLRowsAsYtdlp holds
// them to those); the options yt-dlp renamed (--config-location,
// --match-filter) are classified here. Like yt-dlp, youtube-dl expands
// "~" and $VARIABLE in its paths itself; -o has no TYPES: prefix.
var youtubeDLRows = rows(
	each(kFlag, "", "-h --help", "--version", "-i --ignore-errors", "--abort-on-error", "--dump-user-agent",
		"--list-extractors", "--extractor-descriptions", "--force-generic-extractor", "--ignore-config", "--flat-playlist",
		"--mark-watched", "--no-mark-watched", "--no-color --no-colors", "-4 --force-ipv4", "-6 --force-ipv6",
		"--geo-bypass", "--no-geo-bypass", "--no-playlist", "--yes-playlist", "--include-ads",
		"--skip-unavailable-fragments", "--abort-on-unavailable-fragment", "--keep-fragments", "--no-resize-buffer",
		"--test", "--playlist-reverse", "--playlist-random", "--xattr-set-filesize", "--hls-prefer-native",
		"--hls-prefer-ffmpeg", "--hls-use-mpegts", "--id", "--restrict-filenames", "-A --auto-number", "-t --title",
		"-l --literal", "-w --no-overwrites", "-c --continue", "--no-continue", "--no-part", "--mtime", "--no-mtime",
		"--write-description", "--write-info-json", "--write-annotations", "--no-cache-dir", "--rm-cache-dir",
		"--write-thumbnail", "--write-all-thumbnails", "--list-thumbnails", "-q --quiet", "--no-warnings", "-s --simulate",
		"--skip-download", "-g --get-url", "-e --get-title", "--get-id", "--get-thumbnail", "--get-description",
		"--get-duration", "--get-filename", "--get-format", "-j --dump-json", "-J --dump-single-json", "--print-json",
		"--newline", "--no-progress", "--console-title", "-v --verbose", "--dump-pages --dump-intermediate-pages",
		"--write-pages", "--youtube-print-sig-code", "--print-traffic --dump-headers", "-C --call-home", "--no-call-home",
		"--no-check-certificate", "--no-check-extensions", "--prefer-insecure --prefer-unsecure", "--bidi-workaround",
		"--all-formats", "--prefer-free-formats", "-F --list-formats", "--no-list-formats",
		"--youtube-include-dash-manifest", "--youtube-skip-dash-manifest", "--write-sub --write-srt",
		"--write-auto-sub --write-automatic-sub", "--all-subs", "--list-subs", "-n --netrc", "--ap-list-mso",
		"-x --extract-audio", "-k --keep-video", "--no-post-overwrites", "--embed-subs", "--embed-thumbnail",
		"--add-metadata", "--xattrs", "--prefer-avconv", "--prefer-ffmpeg"),
	each(kChange, "replaces the program itself", "-U --update"),
	each(kWord, "", "--default-search=", "--proxy=", "--socket-timeout=", "--source-address=",
		"--geo-verification-proxy=", "--cn-verification-proxy=", "--geo-bypass-country=", "--geo-bypass-ip-block=",
		"--playlist-start=", "--playlist-end=", "--playlist-items=", "--match-title=", "--reject-title=",
		"--max-downloads=", "--min-filesize=", "--max-filesize=", "--date=", "--datebefore=", "--dateafter=",
		"--min-views=", "--max-views=", "--match-filter=", "--age-limit=", "-r= --limit-rate= --rate-limit=",
		"-R= --retries=", "--fragment-retries=", "--buffer-size=", "--http-chunk-size=", "--output-na-placeholder=",
		"--autonumber-size=", "--autonumber-start=", "--encoding=", "--user-agent=", "--referer=", "--add-header=",
		"--sleep-interval= --min-sleep-interval=", "--max-sleep-interval=", "-f= --format=",
		"--youtube-player-js-variant=", "--youtube-player-js-version=", "--merge-output-format=", "--sub-format=",
		"--sub-lang= --sub-langs= --srt-lang=", "-u= --username=", "-p= --password=", "-2= --twofactor=",
		"--video-password=", "--ap-mso=", "--ap-username=", "--ap-password=", "--audio-format=", "--audio-quality=",
		"--recode-video=", "--metadata-from-title=", "--fixup=", "--convert-subs= --convert-subtitles="),
	each(kConfig, "reads options from the file it names, which can run programs (--exec) and write any file", "--config-location="),
	each(kWrite, "", "--download-archive=", "--cookies=", "--cache-dir="),
	each(kProgram, "runs the program it names", "--external-downloader=", "--ffmpeg-location= --avconv-location=",
		"--exec="),
	each(kAsk, "passes arguments to the programs it runs, which can run programs and write any file", "--external-downloader-args=",
		"--postprocessor-args="),
	each(kRead, "", "-a= --batch-file=", "--load-info-json= --load-info="),
	each(kWrite, "", "-o= --output="),
)

// youtubeDLSpec is youtube-dl's.
var youtubeDLSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "youtube-dl", grammar: grammar{abbrev: true, permute: true}, rows: youtubeDLRows, expandsPaths: true}).compile()
})
