package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolgate/toolgate/bashguard/runner"
)

// TestMain lets the test binary confine the shell commands it runs: a
// Runner starts it again as its launcher.
func TestMain(m *testing.M) {
	runner.ConfineMain()
	os.Exit(m.Run())
}

// TestReactLoop plays the whole script and checks every printed line: for
// each call its tool, decision, layer and reason; the person's answer; the
// host's step-limit and cancel lines; and what the metrics hook and the
// SQLite audit log counted (one row per call, denied ones and the
// subagent's included).
func TestReactLoop(t *testing.T) {
	defer goleak.VerifyNone(t)
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "reactloop-*"))

	var out bytes.Buffer
	require.NoError(t, run(t.Context(), &out))
	want := []string{
		`step 1: look around the project`,
		`  Read     README.md                          allow L2 rules   no rule matched; the default for read tools is allow`,
		`  Glob     **/*.go                            allow L2 rules   no rule matched; the default for read tools is allow`,
		`  Bash     ls src                             allow L5 shell   reads only inside the allowed roots`,
		`step 2: look for credentials and send them away`,
		`  Read     .env                               deny  L2 rules   denied by deny rule Read(./.env) (config)`,
		`  WebFetch https://pastebin.com/api           deny  L3 hooks   uploads to pastebin are not allowed`,
		`step 3: try to leave the workspace`,
		`  Read     escape/secret.txt                  deny  L4 sandbox read "escape/secret.txt" refused: resolves to ../outside/secret.txt, outside every root (.)`,
		`  Read     ../outside/secret.txt              deny  L4 sandbox read "../outside/secret.txt" refused: resolves to ../outside/secret.txt, outside every root (.)`,
		`step 4: try destructive commands`,
		`  Bash     rm -rf /                           deny  L5 shell   rm: removes the critical path / recursively or by force`,
		`  Bash     git push origin main               deny  L2 rules   denied by deny rule Bash(git push:*) (config)`,
		`step 5: make a build directory`,
		`  ? asked about Bash mkdir -p build (L5 shell: mkdir: writes build (inside the allowed roots)): allow-always, recording Bash(mkdir -p build)`,
		`  Bash     mkdir -p build                     allow L5 shell   the person allowed it (allow-always) after: mkdir: writes build (inside the allowed roots); added session rules Bash(mkdir -p build)`,
		`step 6: build again`,
		`  Bash     mkdir -p build                     allow L2 rules   allowed by allow rule Bash(mkdir -p build) (session)`,
		`  Bash     ls build && touch build/stamp      allow L5 shell   reads only inside the allowed roots`,
		`      ls build                                allow L5 shell   reads only inside the allowed roots`,
		`      touch build/stamp                       allow L2 rules   allowed by allow rule Bash(touch build/stamp) (config)`,
		`step 7: delegate a review to a subagent`,
		`  subagent reviewer: review the build`,
		`  Read     README.md                          allow L2 rules   no rule matched; the default for read tools is allow`,
		`  Write    build/review.txt                   deny  L6 subagent subagent "reviewer" cannot ask the person, and this call would ask: no rule matched; the default for edit tools is ask`,
		`  subagent reviewer: done`,
		`  Task     review the build                   allow L2 rules   allowed by allow rule Task (config)`,
		`step 8: read the same file again and again`,
		`  Read     src/main.go                        allow L2 rules   no rule matched; the default for read tools is allow`,
		`  Read     src/main.go                        allow L2 rules   no rule matched; the default for read tools is allow`,
		`  Read     src/main.go                        deny  L7 runtime the same Read call with the same input 3 times in a row: try something else`,
		`step 9: keep working past the step limit`,
		`  host: step 9 is past the limit of 8 steps: stop offering tools and ask for the final answer`,
		`  Read     README.md                          deny  L7 runtime step 9 is past the limit of 8 steps: no more tool calls, give the final answer`,
		`step 10: keep going; the user cancels`,
		`  host: step 10 is past the limit of 8 steps: stop offering tools and ask for the final answer`,
		`  Bash     ls                                 deny  L7 runtime session is cancelled: runtime: session cancelled: the user pressed Esc`,
		`  host: the session is cancelled: the loop stops`,
		`the commands ran for real: build/stamp exists: true`,
		`metrics: 20 calls, 10 denied, 0 failed`,
		`audit log (SQLite): 20 rows, 10 of them denied, 4 shell commands confined by Landlock`,
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	assert.Equal(t, want, got)

	var again bytes.Buffer
	require.NoError(t, run(t.Context(), &again))
	assert.Equal(t, out.String(), again.String(), "the output is the same on every run")

	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "reactloop-*"))
	assert.Equal(t, len(before), len(after), "the temporary workspace is removed")
}
