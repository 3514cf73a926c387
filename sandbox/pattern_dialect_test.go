package sandbox_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/sandbox"
)

// Protected and secret patterns speak doublestar's component syntax, as
// the permission rules and search filters do: "{a,b}" alternatives and
// "[!...]" complements mean what they mean there, for a path and for a
// filter that could select it; a group holding a "/" is refused.
func TestPatternDialectIsDoublestar(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws,
		Secret: []string{"*.{pem,key}", ".env.[!e]*", "{vault,keys}/"}})
	require.NoError(t, err)
	for _, c := range []struct {
		path, pattern string
		secret        bool
	}{
		{"a.pem", "*.{pem,key}", true},
		{"sub/A.KEY", "*.{pem,key}", true},
		{"a.crt", "", false},
		{"a.{pem,key}", "", false},
		{".env.local", ".env.[!e]*", true},
		{".env.example", "", false},
		{".env.!x", ".env.[!e]*", true},
		{"vault/token", "{vault,keys}/", true},
		{"x/keys/id", "{vault,keys}/", true},
		{"vaults/token", "", false},
	} {
		pat, ok := sb.Secret(filepath.Join(ws, c.path))
		assert.Equal(t, c.secret, ok, "%s: %s", c.path, pat)
		assert.Equal(t, c.pattern, pat, c.path)
	}
	for _, c := range []struct {
		filter, pattern string
		selects         bool
	}{
		{"*.key", "*.{pem,key}", true},
		{"**/*.pem", "*.{pem,key}", true},
		{"keys/id", "{vault,keys}/", true},
		{"*.go", "", false},
	} {
		pat, ok := sb.SelectsSecret(ws, c.filter)
		assert.Equal(t, c.selects, ok, "%s: %s", c.filter, pat)
		assert.Equal(t, c.pattern, pat, c.filter)
	}
	_, err = sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws, Secret: []string{"{a/b,c}"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "malformed pattern component {a")
}
