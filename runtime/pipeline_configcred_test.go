package runtime

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// A repository's config that holds a credential (the authorization
// header a CI checkout persists) is read as a secret path is, by every
// tool that reads it: a shell command's read is denied, a file tool's
// asked, a probe of its metadata allowed; a config without one is read
// like any file.
func TestPipelineConfigCredentialIsSecret(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	w.start(t, "s", permission.ModeDefault)
	cfg := filepath.Join(w.dir, ".git", "config")
	require.NoError(t, os.WriteFile(cfg, []byte("[core]\n\tbare = false\n[remote \"origin\"]\n\turl = https://github.com/o/r\n"), 0o644))
	bash := func(cmd string) []byte { return in("command", cmd) }
	runCases(t, w, "s", []pcase{
		{"clean config, cat", "Bash", bash("cat .git/config"), permission.Allow, permission.LayerShell, "", ""},
		{"clean config, Read", "Read", in("file_path", ".git/config"), permission.Allow, permission.LayerRules, "", "default for read tools is allow"},
	})

	require.NoError(t, os.WriteFile(cfg, []byte("[core]\n\tbare = false\n[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3M=\n"), 0o644))
	const why = ".git/config: a git config file whose key http.https://github.com/.extraheader holds a credential"
	runCases(t, w, "s", []pcase{
		{"cat", "Bash", bash("cat .git/config"), permission.Deny, permission.LayerSandbox, "path:secret", why},
		{"grep", "Bash", bash("grep -i auth .git/config"), permission.Deny, permission.LayerSandbox, "path:secret", why},
		{"through a link", "Bash", bash("ln -sf .git/config notes.txt 2>/dev/null; cat notes.txt"), permission.Deny, permission.LayerSandbox, "", why},
		{"a walk", "Bash", bash("grep -r x .git"), permission.Ask, permission.LayerSandbox, "", "searches the tree below .git, which holds config"},
		{"Read", "Read", in("file_path", ".git/config"), permission.Ask, permission.LayerSandbox, "sandbox:secret", why},
		{"a probe", "Bash", bash("ls -l .git/config"), permission.Allow, permission.LayerShell, "", ""},
	})
}
