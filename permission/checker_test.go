package permission

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func sh(words ...string) *Request {
	return &Request{Tool: "Bash", Kind: KindExec, Command: words}
}

// TestShellSpecifiers checks every shell specifier form against one simple
// command: the rule is an Allow rule over a Deny default, so a match shows
// as Allow with the rule's reason and a miss as the default's.
func TestShellSpecifiers(t *testing.T) {
	tests := []struct {
		rule  string
		argv  []string
		match bool
	}{
		// legacy prefix at a word boundary
		{"Bash(npm run test:*)", []string{"npm", "run", "test"}, true},
		{"Bash(npm run test:*)", []string{"npm", "run", "test", "--watch"}, true},
		{"Bash(npm run test:*)", []string{"npm", "run", "testing"}, false},
		{"Bash(npm run test:*)", []string{"npm", "run"}, false},
		{"Bash(npm run test:*)", []string{"npm", "run", "test:unit"}, false},
		// a space before * is a word boundary
		{"Bash(ls *)", []string{"ls", "-la"}, true},
		{"Bash(ls *)", []string{"ls"}, true},
		{"Bash(ls *)", []string{"lsof"}, false},
		{"Bash(npm *)", []string{"npm", "install", "x"}, true},
		// no space: the star runs through the word and past it
		{"Bash(ls*)", []string{"ls", "-la"}, true},
		{"Bash(ls*)", []string{"lsof", "-i"}, true},
		{"Bash(ls*)", []string{"cat"}, false},
		// a star anywhere
		{"Bash(git * main)", []string{"git", "push", "origin", "main"}, true},
		{"Bash(git * main)", []string{"git", "checkout", "main"}, true},
		{"Bash(git * main)", []string{"git", "main"}, false},
		{"Bash(git * main)", []string{"git", "push", "origin", "mainline"}, false},
		{"Bash(git checkout feat-*)", []string{"git", "checkout", "feat-x"}, true},
		{"Bash(git checkout feat-*)", []string{"git", "checkout", "feat-x", "--force"}, true},
		{"Bash(* --version)", []string{"go", "--version"}, true},
		{"Bash(* --version)", []string{"go", "version"}, false},
		// exact
		{"Bash(git status)", []string{"git", "status"}, true},
		{"Bash(git status)", []string{"git", "status", "-s"}, false},
		{"Bash(git status)", []string{"git"}, false},
		// quotes in the rule are removed like the shell removes them
		{`Bash(git commit -m "fix bug")`, []string{"git", "commit", "-m", "fix bug"}, true},
		{`Bash(git commit -m "fix bug")`, []string{"git", "commit", "-m", "fix", "bug"}, false},
		// the bare tool and Bash(*) match every command
		{"Bash", []string{"anything", "at", "all"}, true},
		{"Bash(*)", []string{"rm", "-rf", "/"}, true},
		// flag order is the user's business
		{"Bash(ls -la)", []string{"ls", "-al"}, false},
	}
	for _, tt := range tests {
		c, err := New(Config{Allow: []string{tt.rule}, Default: Deny})
		require.NoError(t, err)
		r := c.Check(sh(tt.argv...), nil)
		name := tt.rule + " vs " + strings.Join(tt.argv, " ")
		if tt.match {
			assert.Equal(t, Allow, r.Decision, name)
			assert.Equal(t, "allowed by allow rule "+mustPrint(tt.rule)+" (config)", r.Reason, name)
			assert.Equal(t, SourceAllow, r.Source, name)
		} else {
			assert.Equal(t, Deny, r.Decision, name)
			assert.Equal(t, "no rule matched; the default for exec tools is deny", r.Reason, name)
			assert.Equal(t, SourceDefault, r.Source, name)
		}
		assert.Equal(t, LayerRules, r.Layer)
	}
}

func mustPrint(s string) string { return MustParseRule(s).String() }

