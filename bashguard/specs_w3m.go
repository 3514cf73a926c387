package bashguard

import "sync"

// w3m's command line (w3m -help, 0.5.3): each option a word of its own,
// with one dash, its value the next word; options anywhere. -o sets any
// of its configuration options, some of which run programs (extbrowser,
// editor, mailer, cgi_bin, the mailcap), as -config's file can; its
// operands are URLs or files, a file read (kURLOrFile).
var w3mRows = rows(
	each(kConfig, "sets configuration, some of which names the programs w3m runs (extbrowser, editor, mailer, cgi_bin)", "-o=", "-config="),
	each(kRead, "", "-post="),
	each(kWrite, "", "-bookmark="),
	each(kWord, "", "-t=", "-l=", "-I=", "-O=", "-T=", "-cols=", "-ppc=", "-ppl=", "-header="),
	each(kFlag, "", "-r", "-B", "-m", "-v", "-M", "-H", "-N", "-F", "-dump", "-dump_head", "-dump_source", "-dump_both",
		"-dump_extra", "-num", "-no-proxy", "-4", "-6", "-insecure", "-no-mouse", "-cookie", "-no-cookie", "-graph",
		"-no-graph", "-s", "-W", "-X", "-title[=]", "-show-option", "-debug", "-reqlog", "-help", "-version"),
)

// w3mSpec is w3m's.
var w3mSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "w3m", grammar: grammar{oneDash: true, permute: true}, rows: w3mRows, operands: kURLOrFile}).compile()
})
