package bashguard

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// The hosts git's network subcommands reach. Their options are read by
// the one scanner with git's own specs (specs_git.go): git's options
// before the subcommand, and clone's, fetch's, pull's, push's and
// ls-remote's; git remote add and set-url and git submodule add, which
// the guard judges as changes without reading their options, have specs
// here, for their hosts alone. An option a spec does not classify is a
// host only known at run time, naming it.

// gitNet is one git command line that may reach a remote.
type gitNet struct {
	a   *cmdCall
	c   *verdictAcc
	v   *argv
	at  int    // the index of the subcommand
	sub string // the subcommand
	// other is the global option that makes git work on another
	// repository ("-C dir"), whose remotes are not read here, or "".
	other string
}

// gitHosts judges the remote of git clone, fetch, pull, push and
// ls-remote: a URL or user@host:path is judged as written; a remote name,
// or none, by the URLs the repository's config gives it. git remote,
// config and submodule name the remotes later commands reach.
func (m *cmdCall) gitHosts(c *verdictAcc, v *argv) {
	g := gitNet{a: m, c: c, v: v}
	moved := ""
	g.at = scanSpec(gitSpec(), v, 1, true, func(e *scanned) {
		switch {
		case moved != "":
		case e.problem != "":
			// The rest is judged still: a host it names may be denied.
			m.unknownHost(c, "the remote git connects to with "+writtenName(e)+", which is not read here")
		case e.opt.name == "-c":
			// url.<base>.insteadOf rewrites the remote.
			moved = "the remote git connects to, which configuration on the command line (-c) can rewrite"
		case (e.opt.kind == kDir || e.opt.kind == kRepo) && !m.sameDir(v, e):
			g.other = strings.TrimSpace(e.spell + " " + e.val)
		}
	})
	if moved != "" {
		m.unknownHost(c, moved)
		return
	}
	if g.at >= v.len() || !v.literal(g.at) {
		return
	}
	g.sub = v.vals[g.at]
	if read := gitNetReaders()[g.sub]; read != nil {
		read(&g)
	}
}

// sameDir reports a global option of git's, e, that names the working
// directory itself (git -C . fetch): git works on the same repository.
func (m *cmdCall) sameDir(v *argv, e *scanned) bool {
	if e.opt.name != "-C" || !v.literal(e.at) || m.dir == "" || !filepath.IsAbs(m.dir) {
		return false
	}
	return filepath.Join(m.dir, e.val) == filepath.Clean(m.dir)
}

// gitNetReaders read the hosts of each of git's subcommands that reach
// or name a remote.
var gitNetReaders = sync.OnceValue(func() map[string]func(g *gitNet) {
	return map[string]func(g *gitNet){
		"clone": (*gitNet).fetchHosts, "fetch": (*gitNet).fetchHosts, "pull": (*gitNet).fetchHosts,
		"push": (*gitNet).fetchHosts, "ls-remote": (*gitNet).fetchHosts,
		"remote": (*gitNet).remoteHosts, "config": (*gitNet).configHosts, "submodule": (*gitNet).submoduleHosts,
	}
})

// unknownOperand judges an operand only known at run time.
func (g *gitNet) unknownOperand(i int) {
	g.a.unknownHost(g.c, "a host only known at run time ("+g.v.vals[i]+")")
}

// gitRemoteRow is what a git remote subcommand reaches, a row of
// gitRemoteSubs: every remote (allRemotes), or the URL its second operand
// gives the remote its first names, read by the spec url.
type gitRemoteRow struct {
	allRemotes bool
	url        *spec
}

// remoteHosts judges git remote update (every remote, or the groups
// named) and the URL git remote add and set-url give a remote, which
// later fetches reach (and git remote add -f now).
func (g *gitNet) remoteHosts() {
	j := scanSpec(gitSpec().subs["remote"], g.v, g.at+1, true, func(*scanned) {})
	if j >= g.v.len() {
		return
	}
	row, ok := gitRemoteSubs()[g.v.vals[j]]
	switch {
	case !ok:
		return
	case row.allRemotes:
		g.configRemotes(nil)
		return
	}
	ops, unread := scanOperands(row.url, g.v, j+1)
	if unread != "" {
		g.a.unknownHost(g.c, "the remote git remote "+g.v.vals[j]+" names with "+unread+", which is not read here")
	}
	for n, i := range ops {
		switch {
		case n == 0: // the remote's name
		case !g.v.literal(i):
			g.unknownOperand(i)
		default:
			g.remoteWord(g.v.vals[i], true)
		}
	}
}

