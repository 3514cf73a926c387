package bashguard

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// gitNetValLong are the long options of git's network subcommands that
// take a value, and gitNetValShort the short ones (git clone -h, git
// fetch -h, git pull -h, git push -h, git ls-remote -h). Options whose
// value is optional ("--recurse-submodules[=...]") take it only after
// "=", so they are not here.
var (
	gitNetValLong = map[string][]string{
		"clone": {"--jobs", "--template", "--reference", "--reference-if-able", "--origin", "--branch", "--upload-pack",
			"--depth", "--shallow-since", "--shallow-exclude", "--separate-git-dir", "--config", "--server-option", "--filter",
			"--bundle-uri", "--revision", "--ref-format"},
		"fetch": {"--upload-pack", "--jobs", "--depth", "--shallow-since", "--shallow-exclude", "--deepen", "--refmap",
			"--server-option", "--negotiation-tip", "--filter"},
		"pull": {"--cleanup", "--strategy", "--strategy-option", "--upload-pack", "--depth", "--shallow-since",
			"--shallow-exclude", "--deepen", "--refmap", "--server-option", "--negotiation-tip", "--filter"},
		"push":      {"--repo", "--receive-pack", "--exec", "--push-option"},
		"ls-remote": {"--upload-pack", "--sort", "--server-option"},
	}
	gitNetValShort = map[string]string{"clone": "jobuc", "fetch": "jo", "pull": "sXo", "push": "o", "ls-remote": "o"}
)

// gitHosts judges the remote of git clone, fetch, pull, push and
// ls-remote: a URL or user@host:path is judged as written; a remote name,
// or none, by the URLs the repository's config gives it.
func (a *analyzer) gitHosts(c *verdictAcc, v *argv) {
	i := 1
	for ; i < v.len() && strings.HasPrefix(v.vals[i], "-"); i++ {
		s := v.vals[i]
		switch {
		case s == "-c" || strings.HasPrefix(s, "-c") || longIs(strings.SplitN(s, "=", 2)[0], "--config-env"):
			// url.<base>.insteadOf rewrites the remote.
			a.unknownHost(c, "the remote git connects to, which configuration on the command line (-c) can rewrite")
			return
		case s == "-C" || longIs(s, "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--exec-path") && !strings.Contains(s, "="):
			i++
		}
	}
	if i >= v.len() {
		return
	}
	sub := v.vals[i]
	switch {
	case sub == "remote" && i+1 < v.len() && v.vals[i+1] == "update":
		a.gitConfigRemotes(c, nil, "remote update") // every remote, or the groups named
		return
	case sub == "remote" && i+2 < v.len() && (v.vals[i+1] == "add" || v.vals[i+1] == "set-url"):
		// The URL later fetches reach (and git remote add -f now).
		ops := optScan(v, i+2, "tm", []string{"--track", "--master"}, false, func(string, string, int) {})
		for n, j := range ops {
			switch {
			case n == 0:
			case !v.literal(j):
				a.unknownHost(c, "a host only known at run time ("+v.vals[j]+")")
			default:
				a.gitRemoteWord(c, v.vals[j], "clone")
			}
		}
		return
	case sub == "config":
		// A remote's URL or a URL rewrite that later commands reach.
		for j := i + 1; j < v.len(); j++ {
			if w := v.vals[j]; !v.literal(j) {
				a.unknownHost(c, "a host only known at run time ("+w+")")
			} else if h, isURL, ok := gitURLHost(w); isURL && ok {
				a.judgeHost(c, h)
			}
		}
		return
	case sub == "submodule":
		if i+2 < v.len() && v.vals[i+1] == "add" {
			// git submodule add [options] REPOSITORY [PATH]
			ops := optScan(v, i+2, "b", []string{"--branch", "--name", "--reference", "--depth"}, false, func(string, string, int) {})
			if len(ops) > 0 {
				if !v.literal(ops[0]) {
					a.unknownHost(c, "a host only known at run time ("+v.vals[ops[0]]+")")
				} else {
					a.gitRemoteWord(c, v.vals[ops[0]], "clone")
				}
			}
		}
		a.unknownHost(c, "the remotes of the submodules, which .gitmodules names and are not read here")
		return
	}
	valLong, ok := gitNetValLong[sub]
	if !ok {
		return
	}
	var bundles []string
	repo, all := -1, false
	recurse := sub == "fetch" || sub == "pull" // on-demand by default
	ops := optScan(v, i+1, gitNetValShort[sub], valLong, true, func(name, val string, at int) {
		switch {
		case optIs(name, true, "--recurse-submodules", "--recursive"):
			recurse = val != "no"
		case optIs(name, true, "--no-recurse-submodules"):
			recurse = false
		case sub == "push" && optIs(name, true, "--repo"):
			if at > 0 {
				repo = at
			} else {
				bundles = append(bundles, val) // judged as a remote below
			}
		case sub == "clone" && (name == "-c" || optIs(name, true, "--config")):
			all = true // a url.<base>.insteadOf for the new repository
		case optIs(name, true, "--bundle-uri"):
			bundles = append(bundles, val)
		case sub == "fetch" && (optIs(name, true, "--all") || optIs(name, true, "--multiple")):
			all = true
		}
	})
	if sub == "clone" && all {
		a.unknownHost(c, "the remote git clone connects to, which its -c configuration can rewrite")
		return
	}
	if recurse && (sub == "clone" || a.hasGitmodules()) {
		a.unknownHost(c, "the remotes of the submodules, which .gitmodules names and are not read here")
	}
	for _, b := range bundles {
		a.gitRemoteWord(c, b, sub)
	}
	if repo < 0 && len(ops) > 0 {
		repo = ops[0]
	}
	switch {
	case sub == "fetch" && all:
		a.gitConfigRemotes(c, nil, sub)
	case repo < 0 && sub == "clone":
	case repo < 0:
		a.gitConfigRemotes(c, []string{""}, sub)
	case !v.literal(repo):
		a.unknownHost(c, "a host only known at run time ("+v.vals[repo]+")")
	default:
		a.gitRemoteWord(c, v.vals[repo], sub)
	}
}

