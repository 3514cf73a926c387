package bashguard

import (
	"os"
	"path/filepath"
	"syscall"

	"github.com/toolgate/toolgate/permission"
)

// git works on the repository it discovers from the working directory:
// the first directory, going up, that holds .git, or that is itself a git
// directory (a bare repository: HEAD, objects/ and refs/). A .git entry is
// made by git itself and can never be committed, so a repository found
// through one is the workspace's own (or its user's); a bare repository
// can be committed as plain files, and its config (core.fsmonitor,
// diff.external, core.pager) then runs what the repository's author
// chose. gitRepo refuses that case.

// maxGitUp bounds the directories gitRepo looks at.
const maxGitUp = 64

// gitRepo explains why git run in the policy's working directory would
// use a repository that is not the workspace's own, or returns "". It
// looks once per Judge call.
func (m *cmdCall) gitRepo() string {
	if m.gitChecked {
		return m.gitWhy
	}
	m.gitChecked = true
	if m.dir == "" || !filepath.IsAbs(m.dir) {
		return ""
	}
	if !m.repoFact().isDir {
		return ""
	}
	_, m.gitWhy = m.repoTop()
	return m.gitWhy
}

// repoTop is gitTop of the working directory, found once per Judge call
// for each working directory, and once per Guard while the directories
// it was read from do not change (see wscache.go).
func (m *cmdCall) repoTop() (top, why string) {
	f := m.repoFact()
	return f.top, f.why
}

// topFact is what git finds from one directory.
type topFact struct {
	top, why string
	isDir    bool   // the directory exists (links followed) and is a directory
	real     string // the directory with its links resolved (filepath.EvalSymlinks), "" when it cannot be
}

// repoFact is the topFact of the working directory.
func (m *cmdCall) repoFact() topFact {
	if !m.topDone || m.topFor != m.dir {
		m.topDone, m.topFor = true, m.dir
		m.topFact = m.ws.top(m.dir)
	}
	return m.topFact
}

// top is the topFact of dir, kept on the cache.
func (c *wsCache) top(dir string) topFact {
	return c.get(factKey{kind: "top", a: dir}, func(r *stampRec) any {
		var f topFact
		// A path of plain directories is resolved by the lstat of each
		// component, whose stamps then serve as the levels' (below) and
		// as the identity of those above the top: no call is made twice.
		d, walk := "", map[string]fileStamp(nil)
		if r != nil {
			d, walk = plainDirs(dir)
		}
		if d != "" {
			f.isDir = true
		} else {
			// What resolves dir's links: the entry of each of its
			// components.
			for p := filepath.Clean(dir); p != "/" && p != "." && p != ""; p = filepath.Dir(p) {
				r.add(p, false, true)
			}
			fi, err := os.Stat(dir)
			f.isDir = err == nil && fi.IsDir()
		}
		f.top, f.why, f.real = gitTopRec(dir, d, walk, r)
		if r != nil {
			for p, s := range walk { // the components above the top
				r.stamps = append(r.stamps, fileStamp{path: p, ident: true, ok: s.ok, dev: s.dev, ino: s.ino, mode: s.mode})
			}
			r.dedupe()
		}
		return f
	}).(topFact)
}

// plainDirs returns the absolute dir, cleaned, with the stamp of each of
// its components when every one is a directory (then it is its own
// resolution, as filepath.EvalSymlinks would give it), or "".
func plainDirs(dir string) (string, map[string]fileStamp) {
	if !filepath.IsAbs(dir) {
		return "", nil
	}
	c := filepath.Clean(dir)
	walk := map[string]fileStamp{}
	for i := 1; i <= len(c); i++ {
		if i < len(c) && c[i] != '/' || c == "/" {
			continue
		}
		s := stamp(c[:i], false, false)
		if !s.ok || s.mode&syscall.S_IFMT != syscall.S_IFDIR {
			return "", nil
		}
		walk[c[:i]] = s
	}
	return c, walk
}

// gitTopRec returns the directory holding the .git that git finds from
// the existing directory dir, with its links resolved ("" when there is
// none), or why git would use another repository. It stamps each
// directory it looks in. resolved is dir resolved already, with the
// stamps of its components in walk (each one used as a level is taken
// out), or "". real is dir with its links resolved, which the stamps
// cover as they do top ("" when it cannot be resolved).
func gitTopRec(dir, resolved string, walk map[string]fileStamp, r *stampRec) (top, why, real string) {
	d := resolved
	if d == "" {
		var err error
		d, err = filepath.EvalSymlinks(dir)
		if err != nil {
			return "", "cannot tell which repository git would use from " + dir + ": " + err.Error(), ""
		}
	}
	real = d
	for range maxGitUp {
		if s, ok := walk[d]; ok {
			delete(walk, d)
			r.levelStamp(d, s)
		} else {
			r.level(d)
		}
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, "", real
		}
		if isBareGitDir(d) {
			return "", "git would use the bare repository " + d + ", whose config can run programs (it is not the workspace's own repository)", real
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", "", real
		}
		d = parent
	}
	return "", "git would look for its repository more than 64 directories up", real
}

// gitDirOption judges git -C DIR (each -C taken relative to the one
// before, as git does): it is allowed only when git finds from DIR the
// same repository as from the working directory.
func (m *cmdCall) gitDirOption(c *verdictAcc, dirs []string, literal bool) {
	const why = "git -C runs git in another directory, whose repository config can run programs"
	if !literal || m.dir == "" || !filepath.IsAbs(m.dir) {
		c.add(permission.Ask, RuleGitRepository, why, false)
		return
	}
	target := m.dir
	for _, d := range dirs {
		if filepath.IsAbs(d) {
			target = d
		} else {
			target = filepath.Join(target, d)
		}
	}
	defer m.readPath(c, target, 0, "git") // after the reason that explains more
	ft := m.ws.top(target)
	if !ft.isDir {
		c.add(permission.Ask, RuleGitRepository, why, false)
		return
	}
	topT, whyT := ft.top, ft.why
	topW, whyW := m.repoTop()
	switch {
	case whyT != "":
		c.add(permission.Ask, RuleGitRepository, whyT, false)
	case whyW != "" || topT == "" || topT != topW:
		c.add(permission.Ask, RuleGitRepository, why+" (git -C "+target+" finds another repository than the workspace's)", false)
	}
}

// isBareGitDir reports a directory that git takes for a git directory:
// HEAD, objects/ and refs/.
func isBareGitDir(d string) bool {
	if fi, err := os.Stat(filepath.Join(d, "HEAD")); err != nil || fi.IsDir() {
		return false
	}
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(d, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}
