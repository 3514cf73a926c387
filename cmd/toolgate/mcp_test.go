package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGateway writes an executable toolgate-mcp into dir that prints who
// it is, its arguments and its stdin, writes to stderr, and exits 7.
func fakeGateway(t *testing.T, dir, who string) {
	t.Helper()
	script := "#!/bin/sh\necho \"" + who + " args:$*\"\ncat\necho \"" + who + " stderr\" >&2\nexit 7\n"
	if err := os.WriteFile(filepath.Join(dir, mcpGateway), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
}

// runToolgate runs the built toolgate binary at exe with PATH set to path
// and cwd as its working directory, and returns stdout, stderr and the
// exit status.
func runToolgate(t *testing.T, exe, path, cwd, stdin string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	cmd.Env = []string{"PATH=" + path, "HOME=" + t.TempDir()}
	cmd.Dir = cwd
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("running %s: %v", exe, err)
	}
	return out.String(), errb.String(), cmd.ProcessState.ExitCode()
}

// sysPath is a PATH with the shell the fake gateways need.
const sysPath = "/usr/bin:/bin"

func TestMCPRunsGatewayFromPath(t *testing.T) {
	fake := t.TempDir()
	fakeGateway(t, fake, "onpath")
	out, errs, code := runToolgate(t, bin, fake+":"+sysPath, t.TempDir(), "a request\n",
		"mcp", "--config", "servers.json", "--listen", "127.0.0.1:0")
	if code != 7 {
		t.Errorf("exit status %d, want the gateway's 7; stderr: %s", code, errs)
	}
	if !strings.Contains(out, "onpath args:--config servers.json --listen 127.0.0.1:0\n") {
		t.Errorf("the arguments do not reach the gateway: %q", out)
	}
	if !strings.Contains(out, "a request\n") {
		t.Errorf("stdin does not reach the gateway: %q", out)
	}
	if errs != "onpath stderr\n" {
		t.Errorf("stderr is not the gateway's: %q", errs)
	}
}

func TestMCPPrefersGatewayNextToToolgate(t *testing.T) {
	beside := t.TempDir()
	exe := filepath.Join(beside, "toolgate")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	fakeGateway(t, beside, "beside")
	onPath := t.TempDir()
	fakeGateway(t, onPath, "onpath")
	out, _, code := runToolgate(t, exe, onPath+":"+sysPath, t.TempDir(), "", "mcp", "--config", "x.json")
	if code != 7 || !strings.HasPrefix(out, "beside args:--config x.json\n") {
		t.Errorf("got status %d, output %q; want the toolgate-mcp next to toolgate", code, out)
	}
}

func TestMCPNotInstalled(t *testing.T) {
	out, errs, code := runToolgate(t, bin, t.TempDir()+":"+sysPath, t.TempDir(), "", "mcp", "--config", "x.json")
	if code != 127 {
		t.Errorf("exit status %d, want 127", code)
	}
	if out != "" {
		t.Errorf("stdout %q, want nothing", out)
	}
	for _, want := range []string{"toolgate-mcp is not installed", mcpInstall()} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr %q lacks %q", errs, want)
		}
	}
}

// A toolgate-mcp found only through "." in PATH is not run: the working
// directory may be the workspace an agent writes to.
func TestMCPRefusesRelativePathEntry(t *testing.T) {
	cwd := t.TempDir()
	fakeGateway(t, cwd, "dot")
	out, errs, code := runToolgate(t, bin, ".:"+sysPath, cwd, "", "mcp", "--config", "x.json")
	if code != 127 || strings.Contains(out, "dot args") {
		t.Errorf("status %d, output %q: the gateway in . ran", code, out)
	}
	if !strings.Contains(errs, "relative PATH entry") || !strings.Contains(errs, mcpInstall()) {
		t.Errorf("stderr %q does not say why", errs)
	}
}

// Where the process cannot replace itself, the gateway runs as a child
// with the same streams, and its exit status is passed on.
func TestMCPChildWithoutExec(t *testing.T) {
	fake := t.TempDir()
	fakeGateway(t, fake, "child")
	t.Setenv("PATH", fake+":"+sysPath)
	var out, errs bytes.Buffer
	code := run([]string{"mcp", "--listen", "127.0.0.1:9"}, env{stdin: strings.NewReader("in\n"), stdout: &out, stderr: &errs,
		getenv: os.Getenv, execve: func(string, []string, []string) error { return errors.ErrUnsupported }})
	if code != 7 {
		t.Errorf("exit status %d, want 7; stderr %q", code, errs.String())
	}
	if out.String() != "child args:--listen 127.0.0.1:9\nin\n" || errs.String() != "child stderr\n" {
		t.Errorf("stdout %q, stderr %q", out.String(), errs.String())
	}
}

// The install line names toolgate's own version only when it is a
// release: a build from a checkout, or at a commit, points at the latest.
func TestIsRelease(t *testing.T) {
	for v, want := range map[string]bool{
		"v0.3.0":                               true,
		"v1.2.3-rc.1":                          true,
		"(devel)":                              false,
		"":                                     false,
		"v0.0.0-20261202033937-9f503d2a1b2c":   false,
		"v0.3.1-0.20261202033937-9f503d2a1b2c": false,
		"v0.4.0-rc.1.0.20261202033937-9f503d2a1b2c": false,
		"latest": false,
	} {
		if got := isRelease(v); got != want {
			t.Errorf("isRelease(%q) = %v, want %v", v, got, want)
		}
	}
	if got, want := mcpInstall(), "go install "+mcpPackage+"@latest"; got != want {
		t.Errorf("in a test binary (version (devel)), mcpInstall() = %q, want %q", got, want)
	}
}
