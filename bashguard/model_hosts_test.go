package bashguard

import (
	"context"
	"encoding/json"
	"flag"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// hostRules is the HostJudge the host cases are written against: domain
// rules that allow good.example, github.com and the package registries, and
// deny evil.example; without rules ("norules") every host is allowed, as
// a host without domain rules answers.
type hostRules struct {
	PathJudge
	none bool
	// strict ("noregistries") leaves the default registries to no rule.
	strict bool
}

func (h hostRules) JudgeHost(host string) permission.Result {
	rule := func(d permission.Decision, r string) permission.Result {
		return permission.Result{Decision: d, Layer: permission.LayerRules, Rule: permission.RuleID(r), Reason: d.String() + " by rule " + r}
	}
	switch {
	case h.none:
		return permission.Result{Decision: permission.Allow}
	case host == "":
		return permission.Result{Decision: permission.Ask, Rule: "network:host", Reason: "domain rules are set and cannot be held against it"}
	case host == "evil.example":
		return rule(permission.Deny, "WebFetch(domain:evil.example)")
	case host == "good.example", host == "github.com", host == "pypi.org", host == "registry.npmjs.org", host == "golang.org",
		defaultRegistries[host] && !h.strict:
		return rule(permission.Allow, "WebFetch(domain:"+host+")")
	}
	return permission.Result{Decision: permission.Ask, Rule: "network:host", Reason: "no domain rule allows " + host}
}

// defaultRegistries are the default registries of the package managers
// the host cases run, which their domain rules allow.
var defaultRegistries = map[string]bool{"proxy.golang.org": true, "sum.golang.org": true, "files.pythonhosted.org": true,
	"registry.yarnpkg.com": true, "index.crates.io": true, "static.crates.io": true, "crates.io": true, "rubygems.org": true,
	"index.rubygems.org": true, "repo.packagist.org": true, "packagist.org": true, "repo.maven.apache.org": true,
	"plugins.gradle.org": true, "conda.anaconda.org": true, "repo.anaconda.com": true, "registry-1.docker.io": true,
	"auth.docker.io": true, "ghcr.io": true, "jsr.io": true, "api.github.com": true, "gitlab.com": true}

// hostRepo is a repository whose config names remotes on allowed, denied
// and other hosts.
func hostRepo(t *testing.T) string {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
	cfg := `[core]
	bare = false
[remote "origin"]
	url = https://github.com/o/r.git
	fetch = +refs/heads/*:refs/remotes/origin/*
[remote "evil"]
	url = git@evil.example:x/y.git
[remote "other"]
	url = ssh://git@other.example:2222/x.git
[branch "main"]
	remote = origin
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(cfg), 0o644))
	// A Go module whose go line may name a newer toolchain than the
	// installed one.
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module x\n\ngo 1.99\n"), 0o644))
	return dir
}

var updateHosts = flag.Bool("update-hosts", false, "rewrite testdata/hosts.jsonl with the guard's answers (review the diff)")

// TestHosts runs testdata/hosts.jsonl: the hosts of network commands
// judged against domain rules, with network access allowed by the policy
// (opts "net") or not, and with no domain rules ("norules").
func TestHosts(t *testing.T) {
	cases := loadCaseFile(t, "testdata/hosts.jsonl")
	require.GreaterOrEqual(t, len(cases), 40)
	dir := hostRepo(t)
	var out []byte
	for _, c := range cases {
		pol, _ := casePolicy(strings.NewReplacer("norules", "", "noregistries", "").Replace(c.Opts))
		hj := hostRules{PathJudge: CheckerJudge(rootChecker{dir: dir, roots: []string{dir, "/tmp/scratch"}}), none: strings.Contains(c.Opts, "norules"),
			strict: strings.Contains(c.Opts, "noregistries")}
		v := New(pol).Judge(context.Background(), dir, hj, c.Script)
		if *updateHosts {
			c.Decision, c.Rule, c.Reason = v.Decision.String(), string(v.Rule), strings.ReplaceAll(v.Reason, dir, "$WORK")
			b, err := json.Marshal(c)
			require.NoError(t, err)
			out = append(append(out, b...), '\n')
			continue
		}
		assert.Equal(t, c.Decision, v.Decision.String(), "decision for %q (%s)", c.Script, v.Reason)
		assert.Equal(t, c.Rule, string(v.Rule), "rule for %q (%s)", c.Script, v.Reason)
		assert.Contains(t, strings.ReplaceAll(v.Reason, dir, "$WORK"), c.Reason, "reason for %q", c.Script)
		assert.NotEmpty(t, c.Reason, "case %q must name a reason", c.Script)
	}
	if *updateHosts {
		require.NoError(t, os.WriteFile("testdata/hosts.jsonl", out, 0o644))
	}
}

// FuzzParseURLHost holds the URL reader to Go's: a host it reads from a
// URL with a scheme is the host net/url finds there, made of host bytes.
func FuzzParseURLHost(f *testing.F) {
	for _, s := range []string{"https://good.example/x", "http://a@evil.example#@good.example", "http://[::1]:80/",
		"https://good.example@evil.example/", "git+ssh://git@github.com/o/r", "http://0x7f000001/", "file:///etc/passwd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		host, local, ok := parseURLHost(s, false)
		if !ok || local {
			return
		}
		if !validHost(host, true) {
			t.Fatalf("%q: host %q holds a byte no host holds", s, host)
		}
		u, err := url.Parse(s)
		if err != nil {
			return
		}
		if !strings.EqualFold(u.Hostname(), host) {
			t.Fatalf("%q: read host %q, net/url finds %q", s, host, u.Hostname())
		}
	})
}

// TestHostsWorktreeConfig reads the remotes of a worktree from the config
// of the repository it belongs to (its .git file and commondir).
func TestHostsWorktreeConfig(t *testing.T) {
	base := t.TempDir()
	main, wt := filepath.Join(base, "main"), filepath.Join(base, "wt")
	admin := filepath.Join(main, ".git", "worktrees", "wt")
	require.NoError(t, os.MkdirAll(admin, 0o755))
	require.NoError(t, os.MkdirAll(wt, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(main, ".git", "config"), []byte("[remote \"origin\"]\n\turl = git@evil.example:x/y.git\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(admin, "commondir"), []byte("../..\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+admin+"\n"), 0o644))
	pol := DefaultPolicy()
	pol.AllowNetwork = true
	hj := hostRules{PathJudge: CheckerJudge(rootChecker{dir: wt, roots: []string{wt}})}
	for _, script := range []string{"git fetch", "git pull origin main", "git push", "git remote update"} {
		v := New(pol).Judge(context.Background(), wt, hj, script)
		assert.Equal(t, permission.Deny, v.Decision, "%q (%s)", script, v.Reason)
		assert.Equal(t, "WebFetch(domain:evil.example)", string(v.Rule), "%q", script)
		assert.Contains(t, v.Reason, "git: reaches evil.example", "%q", script)
	}
	v := New(pol).Judge(context.Background(), wt, hj, "git submodule update --init")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "submodules", v.Reason)
}

// askHosts is a HostJudge with domain rules that allow no host.
type askHosts struct{ PathJudge }

func (askHosts) JudgeHost(host string) permission.Result {
	return permission.Result{Decision: permission.Ask, Rule: "network:host", Reason: "no domain rule allows " + host}
}

// FuzzHostJudgeNarrows holds that a HostJudge only narrows: a script is
// never judged more leniently with one than without, nor is a command an
// allow rule may lift made liftable by it, and what it adds is explained.
func FuzzHostJudgeNarrows(f *testing.F) {
	for _, c := range loadCaseFile(f, "testdata/hosts.jsonl") {
		f.Add(c.Script)
	}
	pol, paths := casePolicy("net")
	g := New(pol)
	hj := askHosts{paths}
	f.Fuzz(func(t *testing.T, script string) {
		without := g.Judge(context.Background(), testWork, paths, script)
		with := g.Judge(context.Background(), testWork, hj, script)
		if with.Decision > without.Decision {
			t.Fatalf("%q: %v with a HostJudge, %v without", script, with.Decision, without.Decision)
		}
		if with.Reason == "" || with.Rule == "" {
			t.Fatalf("%q: verdict without explanation: %+v", script, with)
		}
		if len(with.Commands) != len(without.Commands) {
			return
		}
		for i := range with.Commands {
			w, o := with.Commands[i], without.Commands[i]
			if w.Decision > o.Decision || w.Overridable && !o.Overridable {
				t.Fatalf("%q: command %d is %v (overridable %v) with a HostJudge, %v (%v) without", script, i, w.Decision, w.Overridable, o.Decision, o.Overridable)
			}
		}
	})
}

// TestHostsManifest judges the hosts a project's package.json names when
// named packages are installed into it: the registry's own versions
// pass, a tarball URL or git dependency reaches its host, and a
// package.json that cannot be read leaves them known only at run time.
func TestHostsManifest(t *testing.T) {
	pol := DefaultPolicy()
	pol.AllowNetwork = true
	for _, c := range []struct {
		manifest, script, decision, reason string
	}{
		{`{"dependencies": {"left-pad": "^1.3.0", "a": "npm:b@2", "w": "workspace:*"}, "devDependencies": {"x": "latest"}}`,
			"npm install lodash", "ask", "npm: not on the safe list"},
		{`{"dependencies": {"x": "https://evil.example/x.tgz"}}`, "npm install lodash", "deny", "npm: reaches evil.example"},
		{`{"devDependencies": {"x": "git+ssh://git@other.example/o/r.git"}}`, "yarn add lodash", "ask", "yarn: reaches other.example"},
		{`{"overrides": {"a": {"b": "https://evil.example/b.tgz"}}}`, "pnpm add lodash", "deny", "pnpm: reaches evil.example"},
		{`{"dependencies": {"x": "o/r"}}`, "npm install lodash", "ask", "npm: not on the safe list"},
		{`{"dependencies": {"x": "file:../x"}}`, "bun add lodash", "ask", "bun: reaches the hosts the package file:../x names for its dependencies"},
		{`{"dependencies": ["x"]}`, "npm install lodash", "ask", "names for its dependencies (dependencies), which are not read here"},
		{`not json`, "npm install lodash", "ask", "names for its dependencies, which is not read here"},
		{`{"dependencies": {"x": "https://evil.example/x.tgz"}}`, "npm install -g lodash", "ask", "npm: not on the safe list"},
	} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "package.json"), []byte(c.manifest), 0o644))
		hj := hostRules{PathJudge: CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})}
		v := New(pol).Judge(context.Background(), dir, hj, c.script)
		assert.Equal(t, c.decision, v.Decision.String(), "%s with %s (%s)", c.script, c.manifest, v.Reason)
		assert.Contains(t, v.Reason, c.reason, "%s with %s", c.script, c.manifest)
	}
}

// TestHostsSubmodules: git fetch and pull fetch the submodules' remotes
// too (on demand, by default), which .gitmodules names.
func TestHostsSubmodules(t *testing.T) {
	dir := hostRepo(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".gitmodules"), []byte("[submodule \"x\"]\n\tpath = x\n\turl = https://evil.example/x.git\n"), 0o644))
	pol := DefaultPolicy()
	pol.AllowNetwork = true
	hj := hostRules{PathJudge: CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})}
	for script, want := range map[string]string{
		"git fetch origin":                             "ask",
		"git pull origin main":                         "ask",
		"git fetch --no-recurse-submodules origin":     "unlisted",
		"git pull --recurse-submodules=no origin main": "unlisted",
	} {
		v := New(pol).Judge(context.Background(), dir, hj, script)
		assert.Equal(t, permission.Ask, v.Decision, "%q (%s)", script, v.Reason)
		if want == "ask" {
			assert.Equal(t, RuleNetworkHost, v.Rule, "%q (%s)", script, v.Reason)
			assert.Contains(t, v.Reason, "the remotes of the submodules", script)
		} else {
			assert.Equal(t, RuleUnlisted, v.Rule, "%q (%s)", script, v.Reason)
			assert.Contains(t, v.Reason, "is not a read-only git subcommand", script)
		}
	}
}
