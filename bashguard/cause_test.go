package bashguard_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// causeJudge is a path judge over a real sandbox that keeps the
// sandbox's refusal as the Result's Cause, as a host's path pipeline
// does.
type causeJudge struct{ sb *sandbox.Sandbox }

func (j causeJudge) JudgePath(p string, access bashguard.Access) permission.Result {
	_, d, why, err := j.sb.Commands().Judge(p, access == bashguard.Write)
	if d == permission.Deny {
		return permission.Result{Decision: permission.Deny, Layer: permission.LayerSandbox,
			Rule: sandbox.RuleOf(err), Reason: "outside the allowed roots: " + why, Cause: err}
	}
	return permission.Result{Decision: d, Layer: permission.LayerSandbox, Reason: why}
}

// TestVerdictKeepsTheCause: a script that does not parse keeps the
// parser's error, with its position, as the Verdict's Cause; a command
// the path judge refused keeps the judge's Cause (the sandbox's
// *PathError), in the Command and in the Verdict.
func TestVerdictKeepsTheCause(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, out := filepath.Join(base, "ws"), filepath.Join(base, "out")
	require.NoError(t, os.MkdirAll(ws, 0o755))
	require.NoError(t, os.MkdirAll(out, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "a.txt"), []byte("a\n"), 0o644))
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
	require.NoError(t, err)
	pol := bashguard.DefaultPolicy()
	pol.Home = filepath.Join(base, "home")
	g := bashguard.New(pol)

	parsed, refused := causeParsed, causeRefused
	tests := []struct {
		name, script string
		want         permission.Decision
		rule         permission.RuleID
		reason       string
		cause        func(*testing.T, error) // nil: no cause
	}{
		{"unterminated quote", "echo ok\necho 'x", permission.Deny, bashguard.RuleParse, "cannot be analysed", parsed(2, 6)},
		{"if without a condition", "if then fi", permission.Deny, bashguard.RuleParse, "cannot be analysed", parsed(1, 1)},
		{"stray closing paren", "ls )", permission.Deny, bashguard.RuleParse, "cannot be analysed", parsed(1, 4)},
		{"bash -c text that does not parse", `bash -c 'echo "x'`, permission.Deny, bashguard.RuleParse, "cannot be analysed", parsed(1, 6)},
		{"eval text that does not parse", `eval 'for'`, permission.Deny, bashguard.RuleParse, "cannot be analysed", parsed(1, 1)},
		{"redirect outside the roots", "echo x > " + out + "/new.txt", permission.Deny, sandbox.RuleOutsideRoots,
			"outside the allowed roots", refused(sandbox.ErrOutsideRoots)},
		{"copy outside the roots", "cp a.txt " + out + "/", permission.Deny, sandbox.RuleOutsideRoots,
			"outside the allowed roots", refused(sandbox.ErrOutsideRoots)},
		{"write to a home path", "touch '~/x'", permission.Deny, sandbox.RuleHomeRef, "refused", refused(sandbox.ErrHomeRef)},
		{"a plain Ask has none", "make", permission.Ask, bashguard.RuleUnlisted, "not on the safe list", nil},
		{"an Allow has none", "cat a.txt", permission.Allow, bashguard.RuleSafe, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := g.Judge(context.Background(), ws, causeJudge{sb}, tt.script)
			assert.Equal(t, tt.want, v.Decision, v.Reason)
			assert.Equal(t, tt.rule, v.Rule, v.Reason)
			assert.Contains(t, v.Reason, tt.reason)
			if tt.cause == nil {
				assert.NoError(t, v.Cause)
				for _, c := range v.Commands {
					assert.NoError(t, c.Cause, "%v", c.Args)
				}
				return
			}
			tt.cause(t, v.Cause)
			if len(v.Commands) > 0 {
				// The command that decided keeps it too.
				i := slices.IndexFunc(v.Commands, func(c bashguard.Command) bool { return c.Decision == tt.want })
				if assert.GreaterOrEqual(t, i, 0, "a command has the verdict's decision") {
					tt.cause(t, v.Commands[i].Cause)
				}
			}
		})
	}
}

// causeParsed asserts that a cause is the parser's error at line and
// col, wrapped as a ParseError.
func causeParsed(line, col int) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		var pe *bashguard.ParseError
		if assert.ErrorAs(t, err, &pe) {
			assert.Equal(t, line, pe.Pos.Line, "line")
			assert.Equal(t, col, pe.Pos.Col, "column")
		}
		var se syntax.ParseError
		if assert.ErrorAs(t, err, &se, "the parser's own error is wrapped") {
			assert.Equal(t, uint(line), se.Pos.Line())
		}
	}
}

// causeRefused asserts that a cause is the sandbox's PathError of kind.
func causeRefused(kind error) func(*testing.T, error) {
	return func(t *testing.T, err error) {
		var pe *sandbox.PathError
		if assert.ErrorAs(t, err, &pe) {
			assert.ErrorIs(t, pe, kind)
		}
	}
}
