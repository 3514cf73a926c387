package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Under domain rules that allow no host, a go command in a module reaches
// none when the installed go is new enough and the module cache holds
// what go.sum records; otherwise the module proxy is judged, and asked.
func TestGoFetchesNothing(t *testing.T) {
	const gomod = "module example.com/p\n\ngo 1.22\n\nrequire (\n\tgithub.com/Foo/bar v1.2.0\n\tgolang.org/x/mod v0.20.0 // indirect\n)\n"
	const gosum = "github.com/Foo/bar v1.2.0 h1:abc=\ngithub.com/Foo/bar v1.2.0/go.mod h1:def=\ngolang.org/x/mod v0.20.0/go.mod h1:ghi=\n"
	cached := []string{"github.com/!foo/bar/@v/v1.2.0.zip", "github.com/!foo/bar/@v/v1.2.0.mod", "golang.org/x/mod/@v/v0.20.0.mod"}
	for _, tc := range []struct {
		name, script, gomod, gosum, version string
		reason                              string // of the Ask; "" is the proxy's
		cache                               []string
		files                               map[string]string
		allowed                             bool
	}{
		{name: "all cached", script: "go list ./...", allowed: true},
		{name: "go version, all cached", script: "go version", allowed: true},
		{name: "no requirements, no go.sum", script: "go list ./...", gomod: "module example.com/p\n\ngo 1.22\n", gosum: "-", cache: []string{}, allowed: true},
		{name: "from a package below the module", script: "cd sub && go list .", files: map[string]string{"sub/x.go": "package sub\n"}, allowed: true},
		{name: "a zip missing", script: "go list ./...", cache: cached[1:]},
		{name: "a go.mod missing", script: "go list ./...", cache: cached[:2]},
		{name: "a newer go line", script: "go version", gomod: "module example.com/p\n\ngo 1.99\n", gosum: "-", cache: []string{}},
		{name: "a newer toolchain line", script: "go version", gomod: "module example.com/p\n\ngo 1.22\ntoolchain go1.27rc1\n", gosum: "-", cache: []string{}},
		{name: "the installed go unknown", script: "go version", version: "-"},
		{name: "a go.work", script: "go list ./...", files: map[string]string{"go.work": "go 1.22\nuse .\n"}},
		{name: "a replace to another module", script: "go list ./...", gomod: gomod + "replace github.com/Foo/bar => github.com/evil/bar v1.0.0\n"},
		{name: "GOFLAGS in the command's environment", script: "GOFLAGS=-mod=mod go list ./...", reason: "GOFLAGS"},
		{name: "go -C another directory", script: "go -C /tmp list ./...", allowed: false},
		{name: "requirements without go.sum", script: "go list ./...", gosum: "-", cache: []string{}, allowed: false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, cache := t.TempDir(), t.TempDir()
			write := func(p, body string) {
				require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
				require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
			}
			m, s := gomod, gosum
			if tc.gomod != "" {
				m = tc.gomod
			}
			if tc.gosum != "" {
				s = tc.gosum
			}
			write(filepath.Join(dir, "go.mod"), m)
			if s != "-" {
				write(filepath.Join(dir, "go.sum"), s)
			}
			write(filepath.Join(dir, "main.go"), "package main\n")
			for p, body := range tc.files {
				write(filepath.Join(dir, p), body)
			}
			in := cached
			if tc.cache != nil {
				in = tc.cache
			}
			for _, f := range in {
				write(filepath.Join(cache, "cache", "download", f), "x")
			}
			pol := DefaultPolicy()
			pol.Home = t.TempDir()
			pol.GoVersion, pol.GoModCache = "go1.26.8", cache
			if tc.version == "-" {
				pol.GoVersion = ""
			}
			v := New(pol).Judge(context.Background(), dir, askHosts{CheckerJudge(rootChecker{dir: dir, roots: []string{dir, "/tmp"}})}, tc.script)
			if tc.allowed {
				assert.Equal(t, "allow", v.Decision.String(), "%q: %s", tc.script, v.Reason)
				return
			}
			assert.NotEqual(t, "allow", v.Decision.String(), "%q: %s", tc.script, v.Reason)
			if tc.reason == "" {
				tc.reason = "proxy.golang.org"
			}
			assert.Contains(t, v.Reason, tc.reason, "%q", tc.script)
		})
	}
}

// goRelease orders Go's releases as the go command does.
func TestGoRelease(t *testing.T) {
	for _, tc := range []struct {
		a, b  string
		newer bool
	}{
		{"1.27", "1.26.8", true}, {"1.26.8", "1.26.8", false}, {"1.26.9", "1.26.8", true}, {"1.26", "1.26.8", false},
		{"1.27rc1", "1.26.8", true}, {"1.27rc1", "1.27.0", false}, {"1.27beta1", "1.27rc1", false}, {"1.27rc2", "1.27rc1", true},
		{"2.0", "1.99.9", true},
	} {
		a, ok := goRelease(tc.a)
		require.True(t, ok, tc.a)
		b, ok := goRelease(tc.b)
		require.True(t, ok, tc.b)
		assert.Equal(t, tc.newer, goNewer(a, b), "%s newer than %s", tc.a, tc.b)
	}
	for _, bad := range []string{"", "1", "x.y", "1.2.3.4", "1.27xx", "1.-1"} {
		_, ok := goRelease(bad)
		assert.False(t, ok, "%q is not a release", bad)
	}
}
