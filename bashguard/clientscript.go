package bashguard

import "strings"

// The scripts of database clients (psql -c, mysql -e): SQL, which the
// server runs, mixed with the client's own commands, which run here.
// psql's start with a backslash (\! runs a shell command, \o |cmd and
// \g |cmd pipe the output to one, \copy ... program runs one, \i reads
// a file, \o and \w write one, \setenv sets what later commands run
// with); mysql's are words at the start of a statement as well (system
// runs a shell command, source reads a file, tee and pager write or run).
// And some SQL makes the client or the server reach files or run
// programs here (COPY ... PROGRAM on a server of this machine, LOAD DATA
// LOCAL INFILE, which the client reads, SELECT ... INTO OUTFILE). A script
// with any of them is read as running a program; the rest is an Ask an
// allow rule for the client lifts.

// clientScriptWords are the words of a client script that make it run a
// program or reach a file, each with what it does, matched as whole
// words, in any case.
var clientScriptWords = []struct{ word, why string }{
	{"program", "names PROGRAM, which runs a program (COPY, psql's \\copy)"},
	{"system", "names system, with which mysql runs a shell command"},
	{"source", "names source, with which mysql reads and runs a file"},
	{"tee", "names tee, with which mysql writes a file"},
	{"pager", "names pager, with which mysql runs a program"},
	{"edit", "names edit, with which mysql runs an editor"},
	{"infile", "names INFILE, a file the client or the server reads"},
	{"outfile", "names OUTFILE, a file the server writes"},
	{"dumpfile", "names DUMPFILE, a file the server writes"},
	{"copy", "names COPY, with which the server reads or writes a file of its machine, or runs a program"},
	{"pg_read_file", "names pg_read_file, which reads a file of the server"},
	{"pg_ls_dir", "names pg_ls_dir, which lists a directory of the server"},
	{"pg_stat_file", "names pg_stat_file, which reads the metadata of a file of the server"},
	{"pg_read_binary_file", "names pg_read_binary_file, which reads a file of the server"},
	{"lo_import", "names lo_import, which reads a file"},
	{"lo_export", "names lo_export, which writes a file"},
}

// clientScriptRuns says how the client script val runs a program or
// reaches a file, or "" when it does neither; a value only known at run
// time may do anything.
func clientScriptRuns(val string, fl wordFlags) string {
	if fl&wDynamic != 0 {
		return "is only known at run time, and may hold the client's commands, which run programs"
	}
	if strings.IndexByte(val, '\\') >= 0 {
		return "holds a backslash command of the client, which may run a program or reach a file (\\!, \\o |cmd, \\copy, \\i)"
	}
	lower := strings.ToLower(val)
	for _, w := range clientScriptWords {
		if hasSQLWord(lower, w.word) {
			return w.why
		}
	}
	return ""
}

// hasSQLWord reports whether the lower-case script s holds the word w as
// a word of its own, not inside a longer name.
func hasSQLWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if !sqlWordByte(s, j-1) && !sqlWordByte(s, j+len(w)) {
			return true
		}
		i = j + 1
	}
}

// sqlWordByte reports whether s[i] is part of an SQL word (a letter, a
// digit, _ or $); outside s it is not.
func sqlWordByte(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	b := s[i]
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '$' || b >= 0x80
}
