package bashguard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// minDataCode is the least share of the package's lines that are tables,
// against the lines of its function bodies: per-command knowledge is
// written as data (specs, rows, lists), and this holds the share from
// falling back. The issue that asked for it aims at 1:1; at 9e30655 it
// was 0.096.
const minDataCode = 0.35

// TestDataCodeRatio counts, in the package's non-test, non-generated
// files, the lines of package-level tables (a variable whose value is a
// composite literal, one built from composite literals by a call, or a
// sync.OnceValue of a function that returns one) against the lines of
// function bodies and of every other variable's value, logs the ratio and
// fails below minDataCode.
func TestDataCodeRatio(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	var data, code int
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || strings.HasSuffix(f, "_gen.go") {
			continue
		}
		af, err := parser.ParseFile(fset, f, nil, 0)
		require.NoError(t, err)
		d, c := dataCodeLines(fset, af)
		data, code = data+d, code+c
	}
	ratio := float64(data) / float64(code)
	t.Logf("tables %d lines, function bodies %d lines: %.3f (at least %.2f)", data, code, ratio, minDataCode)
	require.GreaterOrEqual(t, ratio, minDataCode, "per-command knowledge went back into code")
}

// dataCodeLines counts the lines of f's package-level tables and those
// of its function bodies and other variables' values.
func dataCodeLines(fset *token.FileSet, f *ast.File) (data, code int) {
	lines := func(n ast.Node) int { return fset.Position(n.End()).Line - fset.Position(n.Pos()).Line + 1 }
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Body != nil {
				code += lines(d.Body)
			}
		case *ast.GenDecl:
			if d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				for _, v := range s.(*ast.ValueSpec).Values {
					if isTableExpr(v) {
						data += lines(v)
					} else {
						code += lines(v)
					}
				}
			}
		}
	}
	return data, code
}

// isTableExpr reports whether e, a package-level variable's value, is a
// table: a composite literal or its address, a call with one as an
// argument (rows(...), (&spec{...}).compile()), or a sync.OnceValue of a
// function whose one statement returns one or such a call.
func isTableExpr(e ast.Expr) bool {
	switch v := e.(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		return isTableExpr(v.X)
	case *ast.ParenExpr:
		return isTableExpr(v.X)
	case *ast.SelectorExpr:
		return isTableExpr(v.X)
	case *ast.CallExpr:
		if isTableExpr(v.Fun) {
			return true
		}
		for _, a := range v.Args {
			if _, ok := a.(*ast.CompositeLit); ok {
				return true
			}
			if fl, ok := a.(*ast.FuncLit); ok && len(fl.Body.List) == 1 {
				if r, ok := fl.Body.List[0].(*ast.ReturnStmt); ok && len(r.Results) == 1 && isTableExpr(r.Results[0]) {
					return true
				}
			}
		}
	}
	return false
}
