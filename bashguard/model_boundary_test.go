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
	"loops.go", "nested.go", "parsecache.go", "pipe.go", "scriptend.go", "subst.go", "vars.go", "word.go",
}

// syntaxReaders are the files outside the walker that read the syntax
// tree: the boundary (model.go: the walker's parse), the shells' dialects,
// whose input is a program (shcode.go, specs_code.go), the parse error
// and the package's documentation. A command model reads argv.
var syntaxReaders = []string{"model.go", "shcode.go", "specs_code.go", "parseerror.go", "doc.go"}

// TestModelsSeeOnlyTheCall holds every file outside the walker to the
// boundary of model.go: no code there names the analyzer, so no command
// model reaches the walker's state; it sees the cmdCall, and asks the
// walker through the walker interface. Nor does any name the Guard: its
// parsers and scratch pool are the walker's.
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
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		require.NoError(t, err)
		checked++
		for _, imp := range f.Imports {
			if imp.Path.Value == `"mvdan.cc/sh/v3/syntax"` && !slices.Contains(syntaxReaders, name) {
				assert.Fail(t, "a model reads the syntax tree", "%s imports the parser's syntax; models read argv", name)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == "analyzer" {
				assert.Fail(t, "a model names the walker", "%s uses the analyzer; models see the cmdCall only", fset.Position(id.Pos()))
			}
			if id, ok := n.(*ast.Ident); ok && id.Name == "Guard" {
				assert.Fail(t, "a model names the Guard", "%s uses the Guard; models see its policy and workspace facts through the cmdCall", fset.Position(id.Pos()))
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
