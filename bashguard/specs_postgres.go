package bashguard

import "sync"

// The specs of PostgreSQL's clients, for the host reader (netTools).

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

// pgDumpSpec is pg_dump's, as pg_dump --help lists its options: those
// the host reader knew before it had a spec, each letter with its long
// name.
var pgDumpSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "pg_dump", grammar: grammar{permute: true}, rows: rows(
		each(kWord, "", "-h= --host=", "-p= --port=", "-U= --username=", "-d= --dbname=", "-F= --format=",
			"-n= --schema=", "-N= --exclude-schema=", "-t= --table=", "-T= --exclude-table=", "-Z= --compress=",
			"-j= --jobs=", "-E= --encoding="),
		each(kWrite, "", "-f= --file="),
		each(kFlag, "", "-a --data-only", "-s --schema-only", "-c --clean", "-C --create", "-O --no-owner",
			"-x --no-privileges", "-v --verbose", "-w --no-password", "-W --password", "--if-exists", "--inserts",
			"--column-inserts", "-b --blobs"),
	)}).compile()
})
