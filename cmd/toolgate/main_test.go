package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// bin is the toolgate binary and hello a bare Go hello-world, both built
// once for every test and benchmark.
var bin, hello string

func TestMain(m *testing.M) {
	if os.Getenv("TOOLGATE_TEST_ECHO_EXEC") == "1" {
		// Started by FuzzConfineWrap as "toolgate": print the script
		// toolgate exec would run, byte for byte.
		_, script, err := parseExecArgs(os.Args[2:])
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(126)
		}
		os.Stdout.WriteString(script)
		os.Exit(0)
	}
	if managed, ok := os.LookupEnv(openVerdictEnv); ok {
		// Started by a test as the library's front door (see
		// openVerdictMain), in a mount namespace of its own.
		os.Exit(openVerdictMain(managed))
	}
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	dir, err := os.MkdirTemp("", "toolgate-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin, hello = filepath.Join(dir, "toolgate"), filepath.Join(dir, "hello")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building toolgate: %v\n%s", err, out)
		return 1
	}
	src := filepath.Join(dir, "hello.go")
	if err := os.WriteFile(src, []byte("package main\n\nimport \"os\"\n\nfunc main() { os.Stdout.WriteString(\"{}\\n\") }\n"), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	build := exec.Command("go", "build", "-o", hello, src)
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building hello: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}
