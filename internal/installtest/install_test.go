package installtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/modproxy"
)

const (
	libModule     = "github.com/toolgate/toolgate"
	cliPackages   = libModule + "/cmd/..." // toolgate, its sibling toolgate-serve and the hook client toolgate-check
	gatewayModule = libModule + "/contrib/mcpgateway"
	gatewayPkg    = gatewayModule + "/cmd/toolgate-mcp"
)

// repoRoot is the repository's root: the library's module, two levels up.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	require.NoError(t, err)
	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	require.Contains(t, string(data), "module "+libModule+"\n")
	return root
}

// installLines are the README's install lines, as a person would paste
// them: the lines of its sh blocks that run "go install" or "go get" on
// a toolgate module, comments cut.
type installLines struct {
	installs []string // "go install PKG@VERSION"
	gets     []string // "go get MODULE@VERSION"
	version  string   // the one version every line names
}

var lineRE = regexp.MustCompile(`^go (install|get) (github\.com/toolgate/toolgate\S*)@(\S+)$`)

func readmeLines(t *testing.T, root string) installLines {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "README.md"))
	require.NoError(t, err)
	defer f.Close()
	var l installLines
	versions := map[string]bool{}
	inSh := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "```"):
			inSh = !inSh && strings.TrimPrefix(line, "```") == "sh"
			continue
		case !inSh:
			continue
		}
		cmd, _, _ := strings.Cut(line, "#")
		cmd = strings.TrimSpace(cmd)
		m := lineRE.FindStringSubmatch(cmd)
		if m == nil {
			continue
		}
		versions[m[3]] = true
		if m[1] == "install" {
			l.installs = append(l.installs, cmd)
		} else {
			l.gets = append(l.gets, cmd)
		}
	}
	require.NoError(t, sc.Err())
	require.Len(t, versions, 1, "every install line of the README names one version: %v", versions)
	for v := range versions {
		l.version = v
	}
	require.Regexp(t, `^v\d+\.\d+\.\d+$`, l.version, "the README installs a released version, not a query such as @latest")
	require.Contains(t, l.installs, "go install "+cliPackages+"@"+l.version, "the README installs the CLI (toolgate and toolgate-serve)")
	require.Contains(t, l.installs, "go install "+gatewayPkg+"@"+l.version, "the README installs the MCP gateway")
	require.Contains(t, l.gets, "go get "+libModule+"@"+l.version, "the README adds the library to a module")
	return l
}

// workspace is go.work as the go command reads it.
type workspace struct {
	Use []struct {
		DiskPath string
	}
	Replace []struct {
		Old struct{ Path, Version string }
		New struct{ Path, Version string }
	}
}

func readWorkspace(t *testing.T, file string) workspace {
	t.Helper()
	out, err := exec.Command("go", "work", "edit", "-json", file).Output()
	require.NoError(t, err, "go work edit -json %s", file)
	var w workspace
	require.NoError(t, json.Unmarshal(out, &w))
	return w
}

// requirements are a go.mod's requirements on toolgate's modules, and
// whether it replaces any.
func requirements(t *testing.T, gomod string) (req map[string]string, replaces []string) {
	t.Helper()
	out, err := exec.Command("go", "mod", "edit", "-json", gomod).Output()
	require.NoError(t, err, "go mod edit -json %s", gomod)
	var m struct {
		Require []struct{ Path, Version string }
		Replace []struct{ Old struct{ Path string } }
	}
	require.NoError(t, json.Unmarshal(out, &m))
	req = map[string]string{}
	for _, r := range m.Require {
		if r.Path == libModule || strings.HasPrefix(r.Path, libModule+"/") {
			req[r.Path] = r.Version
		}
	}
	for _, r := range m.Replace {
		replaces = append(replaces, r.Old.Path)
	}
	return req, replaces
}

func needGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("SKIPPED LOUDLY: no go command on PATH, so the README's go install and go get lines cannot be run; this test proves them nowhere else")
	}
}

// needModuleCache skips, loudly, where the module cache lacks a module
// the gateway's install needs (this test never fetches, and go test
// installs nothing): GOPROXY=off resolves the gateway's packages from the
// cache alone. With TOOLGATE_REQUIRE_INSTALL set (.ci/run sets it, after
// .ci/setup fetched them) that is a failure.
func needModuleCache(t *testing.T, root string) {
	t.Helper()
	cmd := exec.Command("go", "-C", filepath.Join(root, "contrib", "mcpgateway"), "list", "-deps", "./...")
	// In the workspace, whatever GOWORK the test runs under (CI runs
	// the library's tests with GOWORK=off): toolgate's modules are the
	// working tree there, and only the others come from the cache.
	cmd.Env = append(os.Environ(), "GOPROXY=off", "GOFLAGS=", "GOWORK="+filepath.Join(root, "go.work"))
	out, err := cmd.CombinedOutput()
	if err == nil {
		return
	}
	why := fmt.Sprintf("the module cache lacks modules the MCP gateway's install needs (go list with GOPROXY=off: %v: %s); .ci/setup fetches them (so does building the gateway once: go -C contrib/mcpgateway build ./...)", err, firstLine(out))
	if os.Getenv("TOOLGATE_REQUIRE_INSTALL") != "" {
		t.Fatal(why)
	}
	t.Skip("SKIPPED LOUDLY: " + why + "; the README's install lines are unproven here")
}

