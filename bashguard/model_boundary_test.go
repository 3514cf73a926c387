package bashguard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walkerFiles are the files of the walker, which owns the bash semantics
// and may use the analyzer (model.go).
var walkerFiles = []string{
	"analyze.go", "background.go", "call.go", "cdtrack.go", "differ.go", "guard.go", "listloops.go",
	"loops.go", "nested.go", "pipe.go", "subst.go", "vars.go", "word.go",
}

// TestModelsSeeOnlyTheCall holds every file outside the walker to the
// boundary of model.go: no code there names the analyzer, so no command
// model reaches the walker's state; it sees the cmdCall, and asks the
// walker through the walker interface.
func TestModelsSeeOnlyTheCall(t *testing.T) {
	entries, err := os.ReadDir(".")
	require.NoError(t, err)
	fset := token.NewFileSet()
	checked := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") || slices.Contains(walkerFiles, name) {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "analyzer" {
				assert.Fail(t, "a model names the walker", "%s uses the analyzer; models see the cmdCall only", fset.Position(id.Pos()))
			}
			return true
		})
	}
	assert.Greater(t, checked, 40, "the model files were read")
	for _, w := range walkerFiles {
		_, err := os.Stat(w)
		assert.NoError(t, err, "walker file %s", w)
	}
}
