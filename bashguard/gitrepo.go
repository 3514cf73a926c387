package bashguard

import (
	"os"
	"path/filepath"

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
func (a *analyzer) gitRepo() string {
	if a.gitChecked {
		return a.gitWhy
	}
	a.gitChecked = true
	if a.dir == "" || !filepath.IsAbs(a.dir) {
		return ""
	}
	if fi, err := os.Stat(a.dir); err != nil || !fi.IsDir() {
		return ""
	}
	_, a.gitWhy = a.repoTop()
	return a.gitWhy
}

// repoTop is gitTop of the working directory, found once per Judge call.
func (a *analyzer) repoTop() (top, why string) {
	if !a.topDone {
		a.topDone = true
		a.top, a.topWhy = gitTop(a.dir)
	}
	return a.top, a.topWhy
}

// gitTop returns the directory holding the .git that git finds from the
// existing directory dir, with its links resolved ("" when there is
// none), or why git would use another repository.
func gitTop(dir string) (top, why string) {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", "cannot tell which repository git would use from " + dir + ": " + err.Error()
	}
	for range maxGitUp {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d, ""
		}
		if isBareGitDir(d) {
			return "", "git would use the bare repository " + d + ", whose config can run programs (it is not the workspace's own repository)"
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", ""
		}
		d = parent
	}
	return "", "git would look for its repository more than 64 directories up"
}

// gitDirOption judges git -C DIR (each -C taken relative to the one
// before, as git does): it is allowed only when git finds from DIR the
// same repository as from the working directory.
func (a *analyzer) gitDirOption(c *verdictAcc, dirs []string, literal bool) {
	const why = "git -C runs git in another directory, whose repository config can run programs"
	if !literal || a.dir == "" || !filepath.IsAbs(a.dir) {
		c.add(permission.Ask, RuleGitRepository, why, false)
		return
	}
	target := a.dir
	for _, d := range dirs {
		if filepath.IsAbs(d) {
			target = d
		} else {
			target = filepath.Join(target, d)
		}
	}
	defer a.readPath(c, target, 0, "git") // after the reason that explains more
	fi, err := os.Stat(target)
	if err != nil || !fi.IsDir() {
		c.add(permission.Ask, RuleGitRepository, why, false)
		return
	}
	topT, whyT := gitTop(target)
	topW, whyW := a.repoTop()
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
