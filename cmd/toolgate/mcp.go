package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
)

// mcpGateway is the gateway command "toolgate mcp" runs, and mcpPackage
// its package. The gateway is a module of its own (contrib/mcpgateway),
// so that the MCP SDK never enters the library's go.mod; "toolgate mcp"
// finds it as git finds its subcommands.
const (
	mcpGateway = "toolgate-mcp"
	mcpPackage = "github.com/toolgate/toolgate/contrib/mcpgateway/cmd/toolgate-mcp"
)

// mcpInstall is the line that installs the gateway: at this toolgate's
// own version when it is a release (go install ...@v0.3.0 put it there),
// else at the latest.
func mcpInstall() string {
	v := "latest"
	if bi, ok := debug.ReadBuildInfo(); ok && isRelease(bi.Main.Version) {
		v = bi.Main.Version
	}
	return "go install " + mcpPackage + "@" + v
}

// release and pseudo are the shapes of a semantic version and of a
// pseudo-version (v0.0.0-20260101000000-0123456789ab).
var (
	release = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)
	pseudo  = regexp.MustCompile(`\d{14}-[0-9a-f]{12}$`)
)

// isRelease reports whether v is a released version: a semantic version,
// neither a pseudo-version nor "(devel)".
func isRelease(v string) bool { return release.MatchString(v) && !pseudo.MatchString(v) }

// runMCP is "toolgate mcp": it runs toolgate-mcp with the same arguments,
// standard streams and environment, and its exit status is the
// gateway's. The gateway is the toolgate-mcp next to the toolgate
// executable, or else the one on PATH (never one PATH finds through a
// relative entry such as "."). Not installed, it is exit status 127 with
// the line that installs it.
func runMCP(args []string, e env) int {
	path, err := findGateway()
	if err != nil {
		fmt.Fprintf(e.stderr, "toolgate mcp: %v\ninstall it with:\n  %s\n", err, mcpInstall())
		return 127
	}
	argv := append([]string{mcpGateway}, args...)
	if e.execve != nil {
		// Replaced by the gateway: signals, streams and the exit status
		// are its own. Only a failed exec returns.
		err := e.execve(path, argv, os.Environ())
		if !errors.Is(err, errors.ErrUnsupported) {
			fmt.Fprintf(e.stderr, "toolgate mcp: running %s: %v\n", path, err)
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
	fmt.Fprintf(e.stderr, "toolgate mcp: running %s: %v\n", path, err)
	return 126
}

// findGateway returns the path of the toolgate-mcp to run.
func findGateway() (string, error) {
	if self, err := os.Executable(); err == nil {
		if self, err := filepath.EvalSymlinks(self); err == nil {
			p := filepath.Join(filepath.Dir(self), mcpGateway)
			if isExecutable(p) {
				return p, nil
			}
		}
	}
	p, err := exec.LookPath(mcpGateway)
	if err != nil {
		if errors.Is(err, exec.ErrDot) {
			return "", fmt.Errorf("%s is found only through a relative PATH entry, which is not run: %w", mcpGateway, err)
		}
		return "", fmt.Errorf("%s is not installed (not next to toolgate, not on PATH)", mcpGateway)
	}
	return p, nil
}

// isExecutable reports whether p is a regular file someone may execute.
func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