// configHosts judges git config: a remote's URL or a URL rewrite that
// later commands reach.
func (g *gitNet) configHosts() {
	for j := g.at + 1; j < g.v.len(); j++ {
		if w := g.v.vals[j]; !g.v.literal(j) {
			g.unknownOperand(j)
		} else if h, isURL, ok := gitURLHost(w); isURL && ok {
			g.a.judgeHost(g.c, h)
		}
	}
}

// submoduleHosts judges git submodule: the repository git submodule add
// [options] REPOSITORY [PATH] clones, and the submodules' remotes.
func (g *gitNet) submoduleHosts() {
	j := scanSpec(gitSpec().subs["submodule"], g.v, g.at+1, true, func(*scanned) {})
	if j < g.v.len() && g.v.vals[j] == "add" {
		ops, unread := scanOperands(gitSubmoduleAddSpec(), g.v, j+1)
		if unread != "" {
			g.a.unknownHost(g.c, "the repository git submodule add clones with "+unread+", which is not read here")
		}
		switch {
		case len(ops) == 0:
		case !g.v.literal(ops[0]):
			g.unknownOperand(ops[0])
		default:
			g.remoteWord(g.v.vals[ops[0]], true)
		}
	}
	g.a.unknownHost(g.c, "the remotes of the submodules, which .gitmodules names and are not read here")
}

// scanOperands reads v from the word at from by the spec s: the
// operands, and the first option s cannot resolve, as written, or "".
func scanOperands(s *spec, v *argv, from int) (ops []int, unread string) {
	scanSpec(s, v, from, false, func(e *scanned) {
		switch {
		case e.opt == &dashDashOpt:
		case e.problem != "":
			unread = orText(unread, writtenName(e))
		case e.opt == nil:
			ops = append(ops, e.at)
		}
	})
	return ops, unread
}

// gitFetchLine is what the options of git clone, fetch, pull, push or
// ls-remote say of the remote it reaches.
type gitFetchLine struct {
	ops     []int
	named   []scanned // options whose value is a remote: push --repo, --bundle-uri
	repoOpt bool      // push --repo names the repository
	recurse bool      // the submodules are fetched too
	all     bool      // every remote (fetch --all, --multiple; pull --all)
	rewrite bool      // clone -c: configuration of the new repository, which can rewrite its URL
	unread  string    // an option the spec cannot resolve
}

// gitFetchRow is how one of git's fetching subcommands reads its remote,
// a row of gitFetchSubs.
type gitFetchRow struct {
	// newRepo: it makes a repository (clone): its operand is a URL or a
	// path, never a remote's name, and there is no default remote; its
	// --recurse-submodules reaches the remotes .gitmodules names.
	newRepo bool
	// onDemand: submodules are fetched on demand unless told otherwise.
	onDemand bool
	// opts are what its options say of the remote it reaches, by the
	// name of each option (its first spelling, or --no-X for a negated
	// one); an option that is not here says nothing of it.
	opts map[string]remoteOpt
}

// remoteOpt is what an option of one of git's fetching subcommands says
// of the remote it reaches: a value of gitFetchRow.opts.
type remoteOpt uint8

const (
	roNone      remoteOpt = iota // it says nothing of the remote
	roRecurse                    // the submodules' remotes are reached too, unless its value is "no" (--recurse-submodules[=VALUE])
	roNoRecurse                  // no submodule's remote is reached (--no-recurse-submodules)
	roRepo                       // its value names the repository reached, as an operand would (push --repo)
	roRemote                     // its value is a remote reached besides the repository (clone --bundle-uri)
	roConfig                     // it configures the new repository, which can rewrite the URL (clone -c)
	roAll                        // every remote is reached (fetch --all, --multiple)
)

// option reads one option of the subcommand of row.
func (l *gitFetchLine) option(row gitFetchRow, e *scanned) {
	switch row.opts[e.opt.name] {
	case roRecurse:
		l.recurse = e.val != "no"
	case roNoRecurse:
		l.recurse = false
	case roRepo:
		l.repoOpt = true
		l.named = append(l.named, *e)
	case roRemote:
		l.named = append(l.named, *e)
	case roConfig:
		l.rewrite = true
	case roAll:
		l.all = true
	}
}

