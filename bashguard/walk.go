package bashguard

import (
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/toolgate/toolgate/permission"
)

// A recursive read (grep -r, rg, diff -r, find -L) reaches every file
// below its roots, not only the roots the command names: a secret file in
// the tree, or a link out of the roots that the command follows, is read
// as surely as an operand. The roots go through the path judge as
// operands do; then a bounded walk of each root sends what the command
// would read there to the judge too, and asks when the judge would not
// allow it, or when the tree is too big to walk.

const (
	// maxWalkEntries bounds the entries a Judge call looks at in the trees
	// of recursive reads.
	maxWalkEntries = 2000
)

// walkOpts says what a recursive read reaches.
type walkOpts struct {
	recursive bool // the command reads its roots' trees
	content   bool // it reads the files' content, not only their names
	hidden    bool // it reads names that start with "."
	follow    bool // it follows links found in the trees
	// names are grep's --include, --exclude and --exclude-dir, in order:
	// the files and directories found in the trees it skips by name.
	names []nameFilter
	// ignore, when set, is the .dockerignore of a build context: the
	// paths it names are not sent to the builder.
	ignore dockerIgnore
	// index, when set, is what git reads: only the entries it tracks
	// (git grep), below the work tree whose top is indexTop.
	index    *gitIndex
	indexTop string
}

// walkRoot walks the tree below the root p that a recursive read reaches.
func (m *cmdCall) walkRoot(c *verdictAcc, p string, fl wordFlags, who string, w walkOpts) {
	if fl&wDynamic != 0 || m.paths == nil {
		return // asked already, or nothing to judge with
	}
	if fl&wGlob != 0 {
		// The roots are the files bash finds for the word (when it cannot
		// tell them, the word was asked already).
		if matches, err := m.ws.glob(m.dir, p); err == nil {
			for _, match := range matches {
				m.walkRoot(c, match, 0, who, w)
			}
		}
		return
	}
	dir := p
	if !strings.HasPrefix(p, "/") {
		if m.dir == "" {
			c.addf(permission.Ask, RulePathWalk, "searches the tree below ", p, ": no working directory is configured, so it cannot be walked", false)
			return
		}
		dir = strings.TrimSuffix(m.dir, "/")
		if p != "." && p != "./" {
			dir += "/" + p
		}
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return // a file, or nothing: the root's own judgement holds
	}
	m.walkTree(c, p, dir, w)
}

// walkTree walks the directory dir, the root p names, breadth first,
// within the bound of the call's walk.
func (m *cmdCall) walkTree(c *verdictAcc, p, dir string, w walkOpts) {
	t := treeWalk{m: m, c: c, p: p, dir: dir, w: w}
	if w.index != nil {
		t.scope = newIndexScope(w.index, w.indexTop, dir)
	}
	queue := []string{dir}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		entries, err := readDirAtMost(d, maxWalkEntries-m.walked+1)
		if err != nil {
			c.addf(permission.Ask, RulePathWalk, "searches the tree below ", p, ", part of which cannot be listed: "+err.Error(), false)
			return
		}
		for _, e := range entries {
			if m.walked++; m.walked > maxWalkEntries {
				c.addf(permission.Ask, RulePathWalk, "searches the tree below ", p, ", which holds more than "+
					strconv.Itoa(maxWalkEntries)+" entries, too many to check for secret files and links out of the allowed roots", false)
				return
			}
			full := d + "/" + e.Name()
			descend, stop := t.entry(e, full)
			if stop {
				return
			}
			if descend {
				queue = append(queue, full)
			}
		}
	}
}

// treeWalk is one walk of walkTree.
type treeWalk struct {
	m      *cmdCall
	c      *verdictAcc
	p, dir string // the root as the command names it, and the directory it is
	w      walkOpts
	scope  *indexScope // what git reads of the tree, or nil
}

// entry judges the entry e of the tree, at full: whether the walk goes
// into it, and whether the walk stops (its Ask is recorded).
func (t *treeWalk) entry(e fs.DirEntry, full string) (descend, stop bool) {
	name, w := e.Name(), &t.w
	if name[0] == '.' && !w.hidden {
		return false, false
	}
	typ := e.Type()
	link := typ&fs.ModeSymlink != 0
	if t.scope != nil {
		// git opens a tracked path through whatever links its
		// work tree holds today: they are followed and judged.
		if !t.scope.keeps(strings.TrimPrefix(full, t.dir+"/"), typ.IsDir() || link && isDir(full)) {
			return false, false
		}
	} else if link && !w.follow {
		return false, false // not followed: it reads nothing
	}
	if skipsByName(w.names, name, typ.IsDir() || link && isDir(full)) || w.ignore.skips(strings.TrimPrefix(full, t.dir+"/")) {
		return false, false
	}
	if link || w.content {
		access := Read
		if !w.content {
			access = Probe
		}
		if r := t.m.judgePath(full, access); r.Decision != permission.Allow && (w.content || r.Layer != permission.LayerRules) {
			// (A command that lists names only is not held by a
			// rule about a file's content.)
			t.c.addc(permission.Ask, r.Layer, RulePathWalk, r.Cause, "searches the tree below ", t.p,
				", which holds "+strings.TrimPrefix(full, t.dir+"/")+sep(r.Reason), false)
			return false, true
		}
	}
	return typ.IsDir() || link && isDir(full), false
}

// readDirAtMost lists at most n entries of the directory d (in the order
// the file system gives them), so that a huge directory costs no more
// than the bound.
func readDirAtMost(d string, n int) ([]fs.DirEntry, error) {
	// A directory alone: a FIFO put in its place after its lstat would
	// block an open.
	f, err := os.OpenFile(d, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []fs.DirEntry
	for len(out) < n {
		batch, err := f.ReadDir(min(256, n-len(out)))
		out = append(out, batch...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
