package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// TestCheckKeepsTheCause: the error behind a decision reaches the host
// through Check as the Verdict's Cause, so that errors.As finds the
// sandbox's refusal, the parser's error with its position and a hook's
// failure.
func TestCheckKeepsTheCause(t *testing.T) {
	failing := hooks.Hook{
		Name: "broken",
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			switch {
			case strings.Contains(string(e.Input), "fail-hook"):
				return hooks.PreToolUseResult{}, errors.New("policy service unreachable")
			case strings.Contains(string(e.Input), "panic-hook"):
				panic("nil map")
			}
			return hooks.PreToolUseResult{}, nil
		},
	}
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil, failing)
	w.start(t, "s", permission.ModeDefault)

	pathErr := func(kind error) func(*testing.T, error) {
		return func(t *testing.T, err error) {
			var pe *sandbox.PathError
			if assert.ErrorAs(t, err, &pe) {
				assert.ErrorIs(t, pe.Kind, kind)
			}
		}
	}
	parseErr := func(line int) func(*testing.T, error) {
		return func(t *testing.T, err error) {
			var pe *bashguard.ParseError
			if assert.ErrorAs(t, err, &pe) {
				assert.Equal(t, line, pe.Pos.Line, "where the parser stopped")
			}
			var se syntax.ParseError
			assert.ErrorAs(t, err, &se, "the parser's own error is wrapped")
		}
	}
	tests := []struct {
		name   string
		tool   string
		input  json.RawMessage
		want   permission.Decision
		rule   permission.RuleID
		reason string
		cause  func(*testing.T, error) // nil: no cause
	}{
		{"read tool outside the roots", "Read", in("file_path", "../outside/secret.txt"), permission.Deny,
			sandbox.RuleOutsideRoots, "outside", pathErr(sandbox.ErrOutsideRoots)},
		{"read tool through a link out", "Read", in("file_path", "escape/secret.txt"), permission.Deny,
			sandbox.RuleOutsideRoots, "outside", pathErr(sandbox.ErrOutsideRoots)},
		{"read tool, a home path", "Read", in("file_path", "~/notes.txt"), permission.Deny,
			sandbox.RuleHomeRef, "home", pathErr(sandbox.ErrHomeRef)},
		{"glob outside the roots", "Glob", in("pattern", "../outside/*.txt"), permission.Deny,
			sandbox.RuleOutsideRoots, "outside", pathErr(sandbox.ErrOutsideRoots)},
		{"shell write outside the roots", "Bash", in("command", "echo x > ../outside/new.txt"), permission.Deny,
			"", "outside the allowed roots", pathErr(sandbox.ErrOutsideRoots)},
		{"shell read outside the roots", "Bash", in("command", "cat ../outside/secret.txt"), permission.Ask,
			"", "outside the allowed roots", pathErr(sandbox.ErrOutsideRoots)},
		{"script that does not parse", "Bash", in("command", "echo ok\necho 'unterminated"), permission.Deny,
			bashguard.RuleParse, "cannot be analysed", parseErr(2)},
		{"shell code inside that does not parse", "Bash", in("command", `bash -c 'if then'`), permission.Deny,
			bashguard.RuleParse, "cannot be analysed", parseErr(1)},
		{"hook that fails", "WebFetch", in("url", "https://example.com/fail-hook"), permission.Deny,
			hooks.Rule("broken"), "policy service unreachable", func(t *testing.T, err error) {
				var he *hooks.Error
				if assert.ErrorAs(t, err, &he) {
					assert.Equal(t, "broken", he.Hook)
				}
			}},
		{"hook that panics", "WebFetch", in("url", "https://example.com/panic-hook"), permission.Deny,
			hooks.Rule("broken"), "panicked", func(t *testing.T, err error) {
				var pe *hooks.PanicError
				if assert.ErrorAs(t, err, &pe) {
					assert.Equal(t, "nil map", pe.Value)
				}
			}},
		{"an allowed read has no cause", "Read", in("file_path", "src/main.go"), permission.Allow,
			permission.RuleDefault, "default", nil},
		{"a guard's Ask has no cause", "Bash", in("command", "make build"), permission.Ask,
			bashguard.RuleUnlisted, "not on the safe list", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := w.p.Check(context.Background(), Call{Session: "s", Tool: tt.tool, Input: tt.input})
			assert.Equal(t, tt.want, v.Decision, v.Reason)
			assert.Contains(t, v.Reason, tt.reason)
			if tt.rule != "" {
				assert.Equal(t, tt.rule, v.Rule)
			}
			if tt.cause == nil {
				assert.NoError(t, v.Cause)
				return
			}
			tt.cause(t, v.Cause)
		})
	}
}