func TestShellRuleNeedsACommand(t *testing.T) {
	c, err := New(Config{Allow: []string{"Bash(ls)"}, Default: Ask})
	require.NoError(t, err)
	r := c.Check(&Request{Tool: "Bash", Kind: KindExec}, nil)
	assert.Equal(t, Ask, r.Decision)
	assert.Equal(t, "no rule matched; the default for exec tools is ask", r.Reason)
}

func TestDenyRuleCoversCommandByPath(t *testing.T) {
	c, err := New(Config{Deny: []string{"Bash(rm:*)"}, Allow: []string{"Bash(cat:*)"}, Default: Ask})
	require.NoError(t, err)
	r := c.Check(sh("/bin/rm", "-rf", "x"), nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "denied by deny rule Bash(rm:*) (config)", r.Reason)
	// An allow rule for cat does not allow a program named cat elsewhere.
	r = c.Check(sh("/tmp/evil/cat", "x"), nil)
	assert.Equal(t, Ask, r.Decision)
	assert.Equal(t, "no rule matched; the default for exec tools is ask", r.Reason)
}

func TestPathSpecifiers(t *testing.T) {
	tests := []struct {
		rule  string
		path  string
		match bool
	}{
		{"Read(//etc/**)", "/etc/passwd", true},
		{"Read(//etc/**)", "/etc", true},
		{"Read(//etc/**)", "/etcetera/x", false},
		{"Read(~/.ssh/**)", "/home/u/.ssh/id_rsa", true},
		{"Read(~/.ssh/**)", "/home/u/proj/.ssh/x", false},
		{"Read(~)", "/home/u/notes", true},
		{"Edit(/docs/**)", "/home/u/proj/docs/a.md", true}, // settings in /home/u/proj/.claude
		{"Edit(/docs/**)", "/home/u/proj/.claude/docs/a.md", false},
		{"Read(./src/**)", "/home/u/proj/src/a/b.go", true},
		{"Read(./src/**)", "/home/u/proj/srcx/a.go", false},
		{"Read(src/**)", "/home/u/proj/src/a.go", true},
		{"Read(src/*.go)", "/home/u/proj/src/a.go", true},
		{"Read(src/*.go)", "/home/u/proj/src/sub/a.go", false},
		{"Read(*.env)", "/home/u/proj/a/b/prod.env", true},
		{"Read(.env)", "/home/u/proj/.env", true},
		{"Read(.env)", "/home/u/proj/sub/.env", true},
		{"Read(.env)", "/home/u/proj/.envrc", false},
		{"Read(./secrets)", "/home/u/proj/secrets/key", true},
		{"Read(./secrets/)", "/home/u/proj/secrets/key", true},
		{"Read(**/*.pem)", "/home/u/proj/x/y/z.pem", true},
		{"Read(**/*.pem)", "/elsewhere/z.pem", false},
	}
	for _, tt := range tests {
		c, err := New(Config{
			Rules:   []RuleSpec{{Rule: tt.rule, Decision: Deny, Origin: "project settings", Dir: "/home/u/proj/.claude"}},
			Default: Allow, WorkDir: "/home/u/proj", Home: "/home/u",
		})
		require.NoError(t, err, tt.rule)
		r := c.Check(&Request{Tool: "Read", Group: groupOf(tt.rule), Kind: KindRead, Path: tt.path}, nil)
		name := tt.rule + " vs " + tt.path
		if tt.match {
			assert.Equal(t, Deny, r.Decision, name)
			assert.Equal(t, "denied by deny rule "+tt.rule+" (project settings)", r.Reason, name)
		} else {
			assert.Equal(t, Allow, r.Decision, name)
			assert.Equal(t, "no rule matched; the default for read tools is allow", r.Reason, name)
		}
	}
}

func groupOf(rule string) string { return MustParseRule(rule).Tool }