// hasGitmodules reports whether the repository of the working directory
// has submodules (a .gitmodules file at its top), which git fetch and
// pull fetch from their own remotes.
func (a *analyzer) hasGitmodules() bool {
	if a.dir == "" || !filepath.IsAbs(a.dir) {
		return false
	}
	top, why := a.repoTop()
	if why != "" || top == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(top, ".gitmodules"))
	return err == nil
}

// gitRemoteWord judges a repository as git reads it on the command line:
// a URL, [user@]host:path, a remote of the config, or a local path.
func (a *analyzer) gitRemoteWord(c *verdictAcc, w, sub string) {
	if h, isURL, ok := gitURLHost(w); isURL {
		if ok {
			a.judgeHost(c, h)
		} else if h != "local" {
			a.unknownHost(c, "the host of "+w+", which is not read here")
		}
		return
	}
	if sub == "clone" {
		return // a local path
	}
	a.gitConfigRemotes(c, []string{w}, sub)
}

// gitURLHost reads a repository word that is a URL or [user@]host:path.
// isURL is false for a remote name or a local path; h is "local" for a
// URL that reaches no host (file://).
func gitURLHost(w string) (h string, isURL, ok bool) {
	if strings.Contains(w, "://") {
		host, local, ok := parseURLHost(w, false)
		if local {
			return "local", true, false
		}
		return host, true, ok
	}
	if strings.Contains(w, "::") {
		return "", true, false // <transport>::<address> runs a remote helper
	}
	if host, ok := scpHost(w); ok {
		return host, true, true
	}
	return "", false, false
}

// gitConfigRemotes judges the URLs of the named remotes ("" for the
// default one; nil for every remote) from the repository's config. What
// the config leaves open (a rewrite of URLs, an include, a default that
// cannot be told) is a host only known at run time.
func (a *analyzer) gitConfigRemotes(c *verdictAcc, names []string, sub string) {
	cfg, why := a.gitConfig()
	if why != "" {
		a.unknownHost(c, "the remote of git "+sub+", whose URL "+why)
		return
	}
	var want []string
	switch {
	case names == nil:
		for n := range cfg.urls {
			want = append(want, n)
		}
	case names[0] == "":
		// The default remote: the branch's, remote.pushDefault, or origin.
		want = append(append(want, cfg.defaults...), "origin")
	default:
		want = names
	}
	for _, n := range want {
		urls, ok := cfg.urls[n]
		if !ok {
			if h, isURL, ok := gitURLHost(n); isURL && ok {
				a.judgeHost(c, h) // branch.<name>.remote may be a URL
			} else if isURL && h != "local" {
				a.unknownHost(c, "the host of "+n+", which is not read here")
			} else if !isURL && names != nil && names[0] != "" && !strings.ContainsAny(n, "/.~") {
				// A remote the config does not name yet: an earlier
				// command of the script (git remote add) may add it.
				a.unknownHost(c, "the remote "+n+", which the repository's config does not name")
			}
			continue // a local path, or no such remote: git fails
		}
		for _, u := range urls {
			if h, isURL, ok := gitURLHost(u); isURL && ok {
				a.judgeHost(c, h)
			} else if isURL && h != "local" || !isURL && !strings.HasPrefix(u, "/") && !strings.HasPrefix(u, ".") {
				a.unknownHost(c, "the host of the remote "+n+" ("+u+"), which is not read here")
			}
		}
	}
}

// gitRemoteConfig is what the repository's config says of its remotes.
type gitRemoteConfig struct {
	urls     map[string][]string // url and pushurl of each remote
	defaults []string            // branch.*.remote, branch.*.pushRemote, remote.pushDefault
}

// maxGitConfig bounds the config read.
const maxGitConfig = 64 << 10

