package content_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/internal/content"
	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// stageCase is one line of testdata/stage.jsonl: a call of one of the
// tools of stageTools, in a workspace ($WS; $OUT is outside it, $HOME the
// home directory), with session rules added before it and the tool's own
// answers, and the answer wanted once the stage's answers are combined.
type stageCase struct {
	Name        string          `json:"name"`
	Tool        string          `json:"tool"`
	Input       json.RawMessage `json:"input"`
	SessionDeny []string        `json:"session_deny,omitempty"`
	SessionAsk  []string        `json:"session_ask,omitempty"`
	ToolRules   []struct {
		Decision string `json:"decision"`
		Rule     string `json:"rule"`
		Reason   string `json:"reason"`
	} `json:"tool_rules,omitempty"`
	Decision string `json:"decision"`
	Layer    string `json:"layer"`
	Rule     string `json:"rule"`
	Reason   string `json:"reason"` // a substring of the answer's reason
}

// stageTools are the tools the cases call, declared as Claude Code's are
// (tool.ClaudeCodeTools), plus an MCP fetch tool.
var stageTools = map[string]content.Call{
	"Read":             {Kind: permission.KindRead, PathFields: []string{"file_path"}, RequiredFields: []string{"file_path"}},
	"Glob":             {Kind: permission.KindRead, PathFields: []string{"path"}, GlobFields: []string{"pattern"}, RequiredFields: []string{"pattern"}},
	"Grep":             {Kind: permission.KindRead, PathFields: []string{"path"}, FilterFields: []string{"glob"}, FileTypeFields: []string{"type"}},
	"Write":            {Kind: permission.KindEdit, PathFields: []string{"file_path"}, RequiredFields: []string{"file_path"}},
	"Edit":             {Kind: permission.KindEdit, PathFields: []string{"file_path"}, RequiredFields: []string{"file_path"}},
	"Bash":             {Kind: permission.KindExec, CommandFields: []string{"command"}},
	"run_bash":         {Kind: permission.KindExec, CommandFields: []string{"command"}, WorkdirField: "working_dir"},
	"WebFetch":         {Kind: permission.KindNetwork, URLFields: []string{"url"}, RequiredFields: []string{"url"}},
	"WebSearch":        {Kind: permission.KindNetwork, DomainFields: []string{"allowed_domains"}},
	"Task":             {Kind: permission.KindSubagent, SpecifierField: "subagent_type"},
	"Agent":            {Kind: permission.KindSubagent, SpecifierField: "subagent_type"},
	"Skill":            {Kind: permission.KindOther, SpecifierField: "skill"},
	"mcp__docs__fetch": {Kind: permission.KindNetwork, URLFields: []string{"uri"}},
}

// stageFixture is a workspace ($WS) with files a rule names, a secret and
// a protected one, links to a denied file and out of the roots, a
// directory outside it ($OUT) and a home ($HOME) with a key; and the
// judges over it: the rules of a configuration, the sandbox, the guard.
type stageFixture struct {
	ws, out, home string
	checker       *permission.Checker
	sandbox       *sandbox.Sandbox
	guard         *bashguard.Guard
}