// fetchHosts judges git clone, fetch, pull, push and ls-remote.
func (g *gitNet) fetchHosts() {
	row := gitFetchSubs()[g.sub]
	l := gitFetchLine{recurse: row.onDemand}
	scanSpec(gitSpec().subs[g.sub], g.v, g.at+1, false, func(e *scanned) {
		switch {
		case e.opt == &dashDashOpt:
		case e.problem != "":
			l.unread = orText(l.unread, writtenName(e))
		case e.opt == nil:
			l.ops = append(l.ops, e.at)
		default:
			l.option(row, e)
		}
	})
	if l.rewrite {
		g.a.unknownHost(g.c, "the remote git clone connects to, which its -c configuration can rewrite")
		return
	}
	if l.unread != "" {
		// The rest is judged still: a host it names may be denied.
		g.a.unknownHost(g.c, "the remote git "+g.sub+" connects to with "+l.unread+", which is not read here")
	}
	if l.recurse && (row.newRepo || g.a.hasGitmodules()) {
		g.a.unknownHost(g.c, "the remotes of the submodules, which .gitmodules names and are not read here")
	}
	for i := range l.named {
		g.a.valueHost(g.c, g.v, &l.named[i], func(w string) { g.remoteWord(w, row.newRepo) })
	}
	switch {
	case l.all:
		g.configRemotes(nil)
	case len(l.ops) > 0 && !g.v.literal(l.ops[0]):
		g.unknownOperand(l.ops[0])
	case len(l.ops) > 0:
		g.remoteWord(g.v.vals[l.ops[0]], row.newRepo)
	case l.repoOpt || row.newRepo:
	default:
		g.configRemotes([]string{""})
	}
}

// remoteWord judges a repository as git reads it on the command line:
// a URL, [user@]host:path, a remote of the config, or a local path;
// notRemote where it is never a remote's name (git clone's operand).
func (g *gitNet) remoteWord(w string, notRemote bool) {
	if h, isURL, ok := gitURLHost(w); isURL {
		if ok {
			g.a.judgeHost(g.c, h)
		} else if h != "local" {
			g.a.unknownHost(g.c, "the host of "+w+", which is not read here")
		}
		return
	}
	if !notRemote {
		g.configRemotes([]string{w})
	}
}

// configRemotes judges the named remotes (see gitConfigRemotes) of the
// repository git works on.
func (g *gitNet) configRemotes(names []string) {
	if g.other != "" {
		g.a.unknownHost(g.c, "the remote of git "+g.sub+", whose URL is in the config of the repository "+g.other+" names, which is not read here")
		return
	}
	g.a.gitConfigRemotes(g.c, names, g.sub)
}

// hasGitmodules reports whether the repository of the working directory
// has submodules (a .gitmodules file at its top), which git fetch and
// pull fetch from their own remotes.
func (m *cmdCall) hasGitmodules() bool {
	if m.dir == "" || !filepath.IsAbs(m.dir) {
		return false
	}
	top, why := m.repoTop()
	if why != "" || top == "" {
		return false
	}
	_, err := os.Lstat(filepath.Join(top, ".gitmodules"))
	return err == nil
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
func (m *cmdCall) gitConfigRemotes(c *verdictAcc, names []string, sub string) {
	cfg, why := m.gitConfig()
	if why != "" {
		m.unknownHost(c, "the remote of git "+sub+", whose URL "+why)
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
				m.judgeHost(c, h) // branch.<name>.remote may be a URL
			} else if isURL && h != "local" {
				m.unknownHost(c, "the host of "+n+", which is not read here")
			} else if !isURL && names != nil && names[0] != "" && !strings.ContainsAny(n, "/.~") {
				// A remote the config does not name yet: an earlier
				// command of the script (git remote add) may add it.
				m.unknownHost(c, "the remote "+n+", which the repository's config does not name")
			}
			continue // a local path, or no such remote: git fails
		}
		for _, u := range urls {
			if h, isURL, ok := gitURLHost(u); isURL && ok {
				m.judgeHost(c, h)
			} else if isURL && h != "local" || !isURL && !strings.HasPrefix(u, "/") && !strings.HasPrefix(u, ".") {
				m.unknownHost(c, "the host of the remote "+n+" ("+u+"), which is not read here")
			}
		}
	}
}

// gitConfig reads the remotes from the config of the repository git finds
// from the working directory (once per Judge call), or says why it cannot.
func (m *cmdCall) gitConfig() (*gitRemoteConfig, string) {
	if m.gitCfgDone {
		return m.gitCfg, m.gitCfgWhy
	}
	m.gitCfgDone = true
	m.gitCfg, m.gitCfgWhy = nil, "is in a repository that is not known here"
	if m.dir == "" || !filepath.IsAbs(m.dir) {
		return m.gitCfg, m.gitCfgWhy
	}
	top, why := m.repoTop()
	if why != "" {
		return m.gitCfg, m.gitCfgWhy
	}
	rc := m.ws.remotes(top)
	m.gitCfg, m.gitCfgWhy = rc.cfg, rc.why
	return m.gitCfg, m.gitCfgWhy
}
