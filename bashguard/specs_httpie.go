package bashguard

import (
	"strings"
	"sync"
)

// HTTPie's command line (http, https): every option its argparse parser
// defines (httpie.cli.definition, 3.2; the help test reads them from the
// parser itself, with whether each takes a value), read as argparse
// reads them: letters clustered, a value attached or the next word,
// "--long=value", a unique prefix of a long name for the name, options
// anywhere. The file it writes (-o, a --session given as a path) is
// judged as a write, the files it reads as reads; its request items,
// the operands after the URL, send a file where their separator has an
// "@" (field@FILE uploads it, field=@FILE, field:=@FILE and
// Header:@FILE read it), judged as reads (httpieItemPath). HTTPie
// expands "~" in those files and in a session's path itself
// (os.path.expanduser): expandsPaths.
var httpieRows = rows(
	each(kFlag, "", "-j --json", "-f --form", "--multipart", "-x --compress", "--no-unsorted", "--no-sorted",
		"--unsorted", "--sorted", "-h --headers", "-m --meta", "-b --body", "-v --verbose", "--all", "-S --stream",
		"-d --download", "-c --continue", "-q --quiet", "--ignore-netrc", "--offline", "-F --follow", "--check-status",
		"--path-as-is", "--chunked", "-I --ignore-stdin", "--help", "--manual", "--version", "--traceback", "--debug"),
	each(kWord, "", "--boundary=", "--raw=", "--pretty=", "-s= --style=", "--response-charset=", "--response-mime=",
		"--format-options=", "-p= --print=", "-P= --history-print=", "-a= --auth=", "-A= --auth-type=", "--proxy=",
		"--max-redirects=", "--max-headers=", "--timeout=", "--ssl=", "--ciphers=", "--cert-key-pass=",
		"--default-scheme="),
	each(kWrite, "", "-o= --output=", "--session="),
	each(kRead, "", "--session-read-only=", "--verify=", "--cert=", "--cert-key="),
)

// httpieSpec is http's and https's.
var httpieSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "http", grammar: grammar{abbrev: true, permute: true}, rows: httpieRows, operands: kRequestItems,
		expandsPaths: true}).compile()
})

// xh's command line (xh, xhs: src/cli.rs, 0.25), HTTPie's rewritten:
// clap's grammar (letters clustered, a value attached, after "=" or the
// next word, "--long=value", no abbreviation, options anywhere), each
// long option also spelled --no-X, which resets it. Its request items
// are HTTPie's, their files' "~" expanded (expand_tilde); -o and
// --session write, --unix-socket sends the request to a socket here,
// as curl's does (kReroute).
var xhRows = rows(
	each(kFlag, "", "-j --json", "-f --form", "--multipart", "-h --headers", "-b --body", "-m --meta", "-v --verbose",
		"--debug", "--all", "-q --quiet", "-S --stream", "-x --compress", "-d --download", "-c --continue",
		"--ignore-netrc", "--offline", "--check-status", "-F --follow", "--native-tls", "--https", "-4 --ipv4",
		"-6 --ipv6", "-I --ignore-stdin", "--curl", "--curl-long", "--help", "-V --version"),
	each(kWord, "", "--raw=", "--pretty=", "--format-options=", "-s= --style=", "--response-charset=",
		"--response-mime=", "-p= --print=", "-P= --history-print=", "-A= --auth-type=", "-a= --auth=", "--bearer=",
		"--max-redirects=", "--timeout=", "--proxy=", "--ssl=", "--default-scheme=", "--http-version=", "--resolve=",
		"--interface=", "--generate=", "--unstable-m-sig-id=", "--unstable-m-sig-alg=", "--unstable-m-sig-comp="),
	each(kReroute, "", "--unix-socket="),
	each(kWrite, "", "-o= --output=", "--session="),
	each(kRead, "", "--session-read-only=", "--verify=", "--cert=", "--cert-key="),
	each(kAsk, "names the key it signs with, or a file it reads one from (@FILE)", "--unstable-m-sig-key="),
)

// xhSpec is xh's and xhs's.
var xhSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "xh", grammar: grammar{permute: true, negate: true, shortEq: true}, rows: xhRows,
		operands: kRequestItems, expandsPaths: true}).compile()
})

// httpieSeparators are the separators of a request item, longest first
// where two begin alike, as HTTPie's KeyValueArgType reads them; those
// with an "@" take a file.
var httpieSeparators = []string{":=@", "=@", ":@", "==", ":=", "=", ":", "@"}

// httpieItemPath returns the file a request item w sends, where its
// first separator (the one that begins first; at one place, the longest)
// takes a file. An item with a backslash, which escapes a separator, is
// read for every "@" in it: what follows any of them may be the file.
func httpieItemPath(w string) (paths []string) {
	if strings.Contains(w, `\`) {
		for i := 0; i+1 < len(w); i++ {
			if w[i] == '@' {
				paths = append(paths, w[i+1:])
			}
		}
		return paths
	}
	for i := range w {
		for _, sep := range httpieSeparators {
			if strings.HasPrefix(w[i:], sep) {
				if p := w[i+len(sep):]; strings.HasSuffix(sep, "@") && p != "" {
					return []string{p}
				}
				return nil
			}
		}
	}
	return nil
}