// firstLine is b's first line.
func firstLine(b []byte) string {
	line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return line
}

// TestVersionsAgree holds every place that names the release version to
// the README's: each module's requirement on the library and on the other
// contrib modules, go.work's replacements (which make that version the
// working tree in development), bench's go.work, and the CHANGELOG's
// latest release. No module with a command replaces a module: go install
// refuses such a module.
func TestVersionsAgree(t *testing.T) {
	needGo(t)
	root := repoRoot(t)
	v := readmeLines(t, root).version

	changelog, err := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	require.NoError(t, err)
	released := regexp.MustCompile(`(?m)^## \[(v\d+\.\d+\.\d+)\]`).FindSubmatch(changelog)
	require.NotNil(t, released, "CHANGELOG.md has a released version heading (## [vX.Y.Z] - date)")
	assert.Equal(t, v, string(released[1]), "the CHANGELOG's latest release is the README's version")

	for _, file := range []string{"go.work", filepath.Join("bench", "go.work")} {
		w := readWorkspace(t, filepath.Join(root, file))
		require.NotEmpty(t, w.Replace, "%s makes the required version the working tree", file)
		for _, r := range w.Replace {
			assert.Equal(t, v, r.Old.Version, "%s replaces %s at the release version", file, r.Old.Path)
		}
	}

	// Every install line in the code's documentation and the other
	// Markdown files names the release too (the CHANGELOG's name the
	// release they belong to).
	mention := regexp.MustCompile(`github\.com/toolgate/toolgate[\w./-]*@(v\d+\.\d+\.\d+\S*)`)
	var gomods []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		switch {
		case d.Name() == "go.mod":
			gomods = append(gomods, p)
		case d.Name() != "CHANGELOG.md" && (strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md")):
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			for _, m := range mention.FindAllSubmatch(data, -1) {
				assert.Equal(t, v, string(m[1]), "%s: %s names the release", p, m[0])
			}
		}
		return nil
	}))
	require.GreaterOrEqual(t, len(gomods), 8, "the library, bench, e2e/browser and the contrib modules: %v", gomods)
	for _, gomod := range gomods {
		rel, _ := filepath.Rel(root, gomod)
		req, replaces := requirements(t, gomod)
		for path, got := range req {
			if strings.HasPrefix(rel, "e2e"+string(filepath.Separator)) {
				continue // the browser suite is a test module, not a release: it may replace
			}
			assert.Equal(t, v, got, "%s requires %s at the release version", rel, path)
		}
		if hasCommand(t, filepath.Dir(gomod)) {
			assert.Empty(t, replaces, "%s has a command (package main) and so no replace directive: go install refuses such a module", rel)
		}
	}
}