func newStageFixture(t testing.TB) *stageFixture {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, out, home := filepath.Join(base, "ws"), filepath.Join(base, "outside"), filepath.Join(base, "home")
	for _, d := range []string{filepath.Join(ws, "sub"), filepath.Join(ws, ".git"), out, filepath.Join(home, ".ssh")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for name, body := range map[string]string{
		"ws/notes.txt": "n\n", "ws/locked.txt": "l\n", "ws/ask.txt": "a\n", "ws/a.txt": "a\n", "ws/.env": "T=1\n",
		"ws/.env.example": "T=\n", "ws/list.txt": "sub/x.go\nnotes.txt\n", "ws/sub/x.go": "x\n", "ws/.git/config": "[core]\n", "ws/café.txt": "c\n",
		"outside/shared.txt": "s\n", "outside/other.txt": "o\n", "home/.ssh/id_rsa": "k\n",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(base, name), []byte(body), 0o644))
	}
	require.NoError(t, os.Symlink(filepath.Join(ws, "notes.txt"), filepath.Join(ws, "alias.txt")))
	require.NoError(t, os.Symlink(out, filepath.Join(ws, "out")))

	checker, err := permission.New(permission.Config{
		WorkDir: ws, Home: home,
		Deny: []string{"Read(./notes.txt)", "Edit(./locked.txt)", "Bash(rm:*)", "WebFetch(domain:evil.example)",
			"WebSearch(domain:evil.example)", "Task(danger)", "Skill(evil)"},
		Ask:        []string{"Read(./ask.txt)", "Bash(git push:*)"},
		Allow:      []string{"Read(/" + out + "/shared.txt)", "Bash(tee a.txt)", "WebFetch(domain:docs.example.com)", "WebFetch(domain:10.0.0.7)", "Task(explore)"},
		Default:    permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow},
	})
	require.NoError(t, err)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws, Home: home})
	require.NoError(t, err)
	pol := bashguard.DefaultPolicy()
	pol.Home = home

	return &stageFixture{ws: ws, out: out, home: home, checker: checker, sandbox: sb, guard: bashguard.New(pol)}
}

func (fx *stageFixture) judges(session *permission.SessionRules) content.Judges {
	return content.Judges{Checker: fx.checker, Session: session, Sandbox: fx.sandbox, Guard: fx.guard}
}

// TestStage runs testdata/stage.jsonl through the content stage alone, no
// Pipeline or session: real files in a temporary directory, the rules of
// a configuration and of a session, the sandbox and the shell guard.
func TestStage(t *testing.T) {
	fx := newStageFixture(t)
	ws, out, home := fx.ws, fx.out, fx.home
	subst := strings.NewReplacer("$WS", ws, "$OUT", out, "$HOME", home)
	back := strings.NewReplacer(ws, "$WS", out, "$OUT", home, "$HOME")
	f, err := os.Open("testdata/stage.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c stageCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), sc.Text())
		require.NotEmpty(t, c.Name, sc.Text())
		require.NotEmpty(t, c.Reason, "case %q must name a reason", c.Name)
		require.NotEmpty(t, c.Rule, "case %q must name a rule", c.Name)
		n++
		t.Run(c.Name, func(t *testing.T) {
			call, ok := stageTools[c.Tool]
			require.True(t, ok, "no tool %q", c.Tool)
			call.Tool = c.Tool
			for _, r := range c.ToolRules {
				d, err := permission.ParseDecision(r.Decision)
				require.NoError(t, err)
				call.Rules = append(call.Rules, content.Rule{Decision: d, Rule: permission.RuleID(r.Rule), Reason: r.Reason})
			}
			session := fx.checker.NewSession()
			require.NoError(t, session.Add(permission.Deny, c.SessionDeny...))
			require.NoError(t, session.Add(permission.Ask, c.SessionAsk...))
			_, members, err := jsonin.Object([]byte(subst.Replace(string(c.Input))), nil, nil)
			require.NoError(t, err)

			got := content.Inspect(context.Background(), fx.judges(session), call, members)
			r := permission.Combine(permission.ModeDefault,
				permission.Call{Tool: c.Tool, Kind: call.Kind, InsideRoots: got.InsideRoots}, got.Answers()...)

			reason := back.Replace(r.Reason)
			assert.Equal(t, c.Decision, r.Decision.String(), "decision (%s: %s)", r.Rule, reason)
			assert.Equal(t, c.Layer, r.Layer.String(), "layer (%s: %s)", r.Rule, reason)
			assert.Equal(t, c.Rule, back.Replace(string(r.Rule)), "rule (%s)", reason)
			assert.Contains(t, reason, c.Reason, "reason")
		})
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 40)
}

