package runtime_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// readsFixture is a workspace, a home, a directory the shell guard's
// policy names as the only system root, and a Go module cache, each made
// here with the modes the rule looks at.
type readsFixture struct {
	dir, home, sys, mod string
	p                   *runtime.Pipeline
}

func newReadsFixture(t *testing.T, system []string) *readsFixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	// t.TempDir makes them 0700: not every user may pass.
	require.NoError(t, os.Chmod(base, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(base), 0o755))
	f := &readsFixture{dir: filepath.Join(base, "work"), home: filepath.Join(base, "home"), sys: filepath.Join(base, "sys")}
	files := map[string]os.FileMode{
		"sys/include/stdio.h": 0o644, "sys/shadow": 0o640, "sys/app/db.password": 0o644, "sys/drop/notes.txt": 0o644,
		"home/.bashrc": 0o644, "work/main.go": 0o644,
		"home/go/pkg/mod/example.com/m@v1.0.0/m.go": 0o444,
	}
	for name, mode := range files {
		p := filepath.Join(base, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("int x;\n"), mode))
		require.NoError(t, os.Chmod(p, mode))
	}
	require.NoError(t, os.Chmod(filepath.Join(f.sys, "drop"), 0o777))
	require.NoError(t, os.Symlink(filepath.Join(f.home, ".bashrc"), filepath.Join(f.sys, "home-link")))
	mc := filepath.Join(f.home, "go", "pkg", "mod")
	f.mod = filepath.Join(mc, "example.com", "m@v1.0.0")
	if system == nil {
		system = []string{f.sys}
	}
	pol := bashguard.DefaultPolicy()
	pol.SystemRoots = system
	pol.GoEnv = bashguard.GoEnv{ModCache: mc}
	f.p, err = runtime.Open(runtime.Workspace{Dir: f.dir, Home: f.home, Shell: &pol, Rules: permission.Config{Default: permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow}}})
	require.NoError(t, err)
	_, err = f.p.Session(context.Background(), runtime.SessionOptions{ID: "s1"})
	require.NoError(t, err)
	return f
}

func (f *readsFixture) check(t *testing.T, tool string, input map[string]string) runtime.Verdict {
	t.Helper()
	b, err := json.Marshal(input)
	require.NoError(t, err)
	return f.p.Check(context.Background(), runtime.Call{Session: "s1", Tool: tool, Input: b})
}

// The file tools read world-readable system files and the Go module cache
// outside the roots by the shell guard's own rule (internal/sysread):
// Read, Grep of a file and Glob of a directory there are allowed with the
// rule's reason; a file not every user may read, a credential's name, one
// in a directory every user may write, a link out to the home, Grep of a
// whole system directory and every write stay refused, with the
// sandbox's reason. cat agrees with Read.
func TestFileToolsSystemReads(t *testing.T) {
	f := newReadsFixture(t, nil)
	for _, c := range systemReadRows(f) {
		v := f.check(t, c.tool, c.input)
		assert.Equal(t, c.want, v.Decision, "%s %v: %s", c.tool, c.input, v.Reason)
		assert.Equal(t, c.rule, v.Rule, "%s %v: %s", c.tool, c.input, v.Reason)
		assert.Contains(t, v.Reason, c.reason, "%s %v", c.tool, c.input)
	}
}

// systemReadRow is a call reaching outside the roots of a readsFixture,
// with the decision, rule and a part of the reason wanted.
type systemReadRow struct {
	tool   string
	input  map[string]string
	want   permission.Decision
	rule   permission.RuleID
	reason string
}

