// Command checker builds a permission checker from a few rules in Claude
// Code's syntax and prints, for some tool calls, the decision and its
// reason.
package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

func main() {
	checker, err := permission.New(permission.Config{
		Allow:   []string{"Bash(git status)", "Bash(go test:*)", "Read(./src/**)"},
		Ask:     []string{"Bash(git push:*)"},
		Deny:    []string{"Bash(rm:*)", "Read(./.env)", "WebFetch(domain:*.pastebin.com)"},
		Default: permission.Ask,
		WorkDir: "/home/dev/project",
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	calls := []permission.Request{
		{Tool: "Bash", Kind: permission.KindExec, Command: []string{"git", "status"}},
		{Tool: "Bash", Kind: permission.KindExec, Command: []string{"go", "test", "./..."}},
		{Tool: "Bash", Kind: permission.KindExec, Command: []string{"git", "push", "origin", "main"}},
		{Tool: "Bash", Kind: permission.KindExec, Command: []string{"/bin/rm", "-rf", "build"}},
		{Tool: "Read", Kind: permission.KindRead, Path: "/home/dev/project/src/main.go"},
		{Tool: "Read", Kind: permission.KindRead, Path: "/home/dev/project/.env"},
		{Tool: "WebFetch", Kind: permission.KindNetwork, Domain: "dpaste.pastebin.com"},
		{Tool: "TodoWrite", Kind: permission.KindOther},
	}
	for _, c := range calls {
		r := checker.Check(&c, nil)
		fmt.Printf("%-9s %-40s %-5s %s\n", c.Tool, describe(c), r.Decision, r.Reason)
	}
}

func describe(r permission.Request) string {
	switch {
	case r.Command != nil:
		return strings.Join(r.Command, " ")
	case r.Path != "":
		return r.Path
	case r.Domain != "":
		return r.Domain
	}
	return "-"
}
