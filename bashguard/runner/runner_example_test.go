//go:build linux

package runner_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgate/toolgate/bashguard/runner"
	"github.com/toolgate/toolgate/permission"
)

// runExampleRoot Allows the paths that resolve to root or below; in a
// program, *sandbox.Sandbox plays this part.
type runExampleRoot struct{ root string }

func (c runExampleRoot) CheckPath(path string, write bool) (permission.Decision, string) {
	p, err := filepath.EvalSymlinks(path)
	if err != nil || (p != c.root && !strings.HasPrefix(p, c.root+"/")) {
		return permission.Deny, path + " is outside " + c.root
	}
	return permission.Allow, p + " is inside " + c.root
}

func ExampleShell() {
	tmp, _ := os.MkdirTemp("", "runner-example")
	defer os.RemoveAll(tmp)
	root, _ := filepath.EvalSymlinks(tmp)

	r := runner.Shell{
		Dir:       root,
		Checker:   runExampleRoot{root: root},
		Timeout:   10 * time.Second,
		MaxOutput: 80,
	}
	ctx := context.Background()

	res, err := r.Run(ctx, `echo hello; echo oops >&2; cat; exit 3`)
	fmt.Printf("%q exit=%d err=%v\n", res.Output, res.ExitCode, err)

	res, _ = r.Run(ctx, `seq 1 100`)
	fmt.Printf("truncated=%v cut=%d\n%s\n", res.Truncated, res.CutChars, res.Output)

	r.Dir = "/"
	_, err = r.Run(ctx, `ls`)
	fmt.Println(errors.Is(err, runner.ErrDirRefused))
	// Output:
	// "hello\noops\n" exit=3 err=<nil>
	// truncated=true cut=242
	// 1
	// 2
	// 3
	// 4
	// 5
	// 6
	// 7
	// 8
	// 9
	// 10
	// 11
	// 1
	// [... 242 characters cut ...]
	// 93
	// 94
	// 95
	// 96
	// 97
	// 98
	// 99
	// 100
	//
	// true
}

func ExampleFromEnv() {
	env := map[string]string{"AGENT_TOOL_TIMEOUT_SECS": "300"}
	r, err := runner.FromEnv(func(name string) string { return env[name] })
	fmt.Println(r.Timeout, err)

	env["AGENT_TOOL_TIMEOUT_SECS"] = "soon"
	_, err = runner.FromEnv(func(name string) string { return env[name] })
	fmt.Println(err)
	// Output:
	// 2m0s <nil>
	// permission: AGENT_TOOL_TIMEOUT_SECS: "soon": want a positive whole number of seconds
}
