package bashguard

import "sync"

// Mercurial's command line, as far as it reaches this machine beside the
// hosts (hgSubs): hg reads --config, --cwd and -R (--repository) early,
// from anywhere on the line before "--", whatever the words before them,
// and refuses them abbreviated or in a cluster (dispatch.py's
// _earlyparseopts), so the spec lists them in early; the rest are read
// with getopt's GNU rules over the command's own table, where letters
// mean one thing to one command and another to the next (-e is pull's
// --ssh and commit's --edit). The rows are the global options (hg help
// -v) and the command options that run a program or reach a file, each
// spelled as every command that has it reads it; a letter some command
// reads otherwise is here only where the row asks in any case (-e, -t).
var hgRows = rows(
	each(kRepo, "", "-R= --repository=", "--cwd="),
	each(kConfig, "sets configuration, whose hooks, aliases and extensions run programs", "--config="),
	each(kProgram, "runs the ssh command it names", "-e= --ssh="),
	each(kProgram, "runs the merge tool it names, a program", "-t= --tool="),
	each(kRead, "", "--logfile="),
	each(kWrite, "", "-o= --output="),
	each(kWord, "", "--color=", "--encoding=", "--encodingmode=", "--pager=", "--remotecmd="),
	each(kFlag, "", "-y --noninteractive", "-q --quiet", "-v --verbose", "--debug", "--debugger", "--traceback", "--time",
		"--profile", "--version", "-h --help", "--hidden"),
)

// hgSpec is hg's.
var hgSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "hg", grammar: grammar{abbrev: true, permute: true}, rows: hgRows}).compile()
})

// hgConf are the configuration files of the repository around the
// working directory that hg reads for every command: hooks run before
// and after any of them. A .hg/sharedpath makes the repository a share
// of another, whose .hg/hgrc hg reads too (share-safe): being there
// asks.
var hgConf = []confFile{{name: ".hg/hgrc", up: ".hg", runs: hgrcRuns}, {name: ".hg/hgrc-not-shared", up: ".hg", runs: hgrcRuns},
	{name: ".hg/sharedpath", up: ".hg"}}
