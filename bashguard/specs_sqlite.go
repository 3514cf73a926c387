package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// sqlite3's command line (sqlite3 -help): options of one dash, or two,
// each a word of its own, anywhere in the line; the first operand is the
// database file, which sqlite3 opens for reading and writing (making it
// if it is missing), and each further one is SQL or one of sqlite3's own
// dot commands, run in turn. Without one, sqlite3 reads them from its
// input. A dot command may run a program (.shell, .system, .excel), read
// a file (.read, .import, .load, .open) or write one (.output, .once,
// .save, .backup); SQL may open another file (ATTACH, VACUUM INTO), load
// an extension (load_extension) or read and write files through the
// shell's own functions (readfile, writefile, edit). Only the dot
// commands of sqliteDotHarmless and SQL without sqliteSQLWords pass under
// an allow rule for sqlite3.

// sqliteRows are sqlite3's options.
var sqliteRows = []optRow{
	{"-append", kFlag, ""}, {"-ascii", kFlag, ""}, {"-bail", kFlag, ""}, {"-batch", kFlag, ""}, {"-box", kFlag, ""},
	{"-column", kFlag, ""}, {"-csv", kFlag, ""}, {"-deserialize", kFlag, ""}, {"-echo", kFlag, ""}, {"-header", kFlag, ""},
	{"-noheader", kFlag, ""}, {"-help", kFlag, ""}, {"-html", kFlag, ""}, {"-interactive", kFlag, ""}, {"-json", kFlag, ""},
	{"-line", kFlag, ""}, {"-list", kFlag, ""}, {"-markdown", kFlag, ""}, {"-memtrace", kFlag, ""}, {"-nofollow", kFlag, ""},
	{"-quote", kFlag, ""}, {"-readonly", kFlag, ""}, {"-safe", kFlag, ""}, {"-stats", kFlag, ""}, {"-table", kFlag, ""},
	{"-tabs", kFlag, ""}, {"-zip", kFlag, ""}, {"-version", kVersion, ""},
	{"-maxsize=", kWord, ""}, {"-mmap=", kWord, ""}, {"-newline=", kWord, ""}, {"-nonce=", kWord, ""},
	{"-nullvalue=", kWord, ""}, {"-separator=", kWord, ""}, {"-vfs=", kWord, ""},
	{"-cmd=", kProgram, "runs a command of sqlite3's own first, which may run a program (.shell)"},
	{"-init=", kProgram, "reads and runs a file of sqlite3's commands, which may run programs (.shell)"},
	{"-A", kAsk, "runs .archive with the rest of the line, which reads and writes files"},
	{"-lookaside", kAsk, "takes two values, which are not read here"},
	{"-pagecache", kAsk, "takes two values, which are not read here"},
}

// sqliteSpec is sqlite3's, in sysSpecs.
func sqliteSpec() *spec {
	return &spec{grammar: grammar{oneDash: true, twoDashes: true, permute: true}, rows: sqliteRows,
		ask: "runs SQL on the database file, which may change it", check: sqliteOperands,
		examples: []example{
			{"sqlite3 app.db 'select count(*) from users'", "ask+"}, {"sqlite3 -readonly -json app.db .tables 'select 1'", "ask+"},
			{"sqlite3 app.db '.schema users'", "ask+"}, {"sqlite3 -version", "allow"},
			{"sqlite3 app.db '.shell id'", "ask!"}, {"sqlite3 app.db '  .system id'", "ask!"}, {"sqlite3 app.db '.output /tmp/x'", "ask!"},
			{"sqlite3 app.db \"attach '/tmp/x.db' as x\"", "ask!"}, {"sqlite3 app.db \"select load_extension('/tmp/x')\"", "ask!"},
			{"sqlite3 app.db \"select writefile('/tmp/x', 'y')\"", "ask!"}, {"sqlite3 app.db", "ask!"},
			{"sqlite3 -cmd '.shell id' app.db 'select 1'", "ask!"}, {"sqlite3 --init x.sql app.db 'select 1'", "ask!"},
			{"sqlite3 /tmp/x.db 'select 1'", "deny"}, {"sqlite3 .env 'select 1'", "deny"},
		}}
}

// sqliteDotHarmless are the dot commands that only print or set how
// sqlite3 prints.
var sqliteDotHarmless = map[string]bool{
	"tables": true, "schema": true, "fullschema": true, "indexes": true, "indices": true, "headers": true, "header": true,
	"mode": true, "width": true, "help": true, "show": true, "databases": true, "dbinfo": true, "timer": true,
	"changes": true, "echo": true, "explain": true, "nullvalue": true, "separator": true, "print": true, "bail": true,
	"eqp": true, "stats": true, "limit": true, "lint": true, "dump": true, "quit": true, "exit": true, "version": true,
	"dbconfig": true, "selftest": true, "sha3sum": true,
}

// sqliteSQLWords are the words of SQL, in sqlite3's shell, that open
// another file, load code, or read or write files.
var sqliteSQLWords = []string{"attach", "vacuum", "load_extension", "readfile", "writefile", "edit", "fts3_tokenizer", "zipfile", "sqlar_compress"}

// sqliteOperands judges sqlite3's operands: the database file, read and
// written (read only with -readonly), and each script after it; a line
// with no script reads them from its input, which is not analysed.
func sqliteOperands(m *cmdCall, c *verdictAcc, _ *spec, v *argv, f *specFacts) {
	for _, i := range f.ops {
		f.handle(i)
	}
	if f.hasKind(kVersion) || f.has("-help") {
		return
	}
	if len(f.ops) > 0 {
		if db := f.ops[0]; v.vals[db] != ":memory:" && v.vals[db] != "" {
			m.readPath(c, v.vals[db], v.flags[db], "sqlite3")
			if !f.has("-readonly") {
				m.writePath(c, v.vals[db], v.flags[db], "sqlite3")
			}
		}
	}
	if len(f.ops) < 2 {
		c.add(permission.Ask, ArgsRule("sqlite3"), "reads its commands from its input, which are not analysed (.shell runs a program)", false)
		return
	}
	for _, i := range f.ops[1:] {
		if why := sqliteScriptRuns(v.vals[i], v.flags[i]); why != "" {
			c.addf(permission.Ask, ArgsRule("sqlite3"), "runs ", v.vals[i], ", which "+why, false)
			return
		}
	}
}

// sqliteScriptRuns says how one script of sqlite3 may run a program or
// reach a file, or "" when it only queries and prints.
func sqliteScriptRuns(val string, fl wordFlags) string {
	if fl&wDynamic != 0 {
		return "is only known at run time"
	}
	if t := strings.TrimLeft(val, " \t\n"); strings.HasPrefix(t, ".") {
		name := t[1:]
		if i := strings.IndexAny(name, " \t\n"); i >= 0 {
			name = name[:i]
		}
		if !sqliteDotHarmless[name] {
			return "is sqlite3's command ." + name + ", which may run a program or reach a file"
		}
		return ""
	}
	lower := strings.ToLower(val)
	for _, w := range sqliteSQLWords {
		if hasSQLWord(lower, w) {
			return "names " + w + ", which opens, loads, reads or writes a file"
		}
	}
	return ""
}
