package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Open wires a pipeline for one workspace: its directory named once, the
// rules, and defaults for everything else.
func ExampleOpen() {
	dir, _ := os.MkdirTemp("", "workspace")
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)

	p, err := runtime.Open(runtime.Workspace{
		Dir: dir,
		Rules: permission.Config{
			Allow:   []string{"Bash(go test:*)"},
			Deny:    []string{"Read(./.env)"},
			Default: permission.Ask,
		},
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Sandbox().Roots()[0] == dir)
	_, err = runtime.Open(runtime.Workspace{Dir: "relative/dir"})
	fmt.Println(err)
	// Output:
	// true
	// runtime: Workspace.Dir "relative/dir" is not an absolute path
}

// A host calls Check before each tool call and After after it, with what
// the tool returned; only an Allow runs.
func ExamplePipeline_Check() {
	dir, _ := os.MkdirTemp("", "workspace")
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)
	_ = os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644)

	p, err := runtime.Open(runtime.Workspace{
		Dir: dir,
		Rules: permission.Config{
			Deny:       []string{"Bash(git push:*)", "Read(./.env)"},
			Default:    permission.Ask,
			DefaultFor: map[permission.Kind]permission.Decision{permission.KindRead: permission.Allow},
		},
	})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	s, err := p.Session(ctx, runtime.SessionOptions{ID: "s1"})
	if err != nil {
		panic(err)
	}
	defer s.End("done", "", nil)

	for _, c := range []struct{ tool, input string }{
		{"Read", `{"file_path":"main.go"}`},
		{"Read", `{"file_path":".env"}`},
		{"Bash", `{"command":"git push origin main"}`},
		{"Bash", `{"command":"ls -la"}`},
	} {
		call := runtime.Call{Session: "s1", Tool: c.tool, Input: json.RawMessage(c.input)}
		v := p.Check(ctx, call)
		fmt.Printf("%s %s: %s (%s, %s)\n", c.tool, c.input, v.Decision, v.Layer, v.Rule)
		var out string
		if v.Decision == permission.Allow {
			out = "(the tool's output)" // run the tool with v.Input here
		}
		o := p.After(ctx, call, v, runtime.Run{Output: out})
		fmt.Printf("  the model sees: %s\n", o.Output)
	}
	// Output:
	// Read {"file_path":"main.go"}: allow (L2 rules, default)
	//   the model sees: (the tool's output)
	// Read {"file_path":".env"}: deny (L2 rules, Read(./.env))
	//   the model sees: denied (L2 rules): denied by deny rule Read(./.env) (config)
	// Bash {"command":"git push origin main"}: deny (L2 rules, Bash(git push:*))
	//   the model sees: denied (L2 rules): denied by deny rule Bash(git push:*) (config)
	// Bash {"command":"ls -la"}: allow (L5 shell, safe)
	//   the model sees: (the tool's output)
}