// TestPathRulesOfEveryDirLength: path rules are filed by their directory
// and looked up with a filter on the directory's length; rules on
// directories of 1 to 300 bytes (across the filter's words and past its
// last bit) still match the paths under them, and only those.
func TestPathRulesOfEveryDirLength(t *testing.T) {
	for n := 1; n <= 300; n++ {
		dir := "/" + strings.Repeat("d", n-1)
		if n == 1 {
			dir = "/"
		}
		rule := "Read(/" + dir + "/**)"
		c, err := New(Config{Deny: []string{rule, "Read(//zz/other/**)"}, Default: Allow, WorkDir: "/w"})
		require.NoError(t, err, rule)
		in := strings.TrimSuffix(dir, "/") + "/sub/file"
		r := c.Check(&Request{Tool: "Read", Kind: KindRead, Path: in}, nil)
		assert.Equal(t, Deny, r.Decision, "%d bytes: %s", n, in)
		assert.Equal(t, "denied by deny rule "+rule+" (config)", r.Reason, "%d bytes", n)
		if n > 1 {
			out := dir + "x/file" // a sibling whose name starts the same
			r = c.Check(&Request{Tool: "Read", Kind: KindRead, Path: out}, nil)
			assert.Equal(t, Allow, r.Decision, "%d bytes: %s", n, out)
			assert.Equal(t, "no rule matched; the default for read tools is allow", r.Reason, "%d bytes", n)
		}
	}
}

func TestPathPatternEscapesBase(t *testing.T) {
	c, err := New(Config{Deny: []string{"Read(./*.txt)"}, Default: Allow, WorkDir: "/w/a[1]"})
	require.NoError(t, err)
	r := c.Check(&Request{Tool: "Read", Kind: KindRead, Path: "/w/a[1]/x.txt"}, nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "denied by deny rule Read(./*.txt) (config)", r.Reason)
	r = c.Check(&Request{Tool: "Read", Kind: KindRead, Path: "/w/a1/x.txt"}, nil)
	assert.Equal(t, Allow, r.Decision, "brackets in the base are literal")
	assert.Equal(t, "no rule matched; the default for read tools is allow", r.Reason)
}

func TestDomainSpecifiers(t *testing.T) {
	tests := []struct {
		rule, host string
		match      bool
	}{
		{"WebFetch(domain:example.com)", "example.com", true},
		{"WebFetch(domain:example.com)", "EXAMPLE.com", true},
		{"WebFetch(domain:example.com)", "www.example.com", false},
		{"WebFetch(domain:example.com)", "example.com.evil.net", false},
		{"WebFetch(domain:*.example.com)", "api.example.com", true},
		{"WebFetch(domain:*.example.com)", "a.b.example.com", true},
		{"WebFetch(domain:*.example.com)", "example.com", false},
		{"WebFetch(domain:*.example.com)", "badexample.com", false},
	}
	for _, tt := range tests {
		c, err := New(Config{Allow: []string{tt.rule}, Default: Ask})
		require.NoError(t, err)
		r := c.Check(&Request{Tool: "WebFetch", Kind: KindNetwork, Domain: tt.host}, nil)
		name := tt.rule + " vs " + tt.host
		if tt.match {
			assert.Equal(t, Allow, r.Decision, name)
			assert.Equal(t, "allowed by allow rule "+tt.rule+" (config)", r.Reason, name)
		} else {
			assert.Equal(t, Ask, r.Decision, name)
			assert.Equal(t, "no rule matched; the default for network tools is ask", r.Reason, name)
		}
	}
}

