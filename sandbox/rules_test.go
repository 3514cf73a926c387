package sandbox_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// TestRefusalKeepsThePathError: every refusal of Judge and of the view
// for commands is a *PathError whose Kind names the check, and RuleOf
// gives the rule ID a Result names it by.
func TestRefusalKeepsThePathError(t *testing.T) {
	tr := newTree(t)
	tests := []struct {
		name, path string
		commands   bool // judged in the view for commands
		kind       error
		rule       permission.RuleID
		reason     string
	}{
		{"traversal out", "../outside/secret.txt", false, sandbox.ErrOutsideRoots, sandbox.RuleOutsideRoots, "outside"},
		{"link out", "link_out/secret.txt", false, sandbox.ErrOutsideRoots, sandbox.RuleOutsideRoots, "outside"},
		{"absolute path out", "/etc/passwd", false, sandbox.ErrOutsideRoots, sandbox.RuleOutsideRoots, "outside"},
		{"NUL byte", "a\x00b", false, sandbox.ErrInvalidPath, sandbox.RuleInvalidPath, "NUL"},
		{"empty", "", false, sandbox.ErrInvalidPath, sandbox.RuleInvalidPath, "empty"},
		{"home", "~/x", false, sandbox.ErrHomeRef, sandbox.RuleHomeRef, "home"},
		{"link loop", "loop1/x", false, sandbox.ErrSymlinkLoop, sandbox.RuleSymlinkLoop, "links"},
		{"another process's root", "/proc/1/root/etc/passwd", false, sandbox.ErrForeignProcess, sandbox.RuleForeignProcess, "process"},
		{"the command's own /proc/self", "/proc/self/root/etc/passwd", true, sandbox.ErrForeignProcess, sandbox.RuleForeignProcess, "process"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			judge := tr.sb.Judge
			if tt.commands {
				judge = tr.sb.Commands().Judge
			}
			real, d, why, err := judge(tt.path, false)
			assert.Equal(t, permission.Deny, d, why)
			assert.Empty(t, real)
			assert.Contains(t, why, "refused")
			assert.Contains(t, err.Error(), tt.reason)
			var pe *sandbox.PathError
			if assert.ErrorAs(t, err, &pe) {
				assert.Equal(t, tt.path, pe.Path)
				assert.ErrorIs(t, pe.Kind, tt.kind)
			}
			assert.Equal(t, tt.rule, sandbox.RuleOf(err))
		})
	}
	assert.Equal(t, sandbox.RuleRefused, sandbox.RuleOf(errors.New("some other failure")))
}
