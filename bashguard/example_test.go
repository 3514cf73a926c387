package bashguard_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// projectRoot is a tiny PathJudge for the example: everything under
// /srv/project is inside the roots, everything else outside (a read
// there is asked, a write denied).
type projectRoot struct{}

func (projectRoot) JudgePath(p string, access bashguard.Access) permission.Result {
	if len(p) >= 13 && p[:13] == "/srv/project/" {
		return permission.Result{Decision: permission.Allow, Layer: permission.LayerSandbox, Reason: "inside /srv/project"}
	}
	d := permission.Deny
	if access == bashguard.Read {
		d = permission.Ask
	}
	return permission.Result{Decision: d, Layer: permission.LayerSandbox, Reason: p + " is outside /srv/project"}
}

func ExampleGuard_Judge() {
	p := bashguard.DefaultPolicy()
	p.Home = "/home/dev"
	g := bashguard.New(p)

	for _, script := range []string{
		"ls -la && git log --oneline -5",
		"git status && go test ./... | tee out.txt",
		"xargs sudo rm -rf /",
		":(){ :|:& };:",
	} {
		v := g.Judge(context.Background(), "/srv/project", projectRoot{}, script)
		fmt.Printf("%s [%s] %s\n", v.Decision, v.Rule, v.Reason)
		for _, c := range v.Commands {
			fmt.Printf("  %v %s overridable=%v\n", c.Args, c.Decision, c.Overridable)
		}
	}
	// Output:
	// allow [safe] every command is read-only and on the safe list
	//   [ls -la] allow overridable=false
	//   [git log --oneline -5] allow overridable=false
	// ask [unlisted] go: not on the safe list (go test builds the packages' tests and runs them)
	//   [git status] allow overridable=false
	//   [go test ./...] ask overridable=true
	//   [tee out.txt] ask overridable=true
	// deny [dangerous:privilege] xargs: runs sudo: runs a command with other privileges
	//   [xargs sudo rm -rf /] deny overridable=false
	// deny [dangerous:fork-bomb] :: fork bomb: function ":" runs itself in the background or through a pipe
	//   [] ask overridable=false
	//   [:] deny overridable=false
	//   [:] deny overridable=false
	//   [:] deny overridable=false
}

// A script that does not parse is denied, and the Verdict keeps the
// parser's error, with where it stopped, as its Cause.
func ExampleParseError() {
	g := bashguard.New(bashguard.DefaultPolicy())
	v := g.Judge(context.Background(), "/srv/project", projectRoot{}, "echo ok\necho 'unterminated")
	fmt.Println(v.Decision, v.Rule == bashguard.RuleParse)
	var pe *bashguard.ParseError
	if errors.As(v.Cause, &pe) {
		fmt.Println("stopped at", pe.Pos)
	}
	// Output:
	// deny true
	// stopped at 2:6
}
