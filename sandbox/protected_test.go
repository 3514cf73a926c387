package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/sandbox"
)

func TestProtectedTellsAProtectedPathFromASecretOne(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(t, err)
	require.NoError(t, os.Symlink(".mcp.json", filepath.Join(root, "link")))
	for _, c := range []struct {
		path, pattern string
		ok            bool
	}{
		{".mcp.json", ".mcp.json", true},
		{".claude/settings.local.json", ".claude/", true},
		{"sub/.vscode/tasks.json", ".vscode/", true},
		{".envrc", ".envrc", true}, // protected and secret
		{".env", "", false},        // secret only
		{"id_rsa", "", false},
		{"out.txt", "", false},
		{"link", ".mcp.json", true}, // by where it leads
		{".claude/AGENTS.md", "", false},
	} {
		pat, ok := sb.Protected(filepath.Join(root, c.path))
		assert.Equal(t, c.ok, ok, c.path)
		assert.Equal(t, c.pattern, pat, c.path)
	}
	var nilSandbox *sandbox.Sandbox
	_, ok := nilSandbox.Protected(filepath.Join(root, ".mcp.json"))
	assert.False(t, ok)
}