func TestToolNames(t *testing.T) {
	tests := []struct {
		rule, tool string
		match      bool
	}{
		{"*", "Anything", true},
		{"Bash", "Bash", true},
		{"Bash", "BashOutput", false},
		{"mcp__github__*", "mcp__github__create_issue", true},
		{"mcp__github__*", "mcp__gitlab__create_issue", false},
		{"mcp__*__delete_*", "mcp__db__delete_row", true},
		{"Task(researcher)", "Task", false}, // content specifier needs Content
	}
	for _, tt := range tests {
		c, err := New(Config{Deny: []string{tt.rule}, Default: Allow})
		require.NoError(t, err)
		r := c.Check(&Request{Tool: tt.tool}, nil)
		if tt.match {
			assert.Equal(t, Deny, r.Decision, tt.rule+" vs "+tt.tool)
			assert.Equal(t, "denied by deny rule "+tt.rule+" (config)", r.Reason)
		} else {
			assert.Equal(t, Allow, r.Decision, tt.rule+" vs "+tt.tool)
			assert.Equal(t, "no rule matched; the default for other tools is allow", r.Reason)
		}
	}
	c, err := New(Config{Deny: []string{"Task(research*)"}, Default: Allow})
	require.NoError(t, err)
	r := c.Check(&Request{Tool: "Task", Kind: KindSubagent, Content: "researcher"}, nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "denied by deny rule Task(research*) (config)", r.Reason)
}

// TestOrder: Deny, then Ask, then Allow, then the default; each rule that
// matched but lost is in the conflict log.
func TestOrder(t *testing.T) {
	c, err := New(Config{
		Allow:   []string{"Bash(git:*)", "Bash(git push:*)"},
		Ask:     []string{"Bash(git push:*)"},
		Deny:    []string{"Bash(git push --force:*)"},
		Default: Allow,
	})
	require.NoError(t, err)

	r := c.Check(sh("git", "push", "--force", "origin"), nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, SourceConfigDeny, r.Source)
	assert.Equal(t, "Bash(git push --force:*)", string(r.Rule))
	assert.Equal(t, "denied by deny rule Bash(git push --force:*) (config)", r.Reason)
	require.Equal(t, 2, r.Conflicts.Len())
	assert.Equal(t, Conflict{Decision: Ask, Layer: LayerRules, Source: SourceRuleAsk, Rule: "Bash(git push:*)", Reason: "needs confirmation by ask rule Bash(git push:*) (config)"}, r.Conflicts.At(0))
	assert.Equal(t, Conflict{Decision: Allow, Layer: LayerRules, Source: SourceAllow, Rule: "Bash(git:*)", Reason: "allowed by allow rule Bash(git:*) (config)"}, r.Conflicts.At(1), "the first matching allow rule is reported")

	r = c.Check(sh("git", "push", "origin"), nil)
	assert.Equal(t, Ask, r.Decision, "a matching Ask beats a matching Allow")
	assert.Equal(t, "needs confirmation by ask rule Bash(git push:*) (config)", r.Reason)
	require.Equal(t, 1, r.Conflicts.Len())
	assert.Equal(t, "Bash(git:*)", string(r.Conflicts.At(0).Rule))

	r = c.Check(sh("git", "log"), nil)
	assert.Equal(t, Allow, r.Decision)
	assert.Equal(t, "allowed by allow rule Bash(git:*) (config)", r.Reason)
	assert.Equal(t, 0, r.Conflicts.Len())

	r = c.Check(sh("make"), nil)
	assert.Equal(t, Allow, r.Decision)
	assert.Equal(t, SourceDefault, r.Source)
	assert.Equal(t, "no rule matched; the default for exec tools is allow", r.Reason)
}

func TestDefaults(t *testing.T) {
	c, err := New(Config{Default: Allow, DefaultFor: map[Kind]Decision{KindEdit: Ask, KindNetwork: Deny}})
	require.NoError(t, err)
	for _, tt := range []struct {
		kind Kind
		want Decision
	}{{KindRead, Allow}, {KindEdit, Ask}, {KindNetwork, Deny}, {KindOther, Allow}} {
		r := c.Check(&Request{Tool: "T", Kind: tt.kind}, nil)
		assert.Equal(t, tt.want, r.Decision, tt.kind.String())
		assert.Equal(t, "no rule matched; the default for "+tt.kind.String()+" tools is "+tt.want.String(), r.Reason)
	}
	var zero Config
	c, err = New(zero)
	require.NoError(t, err)
	r := c.Check(&Request{Tool: "Read", Kind: KindRead}, nil)
	assert.Equal(t, Deny, r.Decision, "the zero Config fails closed")
	assert.Equal(t, "no rule matched; the default for read tools is deny", r.Reason)

	var nilChecker *Checker
	r = nilChecker.Check(&Request{Tool: "Read"}, nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "no permission checker is configured", r.Reason)
}