// gitConfig reads the remotes from the config of the repository git finds
// from the working directory (once per Judge call), or says why it cannot.
func (a *analyzer) gitConfig() (*gitRemoteConfig, string) {
	if a.gitCfgDone {
		return a.gitCfg, a.gitCfgWhy
	}
	a.gitCfgDone = true
	a.gitCfg, a.gitCfgWhy = nil, "is in a repository that is not known here"
	if a.dir == "" || !filepath.IsAbs(a.dir) {
		return a.gitCfg, a.gitCfgWhy
	}
	top, why := a.repoTop()
	if why != "" {
		return a.gitCfg, a.gitCfgWhy
	}
	rc := a.g.ws.remotes(top)
	a.gitCfg, a.gitCfgWhy = rc.cfg, rc.why
	return a.gitCfg, a.gitCfgWhy
}

// remoteFact is what the config of a repository says of its remotes, or
// why it cannot be read.
type remoteFact struct {
	cfg *gitRemoteConfig
	why string
}

// remotes reads the remotes of the repository whose top is top ("" for
// none), kept on the cache. The result is shared: it is not changed.
func (c *wsCache) remotes(top string) remoteFact {
	return c.get("remotes\x00"+top, func(r *stampRec) any {
		text, why := gitConfigText(top, r)
		if why != "" {
			return remoteFact{why: why}
		}
		cfg, why := parseGitRemotes(text)
		return remoteFact{cfg, why}
	}).(remoteFact)
}

// gitConfigText reads the config of the repository whose top is top, or
// says why it cannot.
func gitConfigText(top string, r *stampRec) (string, string) {
	gitDir, why := gitCommonDirRec(top, r)
	if why != "" {
		return "", why
	}
	text, err := r.readSmall(filepath.Join(gitDir, "config"), maxGitConfig)
	if err != nil {
		return "", "is in the repository's config, which cannot be read: " + err.Error()
	}
	return text, ""
}

// gitCommonDirRec finds the directory that holds the config of the
// repository whose top (as gitTop gives it) is top, stamping every file
// it reads.
func gitCommonDirRec(top string, r *stampRec) (string, string) {
	if top == "" {
		return "", "is in a repository that is not known here"
	}
	gitDir := filepath.Join(top, ".git")
	if r.regular(gitDir) {
		// A worktree or submodule: "gitdir: <path>", whose commondir
		// holds the shared config.
		b, err := r.readSmall(gitDir, 4096)
		if err != nil || !strings.HasPrefix(b, "gitdir: ") {
			return "", "is in a repository whose .git file is not read here"
		}
		gitDir = strings.TrimSpace(strings.TrimPrefix(b, "gitdir: "))
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(top, gitDir)
		}
		if cd, err := r.readSmall(filepath.Join(gitDir, "commondir"), 4096); err == nil {
			cd = strings.TrimSpace(cd)
			if !filepath.IsAbs(cd) {
				cd = filepath.Join(gitDir, cd)
			}
			gitDir = cd
		}
	}
	return gitDir, ""
}

func readSmall(p string, limit int64) (string, error) {
	f, err := os.Open(p)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", err
	}
	if int64(len(b)) > limit {
		return "", errTooLarge
	}
	return string(b), nil
}

type tooLarge struct{}

func (tooLarge) Error() string { return "it is too large" }

var errTooLarge error = tooLarge{}

// parseGitRemotes reads the remote URLs of a git config. Anything that
// could change them and is not read here (includes, URL rewrites, quoted
// or continued values) makes the whole answer unknown.
func parseGitRemotes(text string) (*gitRemoteConfig, string) {
	cfg := &gitRemoteConfig{urls: map[string][]string{}}
	section, sub := "", ""
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, maxGitConfig+1)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				return nil, "is in a config that is not read here"
			}
			head := strings.TrimSpace(line[1:end])
			section, sub = head, ""
			if i := strings.IndexAny(head, " \t"); i >= 0 {
				section, sub = head[:i], strings.TrimSpace(head[i:])
				if len(sub) < 2 || sub[0] != '"' || sub[len(sub)-1] != '"' || strings.ContainsAny(sub[1:len(sub)-1], "\\\"") {
					return nil, "is in a config that is not read here"
				}
				sub = sub[1 : len(sub)-1]
			} else if i := strings.IndexByte(head, '.'); i >= 0 {
				section, sub = head[:i], strings.ToLower(head[i+1:])
			}
			section = strings.ToLower(section)
			switch section {
			case "include", "includeif", "url":
				return nil, "may be rewritten by its config (" + head + "), which is not read here"
			}
			if rest := strings.TrimSpace(line[end+1:]); rest != "" && rest[0] != '#' && rest[0] != ';' {
				return nil, "is in a config that is not read here"
			}
			continue
		}
		key, val, _ := strings.Cut(line, "=")
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		if i := strings.IndexAny(val, "#;"); i >= 0 {
			val = strings.TrimSpace(val[:i])
		}
		if strings.ContainsAny(val, "\"\\") {
			return nil, "is in a config that is not read here"
		}
		switch {
		case section == "remote" && sub != "" && (key == "url" || key == "pushurl"):
			cfg.urls[sub] = append(cfg.urls[sub], val)
		case section == "remote" && sub == "" && key == "pushdefault",
			section == "branch" && (key == "remote" || key == "pushremote"):
			cfg.defaults = append(cfg.defaults, val)
		}
	}
	if sc.Err() != nil {
		return nil, "is in a config that is not read here"
	}
	return cfg, ""
}
