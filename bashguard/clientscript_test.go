package bashguard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A client script runs a program or reaches a file by a backslash
// command or by one of clientScriptWords written as a word of its own, in
// any case; the same letters inside a longer name are harmless.
func TestClientScriptRuns(t *testing.T) {
	for _, tc := range []struct {
		script, why string
	}{
		{`\! id`, "holds a backslash command"},
		{`select 1; \o |id`, "holds a backslash command"},
		{`COPY t TO PROGRAM 'id'`, "names PROGRAM"},
		{`copy t to program'id'`, "names PROGRAM"},
		{`(program)`, "names PROGRAM"},
		{`system id`, "names system"},
		{`SOURCE /tmp/x.sql`, "names source"},
		{`load data local infile '/etc/passwd' into table t`, "names INFILE"},
		{`select * into outfile '/tmp/x' from t`, "names OUTFILE"},
		{`select pg_read_file('/etc/passwd')`, "names pg_read_file"},
		{`COPY t TO '/tmp/x'`, "names COPY"},
		{`select pg_ls_dir('/root')`, "names pg_ls_dir"},
		{`select 1`, ""},
		{`select program_id, programs, _program, program$x, copy_id from jobs`, ""},
		{`select count(*) from systems where teeth > 0`, ""},
	} {
		got := clientScriptRuns(tc.script, 0)
		if tc.why == "" {
			assert.Empty(t, got, tc.script)
			continue
		}
		assert.True(t, strings.Contains(got, tc.why), "%q: %q", tc.script, got)
	}
	assert.Contains(t, clientScriptRuns("select 1", wDynamic), "only known at run time", "a value only known at run time may do anything")
}

// Every script with a backslash, or with a word of clientScriptWords
// standing alone, is read as running a program, whatever surrounds it.
func FuzzClientScriptRuns(f *testing.F) {
	f.Add("select 1", " ")
	f.Add("copy t to", ";")
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, w := range clientScriptWords {
			s := a + " " + strings.ToUpper(w.word) + b
			if b == "" || !sqlWordByte(strings.ToLower(b), 0) {
				if clientScriptRuns(s, 0) == "" {
					t.Fatalf("%q: the word %q is not seen", s, w.word)
				}
			}
		}
		if clientScriptRuns(a+`\`+b, 0) == "" {
			t.Fatalf("%q: the backslash is not seen", a+`\`+b)
		}
	})
}

// An lftp script passes only as queries of the server, each command
// named whole; a shell command, a pipe, a redirection, a transfer of
// local files, an abbreviation and open -e are named.
func TestLftpScriptRuns(t *testing.T) {
	for script, want := range map[string]string{
		"open ftp://h; ls; cat README":  "",
		"OPEN ftp://h && CD pub; pwd":   "",
		"!id":                           "runs a command of this machine",
		"cat x | sh":                    "pipes or redirects",
		"cat x > /etc/x":                "pipes or redirects",
		"open ftp://h; get f.tar":       "runs lftp's get",
		"sh -c id":                      "runs lftp's sh",
		"ech hi":                        "runs lftp's ech",
		"open -e 'source x' ftp://h":    "gives open the commands of -e",
		"open ftp://h; mirror -R / /up": "runs lftp's mirror",
		"source s.lftp":                 "runs lftp's source",
	} {
		got := lftpScript.runs(script, 0)
		if want == "" {
			assert.Empty(t, got, script)
			continue
		}
		assert.Contains(t, got, want, script)
	}
	assert.Contains(t, lftpScript.runs("ls", wDynamic), "only known at run time")
}

// An HTTPie request item sends a file where its first separator takes
// one; with a backslash, any "@" may begin the file.
func TestHttpieItemPath(t *testing.T) {
	for item, want := range map[string][]string{
		"f@/etc/passwd": {"/etc/passwd"}, "f=@.env": {".env"}, "j:=@data.json": {"data.json"}, "X-Token:@tok": {"tok"},
		"name=joe@x": nil, "q==a@b": nil, "X-Api:a@b": nil, "age:=3": nil, "https://user@host/p": nil, "POST": nil,
		`a\=b@c`: {"c"}, `a\@b=@d`: {"b=@d", "d"},
	} {
		assert.Equal(t, want, httpieItemPath(item), item)
	}
}

// A browser's operand is a file unless it is a URL of another scheme than
// file:.
func TestURLOrFile(t *testing.T) {
	for w, want := range map[string]string{
		"/etc/shadow": "/etc/shadow", "file:///etc/shadow": "/etc/shadow", "file:/etc/shadow": "/etc/shadow",
		"file://localhost/etc/x": "/etc/x", "README.md": "README.md", "./a:b": "./a:b", "https://x.example/": "",
		"mailto:x@y": "", "file:": "",
	} {
		p, ok := urlOrFile(w)
		assert.Equal(t, want != "", ok, w)
		assert.Equal(t, want, p, w)
	}
}
