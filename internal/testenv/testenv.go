// Package testenv gives the tests what .ci/setup prepared for them, so
// that go test installs nothing and starts nothing of its own.
//
// .ci/setup installs the Debian packages, starts PostgreSQL and installs
// the pinned npm packages, then writes what it prepared to one file (see
// [File]) as KEY='VALUE' lines. [Lookup] reads a variable from the
// environment, which wins, or else from that file; a test that finds it in
// neither skips, saying to run .ci/setup (see [Missing]).
package testenv

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// FileEnv names the variable that moves the setup's file.
const FileEnv = "TOOLGATE_TEST_ENV"

// File is the path of the file .ci/setup writes: $TOOLGATE_TEST_ENV, or
// toolgate-test/env in the user's cache directory
// (${XDG_CACHE_HOME:-$HOME/.cache} on Linux).
func File() (string, error) {
	if p := os.Getenv(FileEnv); p != "" {
		return p, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("testenv: no cache directory for the setup's file: %w", err)
	}
	return filepath.Join(d, "toolgate-test", "env"), nil
}

// Lookup returns key's value and where it came from ("$KEY", or the
// setup's file): from the environment when it is set there, or else from
// the setup's file. Found nowhere, it returns "" and the reason, for a
// skip message.
func Lookup(key string) (value, from string) {
	if v := os.Getenv(key); v != "" {
		return v, "$" + key
	}
	path, err := File()
	if err != nil {
		return "", err.Error()
	}
	vars, err := Read(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Sprintf("%s is unset and .ci/setup has not run (no %s)", key, path)
	}
	if err != nil {
		return "", err.Error()
	}
	if v := vars[key]; v != "" {
		return v, path
	}
	return "", fmt.Sprintf("%s is unset and not in %s (written by an older .ci/setup?)", key, path)
}

// Missing is the sentence a test skips with when what it needs is not
// prepared: what is missing, why, and the command that prepares it.
func Missing(what, why string) string {
	return fmt.Sprintf("SKIPPED LOUDLY: %s is not prepared (%s); run .ci/setup, which prepares everything the tests use", what, why)
}

// Read parses the setup's file: KEY='VALUE' lines, blank lines and
// "#" comments. A line of another shape is an error, not skipped.
func Read(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	vars := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || k == "" || strings.ContainsAny(k, " \t'\"") ||
			len(v) < 2 || v[0] != '\'' || v[len(v)-1] != '\'' || strings.Contains(v[1:len(v)-1], "'") {
			return nil, fmt.Errorf("testenv: %s:%d: not a KEY='VALUE' line: %q", path, n, line)
		}
		vars[k] = v[1 : len(v)-1]
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("testenv: %s: %w", path, err)
	}
	return vars, nil
}
