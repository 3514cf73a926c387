package content_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/content"
	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// A search's file type is judged by every glob ripgrep gives it, whatever
// the kind of file: a secret the user named with a source extension is
// reached by that language's type, and the other types stay allowed.
func TestFileTypeSelectsConfiguredSecret(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws,
		Secret: append(sandbox.DefaultSecret(), "local_settings.py", "*.secret.ts")})
	require.NoError(t, err)
	checker, err := permission.New(permission.Config{WorkDir: ws, Default: permission.Allow})
	require.NoError(t, err)
	call := content.Call{Tool: "Grep", Kind: permission.KindRead, FileTypeFields: []string{"type"}}
	for _, c := range []struct {
		typ      string
		decision permission.Decision
		reason   string
	}{
		{"py", permission.Ask, `type "py" selects "*.py", which could be a secret file (local_settings.py)`},
		{"python", permission.Ask, `type "python" selects "*.py", which could be a secret file (local_settings.py)`},
		{"ts", permission.Ask, `type "ts" selects "*.ts", which could be a secret file (*.secret.ts)`},
		{"sh", permission.Ask, `type "sh" selects ".env", which could be a secret file (.env)`},
		{"go", permission.Allow, ""},
		{"rust", permission.Allow, ""},
	} {
		t.Run(c.typ, func(t *testing.T) {
			_, members, err := jsonin.Object([]byte(`{"pattern":"x","type":"`+c.typ+`"}`), nil, nil)
			require.NoError(t, err)
			got := content.Inspect(context.Background(), content.Judges{Checker: checker, Sandbox: sb}, call, members)
			r := permission.Combine(permission.ModeDefault, permission.Call{Tool: "Grep", Kind: permission.KindRead, InsideRoots: got.InsideRoots}, got.Answers()...)
			assert.Equal(t, c.decision, r.Decision, r.Reason)
			if c.reason != "" {
				assert.Equal(t, sandbox.RuleSecret, r.Rule)
				assert.Contains(t, r.Reason, c.reason)
			}
		})
	}
}
