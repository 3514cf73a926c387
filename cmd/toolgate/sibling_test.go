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

// siblings are the subcommands that are programs of their own.
var siblings = []sibling{mcpSibling, serveSibling}

// fakeSibling writes an executable named for s into dir that prints who
// it is, its arguments and its stdin, writes to stderr, and exits 7.
func fakeSibling(t *testing.T, s sibling, dir, who string) {
	t.Helper()
	script := "#!/bin/sh\necho \"" + who + " args:$*\"\ncat\necho \"" + who + " stderr\" >&2\nexit 7\n"
	if err := os.WriteFile(filepath.Join(dir, s.name), []byte(script), 0o755); err != nil {
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

func TestSiblingRunsFromPath(t *testing.T) {
	for _, sib := range siblings {
		fake := t.TempDir()
		fakeSibling(t, sib, fake, "onpath")
		out, errs, code := runToolgate(t, bin, fake+":"+sysPath, t.TempDir(), "a request\n",
			sib.sub, "--config", "servers.json", "--listen", "127.0.0.1:0")
		if code != 7 {
			t.Errorf("%s: exit status %d, want the sibling's 7; stderr: %s", sib.sub, code, errs)
		}
		if !strings.Contains(out, "onpath args:--config servers.json --listen 127.0.0.1:0\n") {
			t.Errorf("%s: the arguments do not reach %s: %q", sib.sub, sib.name, out)
		}
		if !strings.Contains(out, "a request\n") {
			t.Errorf("%s: stdin does not reach %s: %q", sib.sub, sib.name, out)
		}
		if errs != "onpath stderr\n" {
			t.Errorf("%s: stderr is not %s's: %q", sib.sub, sib.name, errs)
		}
	}
}

func TestSiblingNextToToolgateFirst(t *testing.T) {
	beside := t.TempDir()
	exe := filepath.Join(beside, "toolgate")
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	onPath := t.TempDir()
	for _, sib := range siblings {
		fakeSibling(t, sib, beside, "beside")
		fakeSibling(t, sib, onPath, "onpath")
		out, _, code := runToolgate(t, exe, onPath+":"+sysPath, t.TempDir(), "", sib.sub, "--config", "x.json")
		if code != 7 || !strings.HasPrefix(out, "beside args:--config x.json\n") {
			t.Errorf("%s: got status %d, output %q; want the %s next to toolgate", sib.sub, code, out, sib.name)
		}
	}
}

func TestSiblingNotInstalled(t *testing.T) {
	for _, sib := range siblings {
		out, errs, code := runToolgate(t, bin, t.TempDir()+":"+sysPath, t.TempDir(), "", sib.sub, "--config", "x.json")
		if code != 127 {
			t.Errorf("%s: exit status %d, want 127", sib.sub, code)
		}
		if out != "" {
			t.Errorf("%s: stdout %q, want nothing", sib.sub, out)
		}
		for _, want := range []string{"toolgate " + sib.sub + ": " + sib.name + " is not installed", sib.install()} {
			if !strings.Contains(errs, want) {
				t.Errorf("%s: stderr %q lacks %q", sib.sub, errs, want)
			}
		}
	}
}

// A sibling found only through "." in PATH is not run: the working
// directory may be the workspace an agent writes to.
func TestSiblingRefusesRelativePathEntry(t *testing.T) {
	for _, sib := range siblings {
		cwd := t.TempDir()
		fakeSibling(t, sib, cwd, "dot")
		out, errs, code := runToolgate(t, bin, ".:"+sysPath, cwd, "", sib.sub, "--config", "x.json")
		if code != 127 || strings.Contains(out, "dot args") {
			t.Errorf("%s: status %d, output %q: the %s in . ran", sib.sub, code, out, sib.name)
		}
		if !strings.Contains(errs, "relative PATH entry") || !strings.Contains(errs, sib.install()) {
			t.Errorf("%s: stderr %q does not say why", sib.sub, errs)
		}
	}
}

// Where the process cannot replace itself, the sibling runs as a child
// with the same streams, and its exit status is passed on.
func TestSiblingChildWithoutExec(t *testing.T) {
	for _, sib := range siblings {
		fake := t.TempDir()
		fakeSibling(t, sib, fake, "child")
		t.Setenv("PATH", fake+":"+sysPath)
		var out, errs bytes.Buffer
		code := run([]string{sib.sub, "--listen", "127.0.0.1:9"}, env{stdin: strings.NewReader("in\n"), stdout: &out, stderr: &errs,
			getenv: os.Getenv, execve: func(string, []string, []string) error { return errors.ErrUnsupported }})
		if code != 7 {
			t.Errorf("%s: exit status %d, want 7; stderr %q", sib.sub, code, errs.String())
		}
		if out.String() != "child args:--listen 127.0.0.1:9\nin\n" || errs.String() != "child stderr\n" {
			t.Errorf("%s: stdout %q, stderr %q", sib.sub, out.String(), errs.String())
		}
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
	for _, sib := range siblings {
		if got, want := sib.install(), "go install "+sib.pkg+"@latest"; got != want {
			t.Errorf("in a test binary (version (devel)), %s install() = %q, want %q", sib.sub, got, want)
		}
	}
}
