package bashguard

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/permission"
)

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
