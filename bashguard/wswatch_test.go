package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/fswatch"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// watchCase is a change to the workspace between two Judges of one
// long-lived Guard (and sandbox): the second decision and reason must be
// a fresh Guard's, and differ from the first (an Allow).
type watchCase struct {
	name   string
	setup  func(t *testing.T, dir, home string) // before the first Judge
	script string
	change func(t *testing.T, dir, home string)
	reason string // in the reason after the change, which is no Allow
}

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), 0o600))
}

var watchCases = []watchCase{{
	name:   "a .env made",
	script: "grep -r TOKEN .",
	change: func(t *testing.T, dir, _ string) { writeFile(t, filepath.Join(dir, ".env"), "TOKEN=x\n") },
	reason: ".env",
}, {
	name:   "a secret renamed in",
	setup:  func(t *testing.T, dir, _ string) { writeFile(t, filepath.Join(dir, "notes.txt"), "TOKEN=x\n") },
	script: "grep -r TOKEN .",
	change: func(t *testing.T, dir, _ string) {
		require.NoError(t, os.Rename(filepath.Join(dir, "notes.txt"), filepath.Join(dir, ".env")))
	},
	reason: ".env",
}, {
	name:   "a directory swapped for a link",
	setup:  func(t *testing.T, dir, home string) { writeFile(t, filepath.Join(dir, "src", "a.go"), "package a\n") },
	script: "ls src",
	change: func(t *testing.T, dir, home string) {
		require.NoError(t, os.RemoveAll(filepath.Join(dir, "src")))
		require.NoError(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(dir, "src")))
	},
	reason: "outside",
}, {
	name: "another branch checked out",
	setup: func(t *testing.T, dir, _ string) {
		gitIn(t, dir, "checkout", "-qb", "other")
		writeFile(t, filepath.Join(dir, ".env"), "TOKEN=x\n")
		gitIn(t, dir, "add", "-f", ".env")
		gitIn(t, dir, "commit", "-qm", "env")
		gitIn(t, dir, "checkout", "-q", "-")
		require.NoError(t, os.RemoveAll(filepath.Join(dir, ".env")))
	},
	script: "git grep TOKEN",
	change: func(t *testing.T, dir, _ string) { gitIn(t, dir, "checkout", "-q", "other") },
	reason: ".env",
}, {
	name:   "core.fsmonitor written into .git/config",
	script: "git status",
	change: func(t *testing.T, dir, _ string) {
		f, err := os.OpenFile(filepath.Join(dir, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
		require.NoError(t, err)
		_, err = f.WriteString("[core]\n\tfsmonitor = touch /tmp/pwned\n")
		require.NoError(t, err)
		require.NoError(t, f.Close())
	},
	reason: "core.fsmonitor",
}, {
	name:   "a .git made in a subdirectory",
	setup:  func(t *testing.T, dir, _ string) { writeFile(t, filepath.Join(dir, "sub", "x.go"), "package x\n") },
	script: "git -C sub log -1",
	change: func(t *testing.T, dir, _ string) { gitIn(t, filepath.Join(dir, "sub"), "init", "-q") },
	reason: "another repository",
}}

// A long-lived Guard and sandbox see every change to the workspace made
// between two Judges, as a fresh Guard would: with the facts watched
// (inotify), and with the watcher forced unavailable (stamps alone).
func TestWorkspaceFactsWatched(t *testing.T) {
	for _, watched := range []bool{true, false} {
		mode := "stamps"
		if watched {
			mode = "inotify"
		}
		for _, c := range watchCases {
			t.Run(mode+"/"+c.name, func(t *testing.T) {
				if watched {
					needInotify(t)
				}
				dir := wsRepo(t)
				home, err := filepath.EvalSymlinks(t.TempDir())
				require.NoError(t, err)
				require.NoError(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
				if c.setup != nil {
					c.setup(t, dir, home)
				}
				judge := watchJudge(t, dir, home, watched)
				g := newWatchGuard(home, !watched)
				// The first reads the facts, the second covers them, the
				// third finds them covered.
				var before Verdict
				for range 3 {
					before = judge(g, c.script)
				}
				require.Equal(t, permission.Allow, before.Decision, before.Reason)
				if watched && c.script[:3] == "git" {
					assert.NotNil(t, g.ws.watcher.Load(), "the Guard watches its facts")
					assert.Positive(t, coveredFacts(g), "some fact is covered by the watcher")
				} else if !watched {
					assert.Nil(t, g.ws.watcher.Load(), "no watcher when inotify is unavailable")
				}
				c.change(t, dir, home)
				after := judge(g, c.script)
				fresh := watchJudge(t, dir, home, false)(newWatchGuard(home, true), c.script)
				assert.Equal(t, fresh.Decision, after.Decision, "after: %s; fresh: %s", after.Reason, fresh.Reason)
				assert.Equal(t, fresh.Reason, after.Reason)
				assert.NotEqual(t, permission.Allow, after.Decision, after.Reason)
				assert.Contains(t, after.Reason, c.reason)
				require.NoError(t, g.Close())
				again := judge(g, c.script)
				assert.Equal(t, after.Decision, again.Decision, "a closed Guard judges by stamps: %s", again.Reason)
				assert.Equal(t, after.Reason, again.Reason)
			})
		}
	}
}

// needInotify skips a test of the watched facts where no inotify
// instance can be had (another system, or the user's instances used up).
func needInotify(t *testing.T) {
	t.Helper()
	w, err := fswatch.New()
	if err != nil {
		t.Skip("SKIP: NOT TESTED: no inotify instance for the watcher: " + err.Error())
	}
	_ = w.Close()
}

func newWatchGuard(home string, noWatch bool) *Guard {
	pol := DefaultPolicy()
	pol.Home = home
	g := New(pol)
	g.ws.noTTL = true // the files are young: trust them, the hardest case
	g.ws.noWatch = noWatch
	return g
}

// watchJudge returns a Judge of scripts in dir through a view of one
// long-lived sandbox over dir, with home, for each call, as a pipeline
// takes one; the sandbox's watcher closed unless watched.
func watchJudge(t *testing.T, dir, home string, watched bool) func(*Guard, string) Verdict {
	sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir, Home: home})
	require.NoError(t, err)
	if !watched {
		require.NoError(t, sb.Close())
	}
	t.Cleanup(func() { _ = sb.Close() })
	return func(g *Guard, script string) Verdict {
		return g.Judge(context.Background(), dir, CheckerJudge(sb.Pin()), script)
	}
}

