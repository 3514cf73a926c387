package bashguard

import "sync"

// mosh's command line (mosh --help, 1.4; the script's GetOptions):
// Perl's Getopt::Long as configured by default: a long option with one
// dash or two, a unique prefix of its name for the name, in any case, a
// value after "=" or as the next word, --no-X and --noX for a negatable
// X, no clusters, options anywhere. --client and --ssh name the programs
// it runs here, and --server the one it runs on the server, or here with
// --local. The rows spell each name with one dash, as the grammar reads
// both (oneDash, twoDashes).
var moshRows = rows(
	each(kProgram, "runs the program it names", "-client=", "-ssh=", "-server="),
	each(kWord, "", "-predict=", "-port=", "-p=", "-family=", "-bind-server=", "-experimental-remote-ip="),
	each(kFlag, "", "-o -predict-overwrite", "-no-predict-overwrite", "-nopredict-overwrite", "-a", "-n", "-4", "-6",
		"-ssh-pty", "-no-ssh-pty", "-nossh-pty", "-init", "-no-init", "-noinit", "-local", "-help", "-version",
		"-fake-proxy", "-no-fake-proxy", "-nofake-proxy"),
)

// moshSpec is mosh's.
var moshSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "mosh", grammar: grammar{oneDash: true, twoDashes: true, abbrev: true, foldCase: true, permute: true},
		rows: moshRows}).compile()
})
