package permission_test

import (
	"fmt"

	"github.com/toolgate/toolgate/permission"
)

func ExampleChecker() {
	checker, err := permission.New(permission.Config{
		Allow:   []string{"Bash(npm run test:*)", "Bash(git status)", "Read(./src/**)"},
		Ask:     []string{"Bash(git push *)"},
		Deny:    []string{"Bash(rm:*)", "Read(./.env)", "WebFetch(domain:*.evil.example)"},
		Default: permission.Ask,
		WorkDir: "/home/u/proj",
	})
	if err != nil {
		panic(err)
	}
	for _, req := range []permission.Request{
		{Tool: "Bash", Kind: permission.KindExec, Command: []string{"npm", "run", "test", "--watch"}},
		{Tool: "Bash", Kind: permission.KindExec, Command: []string{"npm", "run", "testing"}},
		{Tool: "Bash", Kind: permission.KindExec, Command: []string{"/bin/rm", "-rf", "build"}},
		{Tool: "Bash", Kind: permission.KindExec, Command: []string{"git", "push", "origin", "main"}},
		{Tool: "Read", Kind: permission.KindRead, Path: "/home/u/proj/src/main.go"},
		{Tool: "Read", Kind: permission.KindRead, Path: "/home/u/proj/.env"},
		{Tool: "WebFetch", Kind: permission.KindNetwork, Domain: "api.evil.example"},
	} {
		r := checker.Check(&req, nil)
		fmt.Printf("%-5s %s\n", r.Decision, r.Reason)
	}
	// Output:
	// allow allowed by allow rule Bash(npm run test:*) (config)
	// ask   no rule matched; the default for exec tools is ask
	// deny  denied by deny rule Bash(rm:*) (config)
	// ask   needs confirmation by ask rule Bash(git push *) (config)
	// allow allowed by allow rule Read(./src/**) (config)
	// deny  denied by deny rule Read(./.env) (config)
	// deny  denied by deny rule WebFetch(domain:*.evil.example) (config)
}

func ExampleParseRule() {
	for _, s := range []string{"Bash(npm run test:*)", "mcp__github__*", "Bash(*)", "Read(src/**", "Bash(ls | wc)"} {
		r, err := permission.ParseRule(s)
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Printf("tool=%q specifier=%q printed=%s\n", r.Tool, r.Specifier, r)
	}
	// Output:
	// tool="Bash" specifier="npm run test:*" printed=Bash(npm run test:*)
	// tool="mcp__github__*" specifier="" printed=mcp__github__*
	// tool="Bash" specifier="" printed=Bash
	// error: permission: "Read(src/**" at offset 10: specifier not closed: a rule with '(' must end with ')'
	// tool="Bash" specifier="ls | wc" printed=Bash(ls | wc)
}

func ExampleCombine() {
	checker, _ := permission.New(permission.Config{Allow: []string{"Edit"}, Default: permission.Allow})
	rules := checker.Check(&permission.Request{Tool: "Edit", Kind: permission.KindEdit, Path: "/p/a.go"}, nil)
	hookAsk := permission.Result{Decision: permission.Ask, Layer: permission.LayerHooks, Source: permission.SourceHookAsk,
		Rule: "hook:review", Reason: "hook review asks for confirmation"}
	r := permission.Combine(permission.ModeDefault, permission.Call{Tool: "Edit", Kind: permission.KindEdit, InsideRoots: true}, rules, hookAsk)
	fmt.Println(r.Decision, r.Source, "-", r.Reason)
	for c := range r.Conflicts.All() {
		fmt.Println("  overrode:", c.Decision, c.Source, "-", c.Reason)
	}
	// A mode that lifts Asks lifts the rules' Asks, never a hook's.
	r = permission.Combine(permission.ModeAcceptEdits, permission.Call{Tool: "Edit", Kind: permission.KindEdit, InsideRoots: true}, rules, hookAsk)
	fmt.Println(r.Decision, r.Rule, "-", r.Reason)
	ruleAsk := permission.Result{Decision: permission.Ask, Layer: permission.LayerRules, Source: permission.SourceRuleAsk,
		Rule: "Edit(./a.go)", Reason: "needs confirmation by ask rule Edit(./a.go)"}
	r = permission.Combine(permission.ModeAcceptEdits, permission.Call{Tool: "Edit", Kind: permission.KindEdit, InsideRoots: true}, rules, ruleAsk)
	fmt.Println(r.Decision, r.Rule, "-", r.Reason)
	// Output:
	// ask P4 hook permission-required - hook review asks for confirmation
	//   overrode: allow P7 allow rule - allowed by allow rule Edit (config)
	// ask hook:review - hook review asks for confirmation
	// allow mode:acceptEdits - acceptEdits mode: allowed an edit inside the allowed roots that would ask (needs confirmation by ask rule Edit(./a.go))
}

func ExampleAllowAlwaysRules() {
	rules, err := permission.AllowAlwaysRules("Bash", [][]string{{"git", "status"}, {"grep", "-n", "TODO list", "main.go"}})
	fmt.Println(rules, err)
	_, err = permission.AllowAlwaysRules("Bash", [][]string{{"sh", "-c", "git status"}})
	fmt.Println(err)
	// Output:
	// [Bash(git status) Bash(grep -n 'TODO list' main.go)] <nil>
	// permission: no allow-always rule for command 0 ["sh" "-c" "git status"]: sh runs arbitrary code or commands: allow it once instead
}