func coveredFacts(g *Guard) int {
	g.ws.mu.Lock()
	defer g.ws.mu.Unlock()
	n := 0
	for _, f := range g.ws.facts {
		if f.deps.OK() {
			n++
		}
	}
	return n
}

// A command's word looked up as a possible file (operandDeny) is a kept
// fact too: a secret made under that name after a Judge found none is
// seen by the next Judge, as a fresh Guard sees it, watched or not.
func TestWordFactsWatched(t *testing.T) {
	for _, watched := range []bool{true, false} {
		t.Run(map[bool]string{true: "inotify", false: "stamps"}[watched], func(t *testing.T) {
			if watched {
				needInotify(t)
			}
			dir := wsRepo(t)
			home, err := filepath.EvalSymlinks(t.TempDir())
			require.NoError(t, err)
			judge := watchJudge(t, dir, home, watched)
			g := newWatchGuard(home, !watched)
			const script = "mytool .env.local"
			var before Verdict
			for range 3 {
				before = judge(g, script)
			}
			require.Equal(t, permission.Ask, before.Decision, before.Reason)
			writeFile(t, filepath.Join(dir, ".env.local"), "TOKEN=x\n")
			after := judge(g, script)
			fresh := watchJudge(t, dir, home, false)(newWatchGuard(home, true), script)
			assert.Equal(t, fresh.Decision, after.Decision, "after: %s; fresh: %s", after.Reason, fresh.Reason)
			assert.Equal(t, fresh.Reason, after.Reason)
			assert.Equal(t, permission.Deny, after.Decision, after.Reason)
			assert.Contains(t, after.Reason, ".env.local")
		})
	}
}
