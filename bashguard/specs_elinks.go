package bashguard

import "sync"

// elinks's options (elinks -long-help, 0.13): one dash or two, each a
// word of its own, a value the next word (never "=", no abbreviation),
// options anywhere. A flag shown "[0|1]" takes the next word when it is
// a digit; here that word is an operand, a file read, which is as strict.
// Its operands are URLs or files. -eval sets configuration, which names
// the programs elinks runs (mime.handler, protocol.user), as the files of
// -config-dir and -config-file do; -remote drives a running elinks.
var elinksRows = rows(
	each(kFlag, "", "-anonymous", "-auto-submit", "-config-dump", "-config-help", "-default-keys", "-dump",
		"-force-html", "-? -h -help", "-localhost", "-long-help", "-no-connect", "-no-home", "-no-libevent",
		"-no-numbering", "-no-references", "-source", "-terminfo", "-version"),
	each(kWord, "", "-base-session=", "-bind-address=", "-bind-address-ipv6=", "-default-mime-type=",
		"-dump-charset=", "-dump-color-mode=", "-dump-width=", "-lookup=", "-session-ring=", "-verbose="),
	each(kConfig, "reads configuration, which names the programs elinks runs", "-config-dir=", "-config-file="),
	each(kAsk, "sets configuration, which names the programs elinks runs", "-eval="),
	each(kAsk, "drives an elinks already running, which opens any file or URL and saves files", "-remote="),
	each(kAsk, "touches the files of its home directory", "-touch-files"),
)

// elinksSpec is elinks's.
var elinksSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "elinks", grammar: grammar{oneDash: true, twoDashes: true, permute: true}, rows: elinksRows,
		operands: kURLOrFile}).compile()
})
