package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
)

// goDirs computes what "go env GOMODCACHE GOCACHE GOPATH" prints, as the
// real go does where it is installed, and leaves unknown what it cannot
// be sure of; a module cache that may hold private modules is not given.
func TestGoDirs(t *testing.T) {
	home := t.TempDir()
	for _, tc := range []struct {
		name string
		env  map[string]string
		want bashguard.GoEnv
	}{
		{"the defaults", nil, bashguard.GoEnv{ModCache: home + "/go/pkg/mod", Cache: home + "/.cache/go-build", Path: home + "/go"}},
		{"GOPATH and XDG_CACHE_HOME", map[string]string{"GOPATH": "/gp:/other", "XDG_CACHE_HOME": "/xc"}, bashguard.GoEnv{ModCache: "/gp/pkg/mod", Cache: "/xc/go-build", Path: "/gp"}},
		{"GOMODCACHE and GOCACHE", map[string]string{"GOMODCACHE": "/mc", "GOCACHE": "/c"}, bashguard.GoEnv{ModCache: "/mc", Cache: "/c", Path: home + "/go"}},
		{"relative values", map[string]string{"GOPATH": "gp", "GOCACHE": "off"}, bashguard.GoEnv{}},
		{"GOPRIVATE", map[string]string{"GOPRIVATE": "example.com/*"}, bashguard.GoEnv{Cache: home + "/.cache/go-build", Path: home + "/go"}},
		{"GOSUMDB off", map[string]string{"GOSUMDB": "off"}, bashguard.GoEnv{Cache: home + "/.cache/go-build", Path: home + "/go"}},
		{"GOFLAGS -insecure", map[string]string{"GOFLAGS": "-insecure"}, bashguard.GoEnv{Cache: home + "/.cache/go-build", Path: home + "/go"}},
		{"GOENV", map[string]string{"GOENV": "/x/env"}, bashguard.GoEnv{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, goDirs(func(k string) string { return tc.env[k] }, home))
		})
	}
	assert.Equal(t, bashguard.GoEnv{}, goDirs(nil, home), "no environment")

	// A go env file that sets one of them: nothing is known.
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config", "go"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".config", "go", "env"), []byte("GOPRIVATE=example.com\n"), 0o644))
	assert.Equal(t, bashguard.GoEnv{}, goDirs(func(string) string { return "" }, home), "a go env file that sets GOPRIVATE")
}

// goDirs agrees with the go installed here, for the environment the test
// runs in and for one with its own GOPATH.
func TestGoDirsAgreesWithGo(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("SKIP: no go on PATH to compare goDirs with: " + err.Error())
	}
	// go env may start its telemetry child, which writes under HOME after
	// go env has returned: HOME is removed at the end as far as it can be,
	// not by t.TempDir, whose cleanup fails on a directory still being written.
	home, err := os.MkdirTemp("", "godirs-home-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(home) })
	gp := t.TempDir()
	for _, env := range []map[string]string{{}, {"GOPATH": gp}, {"GOPATH": gp, "GOMODCACHE": filepath.Join(gp, "mc"), "GOCACHE": filepath.Join(gp, "c")}} {
		env["HOME"], env["PATH"] = home, os.Getenv("PATH")
		cmd := exec.Command(goBin, "env", "GOMODCACHE", "GOCACHE", "GOPATH")
		cmd.Env = []string{"GOTOOLCHAIN=local"}
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.Output()
		require.NoError(t, err)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Len(t, lines, 3)
		got := goDirs(func(k string) string { return env[k] }, home)
		assert.Equal(t, bashguard.GoEnv{ModCache: lines[0], Cache: lines[1], Path: lines[2]}, got, "env %v", env)
	}
}