func TestGroupRules(t *testing.T) {
	// Claude Code's Edit rules cover every tool that edits files.
	c, err := New(Config{Deny: []string{"Edit(./vendor/**)"}, Default: Allow, WorkDir: "/p"})
	require.NoError(t, err)
	r := c.Check(&Request{Tool: "Write", Group: "Edit", Kind: KindEdit, Path: "/p/vendor/x.go"}, nil)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "denied by deny rule Edit(./vendor/**) (config)", r.Reason)
}

// TestMCPServerRules: a rule naming a whole server applies to each of its
// tools, with the names Claude Code writes for servers whose names held
// characters a tool name may not (runs of three or more underscores).
func TestMCPServerRules(t *testing.T) {
	tests := []struct {
		rules  Config
		tool   string
		want   Decision
		reason string
	}{
		{Config{Deny: []string{"mcp__github"}, Default: Allow}, "mcp__github__create_issue", Deny, "denied by deny rule mcp__github (config)"},
		{Config{Deny: []string{"mcp__github"}, Allow: []string{"mcp__*"}, Default: Allow}, "mcp__github__delete_repo", Deny, "denied by deny rule mcp__github (config)"},
		{Config{Ask: []string{"mcp__github"}, Default: Allow}, "mcp__github__x", Ask, "needs confirmation by ask rule mcp__github (config)"},
		{Config{Allow: []string{"mcp__github"}, Default: Ask}, "mcp__github__list_issues", Allow, "allowed by allow rule mcp__github (config)"},
		{Config{Deny: []string{"mcp__github"}, Default: Allow}, "mcp__githubx__y", Allow, "no rule matched"},
		{Config{Deny: []string{"mcp__github"}, Default: Allow}, "mcp__github", Deny, "denied by deny rule mcp__github (config)"},
		{Config{Deny: []string{"mcp__my_srv"}, Default: Allow}, "mcp__my_srv__t", Deny, "denied by deny rule mcp__my_srv (config)"},
		// "my srv!" becomes "my_srv_": its tools are mcp__my_srv___tool.
		{Config{Deny: []string{"mcp__my_srv_"}, Default: Allow}, "mcp__my_srv___tool", Deny, "denied by deny rule mcp__my_srv_ (config)"},
		{Config{Deny: []string{"mcp__my_srv"}, Default: Allow}, "mcp__my_srv___tool", Deny, "denied by deny rule mcp__my_srv (config)"},
		{Config{Allow: []string{"mcp__my_srv"}, Default: Ask}, "mcp__my_srv___tool", Ask, "no rule matched"}, // the server may be my_srv_
		{Config{Allow: []string{"mcp__my_srv_"}, Default: Ask}, "mcp__my_srv___tool", Ask, "no rule matched"},
		{Config{Deny: []string{"mcp__foo___*"}, Default: Allow}, "mcp__foo___bar", Deny, "denied by deny rule mcp__foo___* (config)"},
		{Config{Deny: []string{"mcp__foo____*"}, Default: Allow}, "mcp__foo____bar", Deny, "denied by deny rule mcp__foo____* (config)"},
		{Config{Deny: []string{"mcp__a_*"}, Default: Allow}, "mcp__a___b", Deny, "denied by deny rule mcp__a_* (config)"},
		{Config{Deny: []string{"mcp__github(x)"}, Default: Allow}, "mcp__github__y", Allow, "no rule matched"},
	}
	for _, tt := range tests {
		c, err := New(tt.rules)
		require.NoError(t, err)
		r := c.Check(&Request{Tool: tt.tool, Kind: KindOther, Content: "x"}, nil)
		assert.Equal(t, tt.want, r.Decision, "%v %s", tt.rules, tt.tool)
		assert.Contains(t, r.Reason, tt.reason, "%v %s", tt.rules, tt.tool)
		if len(tt.rules.Deny) == 0 {
			continue
		}
		// A session's deny rules match the same way.
		empty, err := New(Config{Default: Allow})
		require.NoError(t, err)
		s := empty.NewSession()
		require.NoError(t, s.Add(Deny, tt.rules.Deny...))
		r = empty.Check(&Request{Tool: tt.tool, Kind: KindOther, Content: "x"}, s)
		assert.Equal(t, tt.want == Deny, r.Decision == Deny, "session %v %s: %s", tt.rules.Deny, tt.tool, r.Reason)
	}
}