// hasCommand reports whether the module in dir has a package main outside
// its tests (nested modules excluded).
func hasCommand(t *testing.T, dir string) bool {
	t.Helper()
	found := false
	require.NoError(t, filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && (d.Name() == "testdata" || d.Name() == ".git" || fileExists(filepath.Join(p, "go.mod"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if found || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		found = regexp.MustCompile(`(?m)^package main\s*$`).Match(data)
		return nil
	}))
	return found
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// TestREADMEInstallLines publishes the working tree's modules of go.work
// under the README's version into a module proxy on disk, and runs the
// README's lines against it as a user would, outside any module: go
// install of the CLI and of the MCP gateway, then go get of the library
// into a new module that builds a checker and runs it. The go commands
// read toolgate's modules from that proxy and every other module from the
// local module cache (GOPROXY=file://…/cache/download), never the
// network; their module cache, GOPATH and GOBIN are temporary directories.
func TestREADMEInstallLines(t *testing.T) {
	needGo(t)
	root := repoRoot(t)
	needModuleCache(t, root)
	lines := readmeLines(t, root)
	tmp := t.TempDir()
	proxy, bin, work := filepath.Join(tmp, "proxy"), filepath.Join(tmp, "bin"), filepath.Join(tmp, "work")
	require.NoError(t, os.MkdirAll(work, 0o755))

	published := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var modules []string
	for _, u := range readWorkspace(t, filepath.Join(root, "go.work")).Use {
		mod, err := modproxy.Add(proxy, filepath.Join(root, u.DiskPath), lines.version, published)
		require.NoError(t, err)
		modules = append(modules, mod)
	}
	require.Contains(t, modules, libModule)
	require.Contains(t, modules, gatewayModule)

	cacheOut, err := exec.Command("go", "env", "GOMODCACHE", "GOCACHE").Output()
	require.NoError(t, err)
	dirs := strings.Fields(string(cacheOut))
	require.Len(t, dirs, 2)
	localCache, buildCache := dirs[0], dirs[1]

	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GO") {
			env = append(env, kv)
		}
	}
	env = append(env,
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(localCache, "cache", "download")),
		"GOSUMDB=off",                            // toolgate's modules here are the working tree, not what a checksum database could know
		"GOFLAGS=-mod=mod -modcacherw -trimpath", // -modcacherw: the temporary module cache can be removed; -trimpath: the build cache serves another run
		"GOWORK=off",
		"GOENV=off",
		"GOTOOLCHAIN=local",
		"GOMODCACHE="+filepath.Join(tmp, "modcache"),
		"GOPATH="+filepath.Join(tmp, "gopath"),
		"GOBIN="+bin,
		"GOCACHE="+buildCache,
	)
	hint := "toolgate's modules come from the proxy this test wrote; every other module must already be in the module cache " +
		localCache + " (this test never fetches): .ci/setup fetches them (so does building the gateway once in the workspace: go -C contrib/mcpgateway build ./...)"
	run := func(dir, line string) {
		t.Helper()
		args := strings.Fields(line)
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s\n%s\n%s", line, out, hint)
	}
	tool := func(name string, args ...string) (stdout, stderr string, code int) {
		t.Helper()
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + bin, "HOME=" + tmp}
		var o, e bytes.Buffer
		cmd.Stdout, cmd.Stderr = &o, &e
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return o.String(), e.String(), exit.ExitCode()
		}
		require.NoError(t, err, "%s %v", name, args)
		return o.String(), e.String(), 0
	}

	cliLine := "go install " + cliPackages + "@" + lines.version
	gatewayLine := "go install " + gatewayPkg + "@" + lines.version
	run(work, cliLine)
	out, _, code := tool("toolgate", "version")
	require.Equal(t, 0, code)
	assert.Regexp(t, `^toolgate `+regexp.QuoteMeta(lines.version)+` \(go1\.\d+`, out, "toolgate version names the version installed")
	out, errOut, code := tool("toolgate", "serve", "-h")
	assert.Equal(t, 0, code, "toolgate serve -h runs the toolgate-serve the same line installed: %s", errOut)
	assert.Contains(t, out, "usage: toolgate serve --store", "toolgate-serve's own usage, through toolgate serve")

	// The gateway not yet installed, toolgate mcp says the README's line.
	_, errOut, code = tool("toolgate", "mcp", "--config", "none.json")
	assert.Equal(t, 127, code, "toolgate mcp without the gateway: %s", errOut)
	assert.Contains(t, errOut, "toolgate-mcp is not installed")
	assert.Contains(t, errOut, "\n  "+gatewayLine+"\n", "toolgate mcp names the README's install line, at its own version")

	run(work, gatewayLine)
	_, errOut, code = tool("toolgate", "mcp", "-h")
	assert.Equal(t, 0, code, "toolgate mcp -h runs the installed gateway's usage: %s", errOut)
	assert.Contains(t, errOut, "-config", "the gateway's own usage, through toolgate mcp")

	for _, l := range lines.installs {
		if l != cliLine && l != gatewayLine {
			run(work, l)
		}
	}

	// A new module takes the library with the README's go get line.
	app := filepath.Join(tmp, "app")
	require.NoError(t, os.MkdirAll(app, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(app, "go.mod"), []byte("module example.com/app\n\ngo 1.26.0\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(app, "main.go"), []byte(appMain), 0o644))
	for _, l := range lines.gets {
		run(app, l)
	}
	req, _ := requirements(t, filepath.Join(app, "go.mod"))
	assert.Equal(t, map[string]string{libModule: lines.version}, req, "go get wrote the requirement")
	run(app, "go build -o "+filepath.Join(bin, "app")+" .")
	out, _, code = tool("app")
	require.Equal(t, 0, code)
	assert.Equal(t, "deny L2 rules Bash(rm:*) denied by deny rule Bash(rm:*) (config)\n", out, "the library at %s judges, with its layer, rule and reason", lines.version)
	assert.Contains(t, out, "denied by deny rule Bash(rm:*)", "with its reason")

	entries, err := os.ReadDir(bin)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	assert.Equal(t, []string{"app", "toolgate", "toolgate-check", "toolgate-mcp", "toolgate-serve"}, names, "what the lines installed, in GOBIN")
}

// firstFields is the first n fields of s's first line, and a newline.
func firstFields(s string, n int) string {
	line, _, _ := strings.Cut(s, "\n")
	f := strings.Fields(line)
	return strings.Join(f[:min(n, len(f))], " ") + "\n"
}

// appMain is a program of a user's module: the README's rule checker.
const appMain = `package main

import (
	"fmt"

	"github.com/toolgate/toolgate/permission"
)

func main() {
	checker, err := permission.New(permission.Config{
		Deny:    []string{"Bash(rm:*)"},
		Default: permission.Ask,
		WorkDir: "/home/dev/project",
	})
	if err != nil {
		panic(err)
	}
	r := checker.Check(&permission.Request{
		Tool: "Bash", Kind: permission.KindExec, Command: []string{"/bin/rm", "-rf", "build"},
	}, nil)
	fmt.Println(r.Decision, r.Layer, r.Rule, r.Reason)
}
`
