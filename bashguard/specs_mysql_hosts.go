package bashguard

import "sync"

// The specs of MariaDB's and MySQL's clients, for the host reader
// (netTools): mysql (mariadb) and mysqldump (mariadb-dump), as their
// --help lists the options. Both read their line with my_getopt: clusters
// of letters, a value attached or the next word, a long option's value
// after "=" or the next word, options after the operands, a unique prefix
// of a long option for the option (--ho is --host, with a warning), and
// the prefixes my_getopt gives every option: --skip-X and --disable-X
// turn X off, --enable-X and --loose-X set it (--loose-pager=CMD is
// --pager=CMD), --maximum-X sets its bound. The letters of -p take the
// password only attached (-pSECRET; -p NAME is -p and the database NAME).
// my_getopt reads "_" in a name as "-" (--init_command): here that is an
// option the spec does not know, and asks.

// myRows are the options the clients share: where they connect, the
// option files and plugins they load, TLS files, and my_getopt's
// prefixes.
var myRows = rows(
	each(kWord, "", "-h= --host=", "-P= --port=", "-u= --user=", "-S= --socket=", "--protocol=", "-p[=] --password[=]",
		"--default-character-set=", "--character-sets-dir=", "--ssl-cipher=", "--tls-version=", "--max-allowed-packet=",
		"--net-buffer-length=", "-#[=] --debug[=]", "--defaults-group-suffix="),
	each(kRead, "", "--ssl-ca=", "--ssl-capath=", "--ssl-cert=", "--ssl-key=", "--ssl-crl=", "--ssl-crlpath="),
	each(kProgram, "loads the client's plugins from the directory it names", "--plugin-dir="),
	each(kProgram, "loads the authentication plugin it names", "--default-auth="),
	each(kConfig, "reads an option file, which can set a pager, a plugin directory and where it connects",
		"--defaults-file=", "--defaults-extra-file=", "--login-path="),
	each(kAsk, "is read as the option after its prefix, which is not read here", "--loose-*[=]", "--maximum-*[=]",
		"--enable-*[=]"),
	each(kFlag, "", "--skip-*", "--disable-*", "-C --compress", "--ssl", "--ssl-verify-server-cert", "--debug-check",
		"--no-defaults", "--print-defaults", "-? --help", "-V --version", "-v --verbose"),
)

// myGrammar is my_getopt's.
var myGrammar = grammar{abbrev: true, permute: true}

// mysqlSpec is mysql's (mariadb --help). -e runs SQL and the client's
// own commands, of which system (\!) runs a shell command; --pager runs
// a program for the output; --init-command runs SQL as it connects.
var mysqlSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "mysql", grammar: myGrammar, rows: rows(
		each(kClientScript, "runs SQL on the server", "-e= --execute="),
		each(kProgram, "runs a pager program for the output", "--pager[=]"),
		each(kChange, "runs SQL on the server as it connects", "--init-command="),
		each(kWrite, "", "--tee="),
		each(kWord, "", "-D= --database=", "--delimiter=", "--prompt=", "--connect-timeout=", "--max-join-size=",
			"--select-limit=", "--quick-max-column-width=", "--server-arg="),
		each(kFlag, "", "-I", "--abort-source-on-error", "--auto-rehash", "-A --no-auto-rehash", "--auto-vertical-output",
			"-B --batch", "--binary-as-hex", "--binary-mode", "--column-names", "-N --skip-column-names", "--column-type-info",
			"-c --comments", "--connect-expired-password", "-T --debug-info", "--enable-cleartext-plugin", "-f --force",
			"-H --html", "-i --ignore-spaces", "--line-numbers", "-L --skip-line-numbers", "--local-infile",
			"-G --named-commands", "-b --no-beep", "-o --one-database", "--print-query-on-error", "--progress-reports",
			"-q --quick", "-r --raw", "--reconnect", "-U --safe-updates", "--i-am-a-dummy", "--sandbox", "--secure-auth",
			"--show-warnings", "--sigint-ignore", "-s --silent", "-t --table", "-n --unbuffered", "-E --vertical",
			"-w --wait", "-X --xml"),
		myRows,
	)}).compile()
})

// mysqldumpSpec is mysqldump's (mariadb-dump --help). -r and --log-error
// write files, -T (--tab) a directory of them; --delete-master-logs,
// --flush-logs and --flush-privileges change the server.
var mysqldumpSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "mysqldump", grammar: myGrammar, rows: rows(
		each(kWrite, "", "-r= --result-file=", "--log-error=", "-T= --tab="),
		each(kChange, "changes the server's logs or privileges", "--delete-master-logs", "-F --flush-logs",
			"--flush-privileges"),
		each(kWord, "", "--as-of=", "--compatible=", "--dump-slave[=]", "--fields-terminated-by=", "--fields-enclosed-by=",
			"--fields-optionally-enclosed-by=", "--fields-escaped-by=", "--ignore-database=", "--ignore-table-data=",
			"--ignore-table=", "--lines-terminated-by=", "--master-data[=]", "--max-statement-time=", "--system=",
			"-w= --where="),
		each(kFlag, "", "-A --all-databases", "-Y --all-tablespaces", "-y --no-tablespaces", "--add-drop-database",
			"--add-drop-table", "--add-drop-trigger", "--add-locks", "--allow-keywords", "--apply-slave-statements",
			"-i --comments", "--compact", "-c --complete-insert", "--copy-s3-tables", "-a --create-options", "-B --databases",
			"--debug-info", "--delayed-insert", "-K --disable-keys", "--dump-date", "-H --dump-history", "-E --events",
			"-e --extended-insert", "-f --force", "--gtid", "--header", "--hex-blob", "--include-master-host-port",
			"--insert-ignore", "-x --lock-all-tables", "-l --lock-tables", "--log-queries", "--no-autocommit",
			"-n --no-create-db", "-t --no-create-info", "-d --no-data", "--no-data-med", "-N --no-set-names", "--opt",
			"--order-by-primary", "--order-by-size", "-q --quick", "-Q --quote-names", "--replace", "-R --routines",
			"--set-charset", "--single-transaction", "--skip-opt", "--tables", "--triggers", "--tz-utc", "-X --xml",
			"--galera-info"),
		myRows,
	)}).compile()
})

// mysqlStdin is what mysql and mariadb run when they read their script
// from their input (netTool.stdinScript).
const mysqlStdin = "SQL and the client's own commands, of which system (\\!) runs a shell command and source reads a file"
