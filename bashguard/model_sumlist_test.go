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

// TestSumList judges checksum checks against real lists: every name a
// list holds is a read; a line of another form, standard input and a
// list that is not there are judged as such.
func TestSumList(t *testing.T) {
	const h = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	for _, tc := range []struct {
		list, script string
		want         permission.Decision
		reason       string
	}{
		{h + "  a.txt\n" + h + " *src/b.txt\n", "sha256sum -c SUMS", permission.Allow, "read-only"},
		{"SHA256 (a.txt) = " + h + "\n", "sha256sum --check --strict SUMS", permission.Allow, "read-only"},
		{h + "  a.txt\r\n", "sha256sum -c --quiet SUMS", permission.Allow, "read-only"},
		{h + "  .env\n", "sha256sum -c SUMS", permission.Deny, "reads .env"},
		{"SHA256 (.env) = " + h + "\n", "cksum -c SUMS", permission.Deny, "reads .env"},
		{h + "  ../outside.txt\n", "md5sum -c SUMS", permission.Ask, "outside"},
		{"\\" + h + "  a\\nb\n", "sha256sum -c SUMS", permission.Ask, "is not a plain checksum line"},
		{"garbage\n", "sha1sum -c SUMS", permission.Ask, "is not a plain checksum line"},
		{"", "sha256sum -c", permission.Ask, "standard input"},
		{"", "sha256sum -c missing", permission.Allow, "read-only"},
		{h + "  a.txt\n", "sha256sum -c .env", permission.Deny, "reads .env"},
	} {
		top := t.TempDir()
		dir := filepath.Join(top, "w")
		for name, body := range map[string]string{"SUMS": tc.list, "a.txt": "", "src/b.txt": "", ".env": "K=v\n"} {
			p := filepath.Join(dir, name)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
		}
		pol := DefaultPolicy()
		pol.Home = t.TempDir()
		v := New(pol).Judge(context.Background(), dir, CheckerJudge(rootChecker{dir: dir, roots: []string{dir}}), tc.script)
		assert.Equal(t, tc.want, v.Decision, "%s with %q: %s", tc.script, tc.list, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%s with %q", tc.script, tc.list)
	}
}