// systemReadRows are the calls of TestFileToolsSystemReads, which
// TestFSAgreesWithSystemReads does again through the pipeline's FS.
func systemReadRows(f *readsFixture) []systemReadRow {
	sys := func(p string) string { return filepath.Join(f.sys, p) }
	return []systemReadRow{
		{"Read", map[string]string{"file_path": sys("include/stdio.h")}, permission.Allow, "sandbox:system-read",
			"outside the allowed roots, but a system file every user may read (its mode bits say so), below " + f.sys},
		{"Grep", map[string]string{"pattern": "x", "path": sys("include/stdio.h")}, permission.Allow, "sandbox:system-read", "a system file every user may read"},
		{"Glob", map[string]string{"pattern": "*.h", "path": sys("include")}, permission.Allow, "sandbox:system-read", "a system file every user may read"},
		{"Glob", map[string]string{"pattern": sys("include/*.h")}, permission.Allow, "sandbox:system-read", "a system file every user may read"},
		{"Read", map[string]string{"file_path": filepath.Join(f.mod, "m.go")}, permission.Allow, "sandbox:go-module-cache",
			"outside the allowed roots, but in the Go module cache, downloaded public module source that go keeps read-only"},
		{"Grep", map[string]string{"pattern": "x", "path": f.mod}, permission.Allow, "sandbox:go-module-cache", "in the Go module cache"},
		{"Glob", map[string]string{"pattern": "**/*.go", "path": f.mod}, permission.Allow, "sandbox:go-module-cache", "in the Go module cache"},
		// Near misses: refused as before.
		{"Grep", map[string]string{"pattern": "x", "path": sys("include")}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		{"Read", map[string]string{"file_path": sys("shadow")}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		{"Read", map[string]string{"file_path": sys("app/db.password")}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		{"Read", map[string]string{"file_path": sys("drop/notes.txt")}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		{"Read", map[string]string{"file_path": sys("home-link")}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		{"Read", map[string]string{"file_path": filepath.Join(f.home, ".bashrc")}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		{"Write", map[string]string{"file_path": sys("include/new.h"), "content": "x"}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		{"Write", map[string]string{"file_path": filepath.Join(f.mod, "m.go"), "content": "x"}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		{"Edit", map[string]string{"file_path": sys("include/stdio.h"), "old_string": "x", "new_string": "y"}, permission.Deny, "sandbox:outside-roots", "outside every root"},
		// The shell guard reads the same roots.
		{"Bash", map[string]string{"command": "cat " + sys("include/stdio.h")}, permission.Allow, "safe", "a system file every user may read"},
		{"Bash", map[string]string{"command": "cat " + sys("drop/notes.txt")}, permission.Ask, "path:read", "outside the allowed roots"},
	}
}

// With the default system roots, the file tools read /usr/include/stdio.h
// on this machine, and not /etc/shadow; with none, not even stdio.h.
func TestFileToolsDefaultSystemRoots(t *testing.T) {
	st, err := os.Stat("/usr/include/stdio.h")
	if err != nil || st.Mode().Perm()&0o004 == 0 {
		t.Skipf("SKIP: this machine has no world-readable /usr/include/stdio.h (%v): the default roots are not checked here", err)
	}
	f := newReadsFixture(t, nil)
	f2 := newReadsFixture(t, []string{})
	def, err := runtime.Open(runtime.Workspace{Dir: f.dir, Home: f.home, Rules: permission.Config{Default: permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow}}})
	require.NoError(t, err)
	f.p = def
	_, err = def.Session(context.Background(), runtime.SessionOptions{ID: "s1"})
	require.NoError(t, err)
	v := f.check(t, "Read", map[string]string{"file_path": "/usr/include/stdio.h"})
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Equal(t, permission.RuleID("sandbox:system-read"), v.Rule)
	assert.Contains(t, v.Reason, "a system file every user may read (its mode bits say so), below /usr, /opt, /etc, /lib, /lib64")
	v = f2.check(t, "Read", map[string]string{"file_path": "/usr/include/stdio.h"})
	assert.Equal(t, permission.Deny, v.Decision, "no system roots: %s", v.Reason)
	assert.Contains(t, v.Reason, "outside every root")
	if st, err := os.Stat("/etc/shadow"); err == nil && st.Mode().Perm()&0o004 == 0 {
		v = f.check(t, "Read", map[string]string{"file_path": "/etc/shadow"})
		assert.Equal(t, permission.Deny, v.Decision, v.Reason)
		assert.Contains(t, v.Reason, "outside every root")
	} else {
		t.Logf("SKIP part: no /etc/shadow kept from other users here (%v)", err)
	}
}
