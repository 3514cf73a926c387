package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goFacts reads the release of the go on PATH from its GOROOT's VERSION
// and the module cache from GOMODCACHE, GOPATH or HOME; what it cannot be
// sure of leaves both empty.
func TestGoFacts(t *testing.T) {
	root := t.TempDir()
	goroot := filepath.Join(root, "go")
	require.NoError(t, os.MkdirAll(filepath.Join(goroot, "bin"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(goroot, "bin", "go"), []byte("#!/bin/sh\n"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(goroot, "VERSION"), []byte("go1.26.8\ntime 2026-08-28T16:20:06Z\n"), 0o644))
	linkDir := filepath.Join(root, "bin")
	require.NoError(t, os.MkdirAll(linkDir, 0o755))
	require.NoError(t, os.Symlink(filepath.Join(goroot, "bin", "go"), filepath.Join(linkDir, "go")))
	home := filepath.Join(root, "home")
	for _, tc := range []struct {
		name           string
		env            map[string]string
		version, cache string
	}{
		{"the default cache", map[string]string{"PATH": "/nonexistent:" + filepath.Join(goroot, "bin")}, "go1.26.8", home + "/go/pkg/mod"},
		{"go through a link", map[string]string{"PATH": linkDir}, "go1.26.8", home + "/go/pkg/mod"},
		{"GOPATH", map[string]string{"PATH": linkDir, "GOPATH": "/gp:/other"}, "go1.26.8", "/gp/pkg/mod"},
		{"GOMODCACHE", map[string]string{"PATH": linkDir, "GOMODCACHE": "/mc", "GOPATH": "/gp"}, "go1.26.8", "/mc"},
		{"local and off", map[string]string{"PATH": linkDir, "GOTOOLCHAIN": "local", "GOPROXY": "off", "GOFLAGS": "-mod=mod"}, "local", "off"},
		{"local toolchain", map[string]string{"PATH": linkDir, "GOTOOLCHAIN": "local"}, "local", home + "/go/pkg/mod"},
		{"no go on PATH", map[string]string{"PATH": "/nonexistent"}, "", ""},
		{"another proxy", map[string]string{"PATH": linkDir, "GOPROXY": "https://proxy.example"}, "", ""},
		{"GOFLAGS", map[string]string{"PATH": linkDir, "GOFLAGS": "-mod=mod"}, "", ""},
		{"GOROOT", map[string]string{"PATH": linkDir, "GOROOT": "/elsewhere"}, "", ""},
		{"a relative GOMODCACHE", map[string]string{"PATH": linkDir, "GOMODCACHE": "mc"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, c := goFacts(func(k string) string { return tc.env[k] }, home)
			assert.Equal(t, tc.version, v, "the release")
			assert.Equal(t, tc.cache, c, "the module cache")
		})
	}
	// A go env file that sets what go downloads or where it keeps it.
	require.NoError(t, os.MkdirAll(filepath.Join(home, ".config", "go"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, ".config", "go", "env"), []byte("GOPROXY=https://proxy.example\n"), 0o644))
	v, c := goFacts(func(k string) string { return map[string]string{"PATH": linkDir}[k] }, home)
	assert.Empty(t, v, "a go env file that sets GOPROXY")
	assert.Empty(t, c)
}
