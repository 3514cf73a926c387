package permission

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseRule(t *testing.T) {
	tests := []struct {
		in        string
		tool      string
		specifier string
	}{
		{"Bash", "Bash", ""},
		{"  Bash  ", "Bash", ""},
		{"*", "*", ""},
		{"mcp__github__*", "mcp__github__*", ""},
		{"Bash(*)", "Bash", ""},
		{"Bash(npm run test:*)", "Bash", "npm run test:*"},
		{"Bash(git * main)", "Bash", "git * main"},
		{"Bash(echo (hi))", "Bash", "echo (hi)"},
		{"Read(//etc/**)", "Read", "//etc/**"},
		{"Read(~/.ssh/**)", "Read", "~/.ssh/**"},
		{"WebFetch(domain:example.com)", "WebFetch", "domain:example.com"},
		{"mcp__srv__tool(arg)", "mcp__srv__tool", "arg"},
	}
	for _, tt := range tests {
		r, err := ParseRule(tt.in)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.tool, r.Tool, tt.in)
		assert.Equal(t, tt.specifier, r.Specifier, tt.in)
	}
}

func TestParseRuleErrors(t *testing.T) {
	tests := []struct {
		in     string
		offset int
		reason string
	}{
		{"", 0, "empty rule"},
		{"   ", 0, "empty rule"},
		{"Bash(ls", 6, "specifier not closed"},
		{"Bash)", 4, "')' without '('"},
		{"(ls)", 0, "missing tool name"},
		{"Ba sh", 2, "invalid character ' ' in tool name"},
		{"Bash()", 5, "empty specifier"},
		{"Bash( ls)", 5, "leading or trailing white space"},
		{"  Bash(ls", 8, "specifier not closed"},
		{"Bash(a\x00b)", 6, "control character"},
	}
	for _, tt := range tests {
		_, err := ParseRule(tt.in)
		var e *Error
		require.True(t, errors.As(err, &e), "%q: %v", tt.in, err)
		assert.Equal(t, tt.offset, e.Offset, tt.in)
		assert.Contains(t, e.Reason, tt.reason, tt.in)
		assert.Equal(t, tt.in, e.Input)
	}
}

func TestCompileRuleErrors(t *testing.T) {
	tests := []struct {
		rule   string
		reason string
	}{
		{"Bash(ls | wc)", "shell operator in specifier"},
		{"Bash(ls; rm x)", "shell operator in specifier"},
		{"Bash(echo 'x)", "unbalanced quote"},
		{"Bash(:*)", "nothing before ':*'"},
		{"Read(~bob/x)", "~user paths are not supported"},
		{"Read(../x)", "'.' and '..' are not allowed"},
		{"WebFetch(domain:a*b.com)", "only a leading '*.' wildcard"},
		{"WebFetch(domain:)", "empty domain"},
	}
	for _, tt := range tests {
		_, err := New(Config{Deny: []string{"Bash(ok)", tt.rule}, WorkDir: "/w", Home: "/h"})
		var e *Error
		require.True(t, errors.As(err, &e), "%q: %v", tt.rule, err)
		assert.Contains(t, e.Reason, tt.reason, tt.rule)
		assert.Equal(t, 1, e.Index, "error names the rule's position in its list")
		assert.Equal(t, "config", e.Source)
		assert.Contains(t, err.Error(), "rule 1", tt.rule)
	}
}

func TestCompileRuleNeedsBases(t *testing.T) {
	_, err := New(Config{Deny: []string{"Read(~/.ssh/**)"}})
	require.ErrorContains(t, err, "needs a home directory")
	_, err = New(Config{Deny: []string{"Read(src/**)"}})
	require.ErrorContains(t, err, "needs a working directory")
	_, err = New(Config{WorkDir: "rel"})
	require.ErrorContains(t, err, "WorkDir must be an absolute path")
}

func FuzzParseRule(f *testing.F) {
	for _, s := range []string{"Bash", "Bash(npm run test:*)", "Read(//etc/**)", "mcp__x__*", "Bash(*)", "Bash(echo (hi))", "a(b)c)", "  X(y) ", "Bash(ls*)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRule(s)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Reason == "" {
				t.Fatalf("error without reason: %v", err)
			}
			return
		}
		printed := r.String()
		r2, err := ParseRule(printed)
		if err != nil {
			t.Fatalf("parse(print(parse(%q))) = %q failed: %v", s, printed, err)
		}
		if r2 != r {
			t.Fatalf("round trip changed the rule: %#v -> %q -> %#v", r, printed, r2)
		}
		if r2.String() != printed {
			t.Fatalf("printing is not stable: %q vs %q", printed, r2.String())
		}
	})
}

// CoversTool is the one tool-name matcher: the Checker's, for the tools
// that explain and lint reason about.
func TestRuleCoversTool(t *testing.T) {
	for _, tc := range []struct {
		rule, tool string
		want       bool
	}{
		{"Bash", "Bash", true},
		{"Bash(git push:*)", "Bash", true},
		{"Bash", "bash", false},
		{"*", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__gitlab__create_issue", false},
		{"mcp__github", "mcp__github__create_issue", true},
		{"mcp__github", "mcp__github", true},
		{"mcp__github", "mcp__githubx__create_issue", false},
		{"mcp__foo_", "mcp__foo___bar", true},
		{"mcp__foo", "mcp__foo___bar", true},
		{"mcp__github__create_issue", "mcp__github__create_issue_x", false},
		{"Web*", "WebFetch", true},
		{"Web*", "Read", false},
	} {
		r := MustParseRule(tc.rule)
		assert.Equal(t, tc.want, r.CoversTool(tc.tool), "%s covers %s", tc.rule, tc.tool)
	}
}

// TestDomainStar: "domain:*" is every host, as Claude Code reads it (a
// rule that refused to compile made every call deny); it names no host,
// so the floor that asks for a rule naming an internal host is not lifted
// by it.
func TestDomainStar(t *testing.T) {
	c, err := New(Config{Allow: []string{"WebFetch(domain:*)"}, Deny: []string{"WebSearch(domain:*)"}, Default: Ask})
	require.NoError(t, err)
	r := c.Check(&Request{Tool: "WebFetch", Kind: KindNetwork, Domain: "example.com"}, nil)
	assert.Equal(t, Allow, r.Decision, r.Reason)
	assert.Equal(t, RuleID("WebFetch(domain:*)"), r.Rule)
	r = c.Check(&Request{Tool: "WebFetch", Kind: KindNetwork, Domain: "169.254.169.254", Specific: true}, nil)
	assert.NotEqual(t, Allow, r.Decision, "domain:* names no host: %s", r.Reason)
	r = c.Check(&Request{Tool: "WebSearch", Kind: KindNetwork, Domain: "news.example"}, nil)
	assert.Equal(t, Deny, r.Decision, r.Reason)
}
