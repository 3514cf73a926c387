package sandbox_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/sandbox"
)

func Example() {
	dir, _ := os.MkdirTemp("", "sandbox-example")
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)
	proj := filepath.Join(dir, "proj")
	_ = os.MkdirAll(filepath.Join(proj, ".git"), 0o755)
	_ = os.MkdirAll(filepath.Join(dir, "proj_evil"), 0o755)
	_ = os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("s3cret"), 0o644)
	_ = os.Symlink("../secret.txt", filepath.Join(proj, "shortcut"))

	sb, err := sandbox.New(sandbox.Config{Roots: []string{proj}, WorkDir: proj})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range []string{"notes.txt", "src/../README.md", "../proj_evil/x", "shortcut", "~/.ssh/id_rsa"} {
		real, err := sb.Resolve(p)
		switch {
		case errors.Is(err, sandbox.ErrOutsideRoots):
			fmt.Printf("%-18s outside the roots\n", p)
		case errors.Is(err, sandbox.ErrHomeRef):
			fmt.Printf("%-18s refers to a home directory\n", p)
		case err != nil:
			fmt.Printf("%-18s %v\n", p, err)
		default:
			r, _ := filepath.Rel(dir, real)
			fmt.Printf("%-18s %s\n", p, r)
		}
	}

	d, _ := sb.CheckPath(".git/config", true)
	fmt.Println("write .git/config:", d)
	d, _ = sb.CheckPath(".env", false)
	fmt.Println("read .env:", d)

	fsys, err := sb.OpenFS()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer fsys.Close()
	_ = fsys.WriteFile("notes.txt", []byte("hello"), 0o644)
	b, _ := fsys.ReadFile(filepath.Join(proj, "notes.txt"))
	fmt.Println(string(b))
	_, err = fsys.ReadFile("shortcut")
	fmt.Println(errors.Is(err, sandbox.ErrOutsideRoots))

	// Output:
	// notes.txt          proj/notes.txt
	// src/../README.md   proj/README.md
	// ../proj_evil/x     outside the roots
	// shortcut           outside the roots
	// ~/.ssh/id_rsa      refers to a home directory
	// write .git/config: ask
	// read .env: ask
	// hello
	// true
}
