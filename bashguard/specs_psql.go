package bashguard

import "sync"

// psqlSpec is psql's spec, its options as psql --help lists them, each
// letter with its long name, read by the one scanner for the hosts it
// reaches (netTools). -W is --password, a flag: it takes no value.
var psqlSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "psql", grammar: grammar{permute: true}, rows: rows(
		each(kWord, "", "-h= --host=", "-p= --port=", "-U= --username=", "-d= --dbname=", "-c= --command=",
			"-v= --set= --variable=", "-F= --field-separator=", "-P= --pset=", "-R= --record-separator=", "-T= --table-attr="),
		each(kRead, "", "-f= --file="),
		each(kWrite, "", "-o= --output=", "-L= --log-file="),
		each(kFlag, "", "-X --no-psqlrc", "-A --no-align", "-t --tuples-only", "-q --quiet", "-e --echo-queries",
			"-a --echo-all", "-b --echo-errors", "-n --no-readline", "-s --single-step", "-S --single-line", "-x --expanded",
			"-1 --single-transaction", "-w --no-password", "-W --password", "-l --list", "-E --echo-hidden", "-H --html"),
	)}).compile()
})
