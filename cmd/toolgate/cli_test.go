package main

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// Every subcommand prints its usage on standard output for -h and --help
// and exits 0; a bad flag exits 2 and says so on standard error.
func TestHelpOfEverySubcommand(t *testing.T) {
	for _, sub := range []string{"check", "explain", "lint", "import", "exec", "version"} {
		for _, h := range []string{"-h", "--help"} {
			var out, errb bytes.Buffer
			code := run([]string{sub, h}, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
			assert.Equal(t, 0, code, "toolgate %s %s: %s", sub, h, errb.String())
			assert.Contains(t, out.String(), "usage: "+synopses[sub], "toolgate %s %s", sub, h)
			assert.NotContains(t, out.String(), `"permissionDecision"`, "toolgate %s %s answers no hook event", sub, h)
		}
	}
	for _, sub := range []string{"explain", "lint", "import", "version"} {
		var out, errb bytes.Buffer
		code := run([]string{sub, "--no-such-flag"}, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
		assert.Equal(t, 2, code, "toolgate %s --no-such-flag", sub)
		assert.Contains(t, errb.String(), "flag provided but not defined: -no-such-flag", sub)
	}
}

// toolgate version prints the module's version and the Go release.
func TestVersion(t *testing.T) {
	var out bytes.Buffer
	code := run([]string{"version"}, env{stdout: &out, stderr: &out})
	assert.Equal(t, 0, code)
	assert.Regexp(t, `^toolgate \S+ \(go1\.[0-9]+`, out.String())
}

// explain --exit-code exits with the decision: a script can gate on it.
func TestExplainExitCode(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(dir+"/.env", []byte("TOKEN=x\n"), 0o600))
	require.NoError(t, os.WriteFile(dir+"/a.txt", []byte("a\n"), 0o644))
	for _, tc := range []struct {
		command string
		code    int
		says    string
	}{
		{"cat a.txt", 0, "decision: allow"},
		{"make build", 1, "decision: ask"},
		{"cat .env", 2, "decision: deny"},
	} {
		var out, errb bytes.Buffer
		in := fmt.Sprintf(`{"command":%q}`, tc.command)
		code := run([]string{"explain", "--exit-code", "--cwd", dir, "--managed", dir + "/none.json", "Bash", in},
			env{stdout: &out, stderr: &errb, getenv: func(k string) string {
				if k == "HOME" {
					return dir + "/home"
				}
				return ""
			}})
		assert.Equal(t, tc.code, code, "%s: %s %s", tc.command, out.String(), errb.String())
		assert.Contains(t, out.String(), tc.says, tc.command)
	}
}

// check typed at a terminal says what it expects; a pipe or /dev/null is
// no terminal.
func TestCheckAtATerminal(t *testing.T) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("SKIP: no pseudo-terminal to type at here: " + err.Error())
	}
	defer ptmx.Close()
	require.NoError(t, unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR, 0)
	require.NoError(t, err)
	defer tty.Close()
	assert.True(t, isTerminal(tty))
	null, err := os.Open(os.DevNull)
	require.NoError(t, err)
	defer null.Close()
	assert.False(t, isTerminal(null), "/dev/null is no terminal")
	assert.False(t, isTerminal(strings.NewReader("{}")))
	// At a terminal, check says what it reads, then reads it.
	go func() { _, _ = ptmx.Write([]byte("{}\n\x04")) }()
	var out, errb bytes.Buffer
	code := run([]string{"check"}, env{stdin: tty, stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	assert.Equal(t, 0, code)
	assert.Equal(t, checkHint, errb.String())
	assert.Contains(t, out.String(), "deny", "an event that names nothing is denied")
}