// FuzzStage: whatever a call's input holds, for every tool of stageTools
// the stage answers without panicking, and the combined answer explains
// itself: a valid decision, the layer and the rule that decided, and a
// reason for every answer but an Allow.
func FuzzStage(f *testing.F) {
	fx := newStageFixture(f)
	data, err := os.ReadFile("testdata/stage.jsonl")
	require.NoError(f, err)
	for _, line := range strings.Split(string(data), "\n") {
		var c stageCase
		if json.Unmarshal([]byte(line), &c) == nil && c.Input != nil {
			f.Add(c.Tool, strings.NewReplacer("$WS", fx.ws, "$OUT", fx.out, "$HOME", fx.home).Replace(string(c.Input)))
		}
	}
	f.Fuzz(func(t *testing.T, tool, input string) {
		call, ok := stageTools[tool]
		if !ok {
			return
		}
		call.Tool = tool
		_, members, err := jsonin.Object([]byte(input), nil, nil)
		if err != nil {
			return // refused before the stage
		}
		got := content.Inspect(context.Background(), fx.judges(fx.checker.NewSession()), call, members)
		r := permission.Combine(permission.ModeDefault,
			permission.Call{Tool: tool, Kind: call.Kind, InsideRoots: got.InsideRoots}, got.Answers()...)
		if !r.Decision.Valid() || r.Layer == permission.LayerNone || r.Rule == "" || (r.Decision != permission.Allow && r.Reason == "") {
			t.Fatalf("%s %s: %v, layer %v, rule %q, reason %q: not explained", tool, input, r.Decision, r.Layer, r.Rule, r.Reason)
		}
	})
}

// FuzzDenyHoldsForShell: a path the rules deny to a file tool is denied to
// a shell command that reaches it, however the path is written: read by
// cat when Read is denied, written by a redirect when Write is.
func FuzzDenyHoldsForShell(f *testing.F) {
	fx := newStageFixture(f)
	for _, p := range []string{"notes.txt", "./notes.txt", "alias.txt", "sub/../notes.txt", fx.ws + "/notes.txt",
		"out/../notes.txt", "locked.txt", "sub//../locked.txt", fx.ws + "/./locked.txt", "a.txt"} {
		f.Add(p)
	}
	quote := func(p string) string { return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'" }
	f.Fuzz(func(t *testing.T, p string) {
		if p == "" || strings.ContainsAny(p, "\x00\n") || !utf8.ValidString(p) {
			return // not a path a shell word can hold, or not one a JSON string keeps
		}
		for _, pair := range []struct{ tool, script string }{{"Read", "cat -- " + quote(p)}, {"Write", "echo x > " + quote(p)}} {
			file := inspect(t, fx, pair.tool, map[string]string{"file_path": p, "content": "x"})
			if file.Decision != permission.Deny || file.Layer != permission.LayerRules {
				continue
			}
			shell := inspect(t, fx, "Bash", map[string]string{"command": pair.script})
			if shell.Decision != permission.Deny {
				t.Fatalf("%s %q is denied (%s), but %s is %v: %s [%s]", pair.tool, p, file.Rule, pair.script, shell.Decision, shell.Reason, shell.Rule)
			}
		}
	})
}

// inspect runs the stage on one call of tool with input's members and
// combines its answers.
func inspect(t *testing.T, fx *stageFixture, tool string, input map[string]string) permission.Result {
	return inspectWith(t, fx.judges(fx.checker.NewSession()), tool, input)
}

// inspectWith is inspect with the judges j.
func inspectWith(t *testing.T, j content.Judges, tool string, input map[string]string) permission.Result {
	t.Helper()
	call := stageTools[tool]
	call.Tool = tool
	raw, err := json.Marshal(input)
	require.NoError(t, err)
	_, members, err := jsonin.Object(raw, nil, nil)
	require.NoError(t, err)
	got := content.Inspect(context.Background(), j, call, members)
	return permission.Combine(permission.ModeDefault, permission.Call{Tool: tool, Kind: call.Kind, InsideRoots: got.InsideRoots}, got.Answers()...)
}
