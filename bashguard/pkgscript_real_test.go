package bashguard

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// The words a script run passes to the package's script are the words
// the installed package managers pass: each line runs for real, in a
// package whose script prints the words it is given, and is judged in a
// package whose script reads .env, so that every word passed on shows
// in the reason ("pnpm test passes -C /tmp/o to the package's script
// test"), and a line that passes none is judged as the script alone.
func TestScriptRunsPassTheirWords(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("SKIP: node is not installed, so no package manager can run a script here: " + err.Error())
	}
	real, judged, home := t.TempDir(), t.TempDir(), t.TempDir()
	printer := filepath.Join(real, "argv.js")
	require.NoError(t, os.WriteFile(printer, []byte("console.log('\\x1e' + JSON.stringify(process.argv.slice(2)))\n"), 0o644))
	manifest := func(dir, script string) {
		text, err := json.Marshal(map[string]any{"name": "p", "version": "1.0.0",
			"scripts": map[string]string{"test": script, "start": script, "lint": script}})
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), text, 0o644))
	}
	manifest(real, "node "+printer)
	manifest(judged, "cat .env")
	require.NoError(t, os.WriteFile(filepath.Join(judged, ".env"), []byte("TOKEN=x\n"), 0o644))
	g := New(Policy{Home: home})
	paths := CheckerJudge(rootChecker{dir: judged, roots: []string{judged}})

	runs := map[string][]string{
		"pnpm": {"test", "t", "tst", "start", "run lint"},
		"yarn": {"test", "start", "run lint"},
		"npm":  {"test", "start", "run lint"},
		"bun":  {"run lint"},
	}
	words := [][]string{
		{}, {"--watch"}, {"-C", "/tmp/o"}, {"--dir", "sub"}, {"-r"}, {"--filter", "x"}, {"--silent"}, {"-s"},
		{"--"}, {"--", "--x"}, {"x", "--", "y"}, {"--env-file", ".e"}, {"--reporter=json"}, {"--cwd", "/tmp/o"},
		{"--config.script-shell=/bin/sh"}, {"-w"}, {"--if-present"}, {"u", "v"}, {"x", "--verbose", "--", "y"},
		{"-s", "--", "-s"}, {"--", "--", "a"}, {"a", "--", "b", "--", "c"},
	}
	tried := 0
	for tool, subs := range runs {
		bin, err := helpTool(tool)
		if err != nil {
			t.Logf("SKIP: %s is not installed here (%v): its script runs are not compared", tool, err)
			continue
		}
		for _, sub := range subs {
			for _, ws := range words {
				args := append(strings.Fields(sub), ws...)
				cmd := exec.Command(bin, args...)
				cmd.Dir = real
				cmd.Env = []string{"HOME=" + home, "PATH=" + filepath.Dir(node) + ":/usr/bin:/bin", "npm_config_cache=" + filepath.Join(home, "npm"),
					"npm_config_update_notifier=false", "COREPACK_ENABLE_STRICT=0", "CI=1"}
				out, _ := cmd.CombinedOutput() // a run may fail after its script printed; what it printed counts
				got, ran := printedWords(string(out))
				line := tool + " " + strings.Join(args, " ")
				v := g.Judge(context.Background(), judged, paths, line)
				believed, passes := passedWords(v.Reason)
				if !ran {
					// The package manager refused the line before the script ran
					// (an option of its own it could not use): nothing is passed.
					assert.False(t, passes && v.Decision.String() == "allow", "%s: the script did not run (%s), and the guard allowed it: %s", line, out, v.Reason)
					continue
				}
				tried++
				assert.Equal(t, got, believed, "%s: the script was given %q; the guard judged %q (%s: %s)", line, got, believed, v.Decision, v.Reason)
				// Words passed make the script's last command cat .env
				// WORDS, denied; none leave the script as package.json
				// writes it, which a script run asks for.
				if len(got) > 0 {
					assert.Equal(t, permission.Deny, v.Decision, "%s: %s", line, v.Reason)
					assert.Contains(t, v.Reason, "reads .env", line)
				} else {
					assert.Equal(t, permission.Ask, v.Decision, "%s: %s", line, v.Reason)
					assert.Contains(t, v.Reason, "not on the safe list", line)
				}
			}
		}
	}
	t.Logf("%d script runs compared", tried)
	assert.Greater(t, tried, 20, "too few script runs compared")
}

// printedWords finds the words the printer script printed in out.
func printedWords(out string) ([]string, bool) {
	_, rest, ok := strings.Cut(out, "\x1e")
	if !ok {
		return nil, false
	}
	line, _, _ := strings.Cut(rest, "\n")
	var words []string
	if json.Unmarshal([]byte(line), &words) != nil {
		return nil, false
	}
	return words, true
}

// passedWords reads the words a reason says the run passes to the
// package's script: none when it says nothing of them.
func passedWords(reason string) ([]string, bool) {
	_, rest, ok := strings.Cut(reason, " passes ")
	if !ok {
		return []string{}, false
	}
	words, _, ok := strings.Cut(rest, " to the package's script ")
	if !ok {
		return []string{}, false
	}
	return strings.Fields(words), true
}
