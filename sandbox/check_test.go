package sandbox_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

func TestCheckPath(t *testing.T) {
	tr := newTree(t)
	cases := []struct {
		name   string
		path   string
		write  bool
		want   permission.Decision
		reason string
	}{
		{"read inside", "sub/b.txt", false, permission.Allow, "read " + tr.r("sub/b.txt") + ": inside root " + tr.root},
		{"write inside", "sub/new.txt", true, permission.Allow, "write " + tr.r("sub/new.txt") + ": inside root " + tr.root},
		{"write outside", "../outside/x", true, permission.Deny, `write "../outside/x" refused: resolves to ` + tr.o("x") + ", outside every root"},
		{"read sibling prefix", tr.evil + "/x", false, permission.Deny, "refused: resolves to " + tr.evil + "/x, outside every root"},
		{"home", "~/.bashrc", true, permission.Deny, `write "~/.bashrc" refused: leading "~" refers to a home directory`},
		{"loop", "loop1", false, permission.Deny, `read "loop1" refused: more than 40 symbolic links followed`},
		{"empty", "", false, permission.Deny, `read "" refused: empty path`},
		{"magic root", "/proc/self/root/etc/shadow", false, permission.Deny, `read "/proc/self/root/etc/shadow" refused: names /proc/self, a process-relative location`},

		{"git config write", ".git/config", true, permission.Ask, "write " + tr.r(".git/config") + `: protected path (matches ".git/")`},
		{"git hook write", ".git/hooks/pre-commit", true, permission.Ask, `protected path (matches ".git/")`},
		{"git dir write", ".git", true, permission.Ask, `protected path (matches ".git/")`},
		{"git config read", ".git/config", false, permission.Allow, "read " + tr.r(".git/config") + ": inside root"},
		{"git case folded", ".GIT/config", true, permission.Ask, `protected path (matches ".git/")`},
		{"claude settings", ".claude/settings.json", true, permission.Ask, `protected path (matches ".claude/")`},
		{"new file in claude", ".claude/settings.local.json", true, permission.Ask, `protected path (matches ".claude/")`},
		{"bashrc link itself", ".bashrc", true, permission.Ask, `protected path (matches ".bashrc")`},
		{"zshrc new", "sub/.zshrc", true, permission.Ask, `protected path (matches ".zshrc")`},
		{"profile", ".profile", true, permission.Ask, `protected path (matches ".profile")`},
		{"npmrc", ".npmrc", true, permission.Ask, `protected path (matches ".npmrc")`},
		{"pypirc", "sub/.pypirc", true, permission.Ask, `protected path (matches ".pypirc")`},
		{"link to protected", "innocent", true, permission.Ask, "write " + tr.r(".git/config") + `: protected path (matches ".git/")`},
		{"dotdot to protected", "sub/../.git/hooks/post-merge", true, permission.Ask, `protected path (matches ".git/")`},
		{"toolgate settings", ".toolgate/settings.json", true, permission.Ask, `protected path (matches ".toolgate/")`},

		{"env read", ".env", false, permission.Ask, "read " + tr.r(".env") + `: secret path (matches ".env")`},
		{"env local read", ".env.local", false, permission.Ask, `secret path (matches ".env.*")`},
		{"pem read", "server.pem", false, permission.Ask, `secret path (matches "*.pem")`},
		{"key read", "sub/tls.key", false, permission.Ask, `secret path (matches "*.key")`},
		{"id_rsa read", "id_rsa", false, permission.Ask, `secret path (matches "id_rsa*")`},
		{"id_rsa pub read", "id_rsa.pub", false, permission.Ask, `secret path (matches "id_rsa*")`},
		{"ssh read", ".ssh/config", false, permission.Ask, `secret path (matches ".ssh/")`},
		{"aws read", ".aws/credentials", false, permission.Ask, `secret path (matches ".aws/credentials")`},
		{"netrc read", ".netrc", false, permission.Ask, `secret path (matches ".netrc")`},
		{"git credentials read", ".git-credentials", false, permission.Ask, `secret path (matches ".git-credentials")`},
		{"link to secret", "vars", false, permission.Ask, "read " + tr.r(".env") + `: secret path (matches ".env")`},
		{"env write", ".env", true, permission.Ask, `secret path (matches ".env")`},
		{"envrc is secret", ".envrc", false, permission.Ask, "read " + tr.r(".envrc") + `: secret path (matches ".envrc")`},
		{"env template", ".env.example", false, permission.Allow, "read " + tr.r(".env.example") + ": inside root"},
		{"environment is not env", "environment", false, permission.Allow, "inside root"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, reason := tr.sb.CheckPath(c.path, c.write)
			assert.Equal(t, c.want, d, reason)
			assert.Contains(t, reason, c.reason)
		})
	}
}

func TestCheckPathConfigurableLists(t *testing.T) {
	tr := newTree(t)
	sb, err := sandbox.New(sandbox.Config{
		Roots:     []string{tr.root},
		WorkDir:   tr.root,
		Protected: []string{"/" + tr.root[1:] + "/sub/**/*.txt"},
		Secret:    []string{},
	})
	assert.NoError(t, err)

	d, reason := sb.CheckPath("sub/deep/d4/x.txt", true)
	assert.Equal(t, permission.Ask, d)
	assert.Contains(t, reason, `protected path (matches "`+tr.root+`/sub/**/*.txt")`)

	d, reason = sb.CheckPath(".git/config", true)
	assert.Equal(t, permission.Allow, d, "defaults replaced")
	assert.Contains(t, reason, "inside root")

	d, reason = sb.CheckPath(".env", false)
	assert.Equal(t, permission.Allow, d, "empty secret list marks nothing")
	assert.Contains(t, reason, "read "+tr.r(".env")+": inside root")

	var zero sandbox.Sandbox
	d, reason = zero.CheckPath("/tmp", false)
	assert.Equal(t, permission.Deny, d)
	assert.Contains(t, reason, "no roots are configured")
}

func TestNilAndZeroFailClosed(t *testing.T) {
	tr := newTree(t)
	var nilSB *sandbox.Sandbox
	d, reason := nilSB.CheckPath(tr.r("a.txt"), false)
	assert.Equal(t, permission.Deny, d)
	assert.Contains(t, reason, "no roots are configured")
	_, err := nilSB.Resolve(tr.r("a.txt"))
	assert.ErrorIs(t, err, sandbox.ErrOutsideRoots)
	assert.Contains(t, err.Error(), "no roots are configured")
	assert.Empty(t, nilSB.Roots())

	var zero sandbox.FS
	_, err = zero.ReadFile(tr.r("a.txt"))
	assert.ErrorIs(t, err, sandbox.ErrOutsideRoots)
	assert.Contains(t, err.Error(), "no roots are configured")
	err = zero.WriteFile(tr.r("new.txt"), nil, 0o644)
	assert.ErrorIs(t, err, sandbox.ErrOutsideRoots)
	assert.Contains(t, err.Error(), "no roots are configured")
	_, err = zero.Glob(tr.r("*"))
	assert.ErrorIs(t, err, sandbox.ErrOutsideRoots)
	assert.Contains(t, err.Error(), "no roots are configured")
	assert.NoError(t, zero.Close())
}