// TestDomainTrailingDots: a host written with trailing dots is the host
// without them to a resolver, and so to the rules.
func TestDomainTrailingDots(t *testing.T) {
	c, err := New(Config{Deny: []string{"WebFetch(domain:evil.com)", "WebFetch(domain:*.bad.org.)"}, Allow: []string{"WebFetch"}, Default: Ask})
	require.NoError(t, err)
	for _, h := range []string{"evil.com", "evil.com.", "evil.com..", "evil.com...", "EVIL.com..", "x.bad.org..", "a.b.bad.org."} {
		r := c.Check(&Request{Tool: "WebFetch", Kind: KindNetwork, Domain: h}, nil)
		assert.Equal(t, Deny, r.Decision, h)
		assert.Contains(t, r.Reason, "denied by deny rule WebFetch(domain:", h)
	}
	r := c.Check(&Request{Tool: "WebFetch", Kind: KindNetwork, Domain: "notevil.com.."}, nil)
	assert.Equal(t, Allow, r.Decision)
	assert.Equal(t, "allowed by allow rule WebFetch (config)", r.Reason)
}

// TestContentSpecifiers: a skill's or slash command's rule in Claude
// Code's forms: exact, and "name:*" for the name with any arguments.
func TestContentSpecifiers(t *testing.T) {
	c, err := New(Config{Default: Ask,
		Allow: []string{"SlashCommand(/review-pr:*)", "Skill(pdf)", "Skill(tools:*)"},
		Deny:  []string{"SlashCommand(/nuke)", "Skill(rm:*)"}})
	require.NoError(t, err)
	for _, tt := range []struct {
		tool, content string
		want          Decision
		reason        string
	}{
		{"SlashCommand", "/review-pr", Allow, "allowed by allow rule SlashCommand(/review-pr:*)"},
		{"SlashCommand", "/review-pr 123", Allow, "allowed by allow rule SlashCommand(/review-pr:*)"},
		{"SlashCommand", "/review-pr:draft", Allow, "allowed by allow rule SlashCommand(/review-pr:*)"},
		{"SlashCommand", "/review-prx", Ask, "no rule matched"},
		{"SlashCommand", "/nuke", Deny, "denied by deny rule SlashCommand(/nuke)"},
		{"SlashCommand", "/nuke now", Deny, "denied by deny rule SlashCommand(/nuke)"},
		{"SlashCommand", "/nuker", Ask, "no rule matched"},
		{"Skill", "pdf", Allow, "allowed by allow rule Skill(pdf)"},
		{"Skill", "pdf extra", Ask, "no rule matched"},
		{"Skill", "tools:fmt", Allow, "allowed by allow rule Skill(tools:*)"},
		{"Skill", "rm", Deny, "denied by deny rule Skill(rm:*)"},
		{"Skill", "rm:all", Deny, "denied by deny rule Skill(rm:*)"},
	} {
		r := c.Check(&Request{Tool: tt.tool, Kind: KindOther, Content: tt.content}, nil)
		assert.Equal(t, tt.want, r.Decision, "%s %q", tt.tool, tt.content)
		assert.Contains(t, r.Reason, tt.reason, "%s %q", tt.tool, tt.content)
	}
}
