package bashguard

import "sync"

// tftp's options (tftp-hpa 5.2, main.c): letters clustered, -m and -R
// taking the next word, options among its operands ([host [port]]) until
// -c, after which the rest of the line is one of tftp's commands. Its
// commands, given by -c or read from the input, put files of this
// machine to the server and get files into it, named as they please: they
// ask past Bash(tftp:*) (netTool.stdinScript).
var tftpRows = rows(
	each(kFlag, "", "-4", "-6", "-v", "-l", "-V"),
	each(kWord, "", "-m=", "-R="),
	each(kAsk, "runs the tftp command the rest of the line is, whose put sends any file of this machine and whose get writes any", "-c"),
)

// tftpSpec is tftp's.
var tftpSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "tftp", grammar: grammar{permute: true, nextValues: true}, rows: tftpRows}).compile()
})
