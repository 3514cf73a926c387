package bashguard

import "sync"

// The specs of PostgreSQL's clients, for the host reader (netTools).
// Both read their command line with getopt_long: clusters, attached
// values, options after operands, and a unique prefix of a long option
// for the option ("psql --ho=db.example" is --host), so every option
// their --help lists is a row, the harmful ones too.

// psqlSpec is psql's spec, its options as psql --help lists them, each
// letter with its long name. -W is --password, a flag: it takes no
// value. -d's value, like the first operand, may be a connection string
// or URL, whose host the reader judges (effConn); -o's value may be
// "|command", which psql runs; -c's and -f's scripts may hold psql's
// own commands, which run programs (\\!).
var psqlSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "psql", grammar: gnuGrammar, rows: rows(
		each(kWord, "", "-h= --host=", "-p= --port=", "-U= --username=", "-d= --dbname=",
			"-v= --set= --variable=", "-F= --field-separator=", "-P= --pset=", "-R= --record-separator=", "-T= --table-attr=",
			"-?[=] --help[=]"),
		each(kClientScript, "runs SQL on the server", "-c= --command="),
		each(kScriptFile, "runs a script of SQL and of psql's own commands, which run programs (\\!)", "-f= --file="),
		each(kWriteOrPipe, "", "-o= --output="),
		each(kWrite, "", "-L= --log-file="),
		each(kFlag, "", "-X --no-psqlrc", "-A --no-align", "-t --tuples-only", "-q --quiet", "-e --echo-queries",
			"-a --echo-all", "-b --echo-errors", "-n --no-readline", "-s --single-step", "-S --single-line", "-x --expanded",
			"-1 --single-transaction", "-w --no-password", "-W --password", "-l --list", "-E --echo-hidden", "-H --html",
			"--csv", "-z --field-separator-zero", "-0 --record-separator-zero", "-V --version"),
	)}).compile()
})

// pgDumpSpec is pg_dump's, its options as pg_dump --help lists them,
// each letter with its long name.
var pgDumpSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "pg_dump", grammar: gnuGrammar, rows: rows(
		each(kWord, "", "-h= --host=", "-p= --port=", "-U= --username=", "-d= --dbname=", "-F= --format=",
			"-n= --schema=", "-N= --exclude-schema=", "-t= --table=", "-T= --exclude-table=", "-Z= --compress=",
			"-j= --jobs=", "-E= --encoding=", "-e= --extension=", "-S= --superuser=", "--lock-wait-timeout=",
			"--exclude-table-data=", "--extra-float-digits=", "--include-foreign-data=", "--restrict-key=",
			"--rows-per-insert=", "--section=", "--snapshot=", "--role="),
		each(kWrite, "", "-f= --file="),
		each(kFlag, "", "-a --data-only", "-s --schema-only", "-c --clean", "-C --create", "-O --no-owner",
			"-x --no-privileges", "-v --verbose", "-w --no-password", "-W --password", "--if-exists", "--inserts",
			"--column-inserts", "-b --blobs", "-B --no-blobs", "-V --version", "-? --help", "--no-sync", "--binary-upgrade",
			"--disable-dollar-quoting", "--disable-triggers", "--enable-row-security", "--load-via-partition-root",
			"--no-comments", "--no-publications", "--no-security-labels", "--no-subscriptions", "--no-table-access-method",
			"--no-tablespaces", "--no-toast-compression", "--no-unlogged-table-data", "--on-conflict-do-nothing",
			"--quote-all-identifiers", "--serializable-deferrable", "--strict-names", "--use-set-session-authorization"),
	)}).compile()
})
