package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"sync"
)

// A sibling is a subcommand that is a program of its own, which toolgate
// finds as git finds its subcommands and hands its process over to. The
// hook, which Claude Code starts for every tool call, then never links
// what only a sibling needs: the MCP SDK (a module of its own, so that it
// never enters the library's go.mod), the SQL stores and the HTTP server.
type sibling struct {
	sub  string // the subcommand: "mcp"
	name string // the program: "toolgate-mcp"
	pkg  string // its package, for the line that installs it
}

// The siblings.
var (
	mcpSibling   = sibling{"mcp", "toolgate-mcp", "github.com/toolgate/toolgate/contrib/mcpgateway/cmd/toolgate-mcp"}
	serveSibling = sibling{"serve", "toolgate-serve", "github.com/toolgate/toolgate/cmd/toolgate-serve"}
)

// install is the line that installs the sibling: at this toolgate's own
// version when it is a release (go install ...@v0.3.0 put it there), else
// at the latest.
func (s sibling) install() string {
	v := "latest"
	if bi, ok := debug.ReadBuildInfo(); ok && isRelease(bi.Main.Version) {
		v = bi.Main.Version
	}
	return "go install " + s.pkg + "@" + v
}

// release and pseudo are the shapes of a semantic version and of a
// pseudo-version (v0.0.0-20260101000000-0123456789ab).
var (
	release = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`) })
	pseudo  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d{14}-[0-9a-f]{12}$`) })
)

// isRelease reports whether v is a released version: a semantic version,
// neither a pseudo-version nor "(devel)".
func isRelease(v string) bool { return release().MatchString(v) && !pseudo().MatchString(v) }

// run is "toolgate SUB": it runs the sibling with the same arguments,
// standard streams and environment, and its exit status is the
// sibling's. The sibling is the one next to the toolgate executable, or
// else the one on PATH (never one PATH finds through a relative entry
// such as "."). Not installed, it is exit status 127 with the line that
// installs it.
func (s sibling) run(args []string, e env) int {
	path, err := s.find()
	if err != nil {
		fmt.Fprintf(e.stderr, "toolgate %s: %v\ninstall it with:\n  %s\n", s.sub, err, s.install())
		return 127
	}
	argv := append([]string{s.name}, args...)
	if e.execve != nil {
		// Replaced by the sibling: signals, streams and the exit status
		// are its own. Only a failed exec returns.
		err := e.execve(path, argv, os.Environ())
		if !errors.Is(err, errors.ErrUnsupported) {
			fmt.Fprintf(e.stderr, "toolgate %s: running %s: %v\n", s.sub, path, err)
			return 126
		}
	}
	cmd := exec.Command(path, args...)
	cmd.Args = argv
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	case errors.As(err, &exit):
		return 128 + 15 // killed by a signal; the status a shell reports for SIGTERM
	}
	fmt.Fprintf(e.stderr, "toolgate %s: running %s: %v\n", s.sub, path, err)
	return 126
}

// find returns the path of the sibling to run.
func (s sibling) find() (string, error) {
	if self, err := os.Executable(); err == nil {
		if self, err := filepath.EvalSymlinks(self); err == nil {
			p := filepath.Join(filepath.Dir(self), s.name)
			if isExecutable(p) {
				return p, nil
			}
		}
	}
	p, err := exec.LookPath(s.name)
	if err != nil {
		if errors.Is(err, exec.ErrDot) {
			return "", fmt.Errorf("%s is found only through a relative PATH entry, which is not run: %w", s.name, err)
		}
		return "", fmt.Errorf("%s is not installed (not next to toolgate, not on PATH)", s.name)
	}
	return p, nil
}

// isExecutable reports whether p is a regular file someone may execute.
func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
