package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// A file below the system prefixes is read unasked only when every user
// may read it by its mode bits, every directory above it lets every user
// pass, it stays below them with its links followed, and its name is not
// a credential's.
func TestWorldReadableUnder(t *testing.T) {
	sys := t.TempDir()
	require.NoError(t, os.Chmod(sys, 0o755))
	require.NoError(t, os.Chmod(filepath.Dir(sys), 0o755)) // t.TempDir makes it 0700
	outside := t.TempDir()
	for name, mode := range map[string]os.FileMode{
		"os-release": 0o644, "nginx/nginx.conf": 0o644, "shadow": 0o640, "gshadow": 0o600, "conf/locked": 0o600,
		"ssl/private/server.key": 0o644, "app/server.key": 0o644, "app/db.password": 0o644, "closed/inner.conf": 0o644,
	} {
		p := filepath.Join(sys, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x\n"), mode))
		require.NoError(t, os.Chmod(p, mode))
	}
	require.NoError(t, os.Chmod(filepath.Join(sys, "closed"), 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "notes"), []byte("x\n"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(outside, "notes"), filepath.Join(sys, "link-out")))
	require.NoError(t, os.Symlink("os-release", filepath.Join(sys, "link-in")))
	pre := []string{sys}
	for name, want := range map[string]bool{
		"os-release": true, "nginx": true, "nginx/nginx.conf": true, "link-in": true, "nginx/*.conf": true,
		"shadow": false, "gshadow": false, "conf/locked": false, // not readable by every user (0640, 0600)
		"ssl/private/server.key": false, "app/server.key": false, "app/db.password": false, // a credential's name, though 0644
		"closed/inner.conf": false, // below a directory not every user may pass
		"link-out":          false, // leads out of the prefixes
		"missing":           false, "nginx/../shadow": false, "nginx/*/../../shadow": false,
	} {
		assert.Equal(t, want, worldReadableUnder(filepath.Join(sys, name), pre), name)
	}
	assert.False(t, worldReadableUnder(filepath.Join(outside, "notes"), pre), "outside the prefixes")
	assert.False(t, worldReadableUnder("os-release", pre), "a relative path")
}

// On this machine: /etc/os-release and /etc/passwd are read unasked,
// /etc/shadow (0640) is not, nor a tree that holds it, nor the home.
func TestSystemReadsInGuard(t *testing.T) {
	dir := t.TempDir()
	pol := DefaultPolicy()
	pol.Home = t.TempDir()
	g := New(pol)
	paths := CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})
	if st, err := os.Stat("/etc/shadow"); err != nil || st.Mode().Perm()&0o004 != 0 {
		t.Skipf("SKIP: this machine has no /etc/shadow kept from other users (%v), so the system reads are not checked here", err)
	}
	for _, c := range []struct{ script, want, reason string }{
		{"cat /etc/passwd", "allow", "every command is read-only"},
		{"ls /usr/lib", "allow", "every command is read-only"},
		{"find /usr/share -maxdepth 1 -name doc", "allow", "every command is read-only"},
		{"head -3 /proc/cpuinfo", "allow", "every command is read-only"},
		{"cat /etc/shadow", "ask", "outside the allowed roots"},
		{"grep -r root /etc", "ask", "outside the allowed roots"},
		{"cat /etc/*", "ask", "outside the allowed roots"},
		{"cat /proc/1/environ", "ask", "the environment holds secrets"},
		{"cat ~/.bashrc", "ask", "outside the allowed roots"},
		{"ls /tmp", "ask", "outside the allowed roots"},
		{"cp /etc/passwd /etc/passwd.bak", "deny", ""},
	} {
		v := g.Judge(context.Background(), dir, paths, c.script)
		assert.Equal(t, c.want, v.Decision.String(), "%q (%s)", c.script, v.Reason)
		assert.Contains(t, v.Reason, c.reason, c.script)
		if v.Decision != permission.Allow {
			assert.NotEmpty(t, v.Reason)
		}
	}
}
