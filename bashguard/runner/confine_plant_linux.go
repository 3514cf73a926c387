//go:build linux

package runner

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/internal/fanout"
)

// Code planted for the next run. The mount namespace binds every
// protected path of the roots read-only, but only the paths that exist:
// Landlock cannot refuse the creation of one name in a directory a
// command may write, so a command could create .mcp.json, .claude/ or
// .git/hooks/pre-commit where there was none, for a program that runs
// later outside the confinement (the agent, an editor, git, CI) to read.
//
// So the runner records, while it walks the roots, each directory it
// lists: its identity, its change time and its entries. Once the run is
// over (every process of it gone: the PID namespace ends with the
// command), it lists again each recorded directory whose change time
// moved, and judges every entry that was not there before, and every
// entry below a directory the run created, as the walk judges a
// protected path (confineWalk.protect: the checker's protected list, one
// table, and git's config and hooks). An entry the run created where no
// command may write is moved aside in its own directory, to
// NAME.toolgate-quarantine (a name nothing reads), never deleted: it may
// be a file of the user's that the command renamed there. Where it cannot
// be moved (every such name taken, or taken by a protected name itself),
// it is removed. The result says what was moved ([ConfineLevel.Planted])
// and the command's output ends with a line for each.

// confinePlantSuffix is what a planted entry's name gets when it is moved
// aside.
const confinePlantSuffix = ".toolgate-quarantine"

// confinePlantLines bounds the lines the output gets, one per planted
// entry (an npm install may bring hundreds of .github directories); the
// result lists them all.
const confinePlantLines = 20

// confinePlantRecent is how close to the start of the walk a
// directory's recorded change time may be before the directory is listed
// again whatever its change time says: a file system's clock is coarse
// (a tick of a few milliseconds), and a change made within the tick of the
// last one leaves the time as it was.
const confinePlantRecent = time.Second

// confinePlantSnap is what the walk recorded of the directories a
// command may create entries in.
type confinePlantSnap struct {
	started time.Time
	roots   []string
	dirs    map[string]*confinePlantDir // by absolute path
	// facts, for a snapshot of the kept tree, holds the tree whose nodes
	// the directories refer to; secretDirs are the identities of its
	// directories that are not walked.
	facts      *confineFacts
	secretDirs map[string]confineIdentity
}

// confinePlantDir is one recorded directory.
type confinePlantDir struct {
	at    confineWalkAt
	id    confineIdentity
	ctime unix.Timespec
	names []confinePlantName // sorted by name
	// node, when not nil, is the kept tree's node whose entries are the
	// names (the snapshot's facts' mu guards it).
	node *confineNode
	// packed, when not nil, holds the names as a walk recorded between
	// processes keeps them (a block of the tree, on the device of id),
	// read when needed.
	packed []byte
}

// confinePlantName is one entry of a recorded directory; id is set for a
// directory.
type confinePlantName struct {
	name string
	dir  bool
	id   confineIdentity
}

func newConfinePlantSnap(roots []string) *confinePlantSnap {
	return &confinePlantSnap{started: time.Now(), roots: roots, dirs: map[string]*confinePlantDir{}, secretDirs: map[string]confineIdentity{}}
}

// dir records directory path, whose listing is entries, for the walk
// per run. A directory bound read-only is not recorded: nothing can be
// created in it.
func (s *confinePlantSnap) dir(path string, at confineWalkAt, entries []fs.DirEntry) {
	if s == nil || at.readOnly {
		return
	}
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil {
		return
	}
	d := &confinePlantDir{at: at, id: confineIdentity{uint64(st.Dev), st.Ino}, ctime: st.Ctim}
	d.names = make([]confinePlantName, 0, len(entries))
	for _, e := range entries {
		n := confinePlantName{name: e.Name(), dir: e.IsDir()}
		if n.dir {
			n.id, _ = confineIdentityOf(e)
		}
		d.names = append(d.names, n)
	}
	s.dirs[path] = d
}

// plantSnap records the kept tree's directories as they are now (f.mu
// held): each directory's identity and change time, and a reference to
// its node, whose entries are read only if the directory changed during
// the run. Copying the names of every entry per run would cost as much as
// a walk; the tree changes only in prepare, which first fills in the
// names of the snapshots of the runs still going (plantsFill).
func (f *confineFacts) plantSnap(roots []string) *confinePlantSnap {
	s := newConfinePlantSnap(roots)
	s.facts = f
	var visit func(n *confineNode)
	visit = func(n *confineNode) {
		if n == nil || n.gone || n.unlisted || n.at.readOnly {
			return
		}
		var st unix.Stat_t
		if unix.Lstat(n.path, &st) != nil {
			return
		}
		s.dirs[n.path] = &confinePlantDir{at: n.at, id: confineIdentity{n.dev, n.ino}, ctime: st.Ctim, node: n}
		for _, e := range n.entries {
			if e.child != nil {
				visit(e.child)
			} else if e.dir && !e.symlink {
				// A secret directory: its identity now, since it may be
				// replaced by the run (it is not walked).
				var cst unix.Stat_t
				if unix.Lstat(n.path+"/"+e.name, &cst) == nil {
					s.secretDirs[n.path+"/"+e.name] = confineIdentity{uint64(cst.Dev), cst.Ino}
				}
			}
		}
	}
	for _, r := range f.tree.roots {
		visit(r)
	}
	f.plants = append(f.plants, s)
	return s
}

// plantsFill copies, into the snapshot of each run still going, the
// names of the entries of every directory it holds, before the tree
// changes (f.mu held).
func (f *confineFacts) plantsFill() {
	for _, s := range f.plants {
		for _, d := range s.dirs {
			d.fill(s)
		}
	}
	f.plants = nil
}

// fill replaces d's node by the names of its entries.
func (d *confinePlantDir) fill(s *confinePlantSnap) {
	if d.packed != nil {
		// Names that cannot be read count as none: every entry is then
		// judged as new, and a protected one moved aside.
		d.names, _ = confineTreePlantNames(d.packed, d.id.Dev)
		d.packed = nil
	}
	n := d.node
	if n == nil {
		return
	}
	d.node = nil
	d.names = make([]confinePlantName, 0, len(n.entries))
	for _, e := range n.entries {
		pn := confinePlantName{name: e.name, dir: e.dir && !e.symlink}
		switch {
		case e.child != nil:
			pn.id = confineIdentity{e.child.dev, e.child.ino}
		case pn.dir:
			pn.id = s.secretDirs[n.path+"/"+e.name]
		}
		d.names = append(d.names, pn)
	}
}

// confinePlantCheck judges, after a run, what the run created in the
// recorded directories, and moves aside what it planted.
type confinePlantCheck struct {
	snap    *confinePlantSnap
	w       confineWalk // the checker and Protect, for protect
	budget  int
	planted []ConfinePlant
}

// errConfinePlantBudget stops a check that met too many new entries.
var errConfinePlantBudget = errors.New("too many new entries")

// revert checks the directories of s after a run and moves aside every
// entry the run planted. It returns what it moved, in path order.
func (s *confinePlantSnap) revert(checker bashguard.PathChecker, protect []string, limit int) []ConfinePlant {
	if s == nil {
		return nil
	}
	if f := s.facts; f != nil {
		// The tree does not change while its nodes are read.
		f.mu.Lock()
		defer f.mu.Unlock()
		f.plants = slices.DeleteFunc(f.plants, func(p *confinePlantSnap) bool { return p == s })
	}
	k := &confinePlantCheck{snap: s, w: confineWalk{checker: checker, names: map[string]bool{}}, budget: limit}
	if k.budget <= 0 {
		k.budget = ConfineMaxWalk
	}
	for _, name := range protect {
		k.w.names[name] = true
	}
	paths := make([]string, 0, len(s.dirs))
	for p := range s.dirs {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	rootFDs := map[string]int{}
	defer func() {
		for _, fd := range rootFDs {
			unix.Close(fd)
		}
	}()
	changed := s.changedDirs(paths)
	for _, path := range paths {
		if !changed[path] {
			continue
		}
		root := s.rootOf(path)
		if root == "" {
			continue
		}
		rfd, ok := rootFDs[root]
		if !ok {
			var err error
			rfd, err = unix.Open(root, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				rfd = -1
			}
			rootFDs[root] = rfd
		}
		if rfd < 0 {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(path, root), "/")
		if rel == "" {
			rel = "."
		}
		fd, err := confinePlantOpenBeneath(rfd, rel)
		if err != nil {
			continue // gone or replaced: the directory above sees it
		}
		k.dir(fd, path, s.dirs[path], s.started)
		unix.Close(fd)
	}
	slices.SortFunc(k.planted, func(a, b ConfinePlant) int { return strings.Compare(a.Path, b.Path) })
	return k.planted
}

// changedDirs reports which of the snapshot's directories paths changed
// since it was taken: one stat each (fanout.All), where the check
// opens the changed ones.
func (s *confinePlantSnap) changedDirs(paths []string) map[string]bool {
	changed := make([]bool, len(paths))
	fanout.All(len(paths), func(i int) bool {
		changed[i] = !s.dirs[paths[i]].unchanged(paths[i], s.started)
		return true
	})
	out := map[string]bool{}
	for i, c := range changed {
		if c {
			out[paths[i]] = true
		}
	}
	return out
}

// release forgets s, for a run that did not start.
func (s *confinePlantSnap) release() {
	if s == nil || s.facts == nil {
		return
	}
	s.facts.mu.Lock()
	defer s.facts.mu.Unlock()
	s.facts.plants = slices.DeleteFunc(s.facts.plants, func(p *confinePlantSnap) bool { return p == s })
}

// rootOf is the root path lies in (the longest, for nested roots).
func (s *confinePlantSnap) rootOf(path string) string {
	best := ""
	for _, r := range s.roots {
		if (path == r || strings.HasPrefix(path, r+"/") || r == "/") && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// unchanged reports whether the directory at path is d, with the change
// time recorded, not changed within the clock's tick of started: its
// entries are then those recorded, by whatever path it is reached.
func (d *confinePlantDir) unchanged(path string, started time.Time) bool {
	var st unix.Stat_t
	if unix.Lstat(path, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || (confineIdentity{uint64(st.Dev), st.Ino}) != d.id {
		return false
	}
	return st.Ctim == d.ctime && !time.Unix(d.ctime.Unix()).After(started.Add(-confinePlantRecent))
}

// dir lists the recorded directory d, open as fd, when it changed, and
// judges each entry that is new to it.
func (k *confinePlantCheck) dir(fd int, path string, d *confinePlantDir, started time.Time) {
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || (confineIdentity{uint64(st.Dev), st.Ino}) != d.id {
		return // replaced: the directory above sees the new one
	}
	recent := time.Unix(d.ctime.Unix()).After(started.Add(-confinePlantRecent))
	if st.Ctim == d.ctime && !recent {
		return
	}
	names, err := confinePlantList(fd)
	if err != nil {
		return
	}
	d.fill(k.snap)
	for _, e := range names {
		name := e.Name()
		i, found := slices.BinarySearchFunc(d.names, name, func(n confinePlantName, name string) int { return strings.Compare(n.name, name) })
		if found && e.Type()&fs.ModeDir == 0 && e.Type() != fs.ModeIrregular {
			continue // there before (a file's name is what counts)
		}
		if found && d.names[i].dir {
			var cst unix.Stat_t
			if unix.Fstatat(fd, name, &cst, unix.AT_SYMLINK_NOFOLLOW) != nil {
				continue
			}
			if d.names[i].id == (confineIdentity{uint64(cst.Dev), cst.Ino}) {
				continue // the same directory: recorded on its own
			}
		}
		k.entry(fd, path, name, d.at, true)
	}
}

// entry judges the new entry name of the directory open as fd (at path),
// and below it when it is a directory that may be written: a protected
// entry is moved aside. top marks an entry of a recorded directory; one
// below it that the budget does not reach moves the top entry aside
// whole.
func (k *confinePlantCheck) entry(fd int, dir, name string, at confineWalkAt, top bool) error {
	path := dir + "/" + name
	if dir == "/" {
		path = "/" + name
	}
	if k.budget--; k.budget < 0 {
		if top {
			k.quarantine(fd, path, name, at, "the command created more entries below it than the runner checks")
			return nil
		}
		return errConfinePlantBudget
	}
	var st unix.Stat_t
	if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil {
		return nil // gone
	}
	isDir := st.Mode&unix.S_IFMT == unix.S_IFDIR
	if why, sub, ok := k.protected(path, name, isDir, at); ok {
		if at.inGit && confineGitNewBenign(fd, name) {
			return nil // what git init or clone wrote: kept, bound from the next run on
		}
		k.quarantine(fd, path, name, at, why)
		return nil
	} else if !isDir {
		return nil
	} else {
		at = sub
	}
	cfd, err := confinePlantOpenDir(fd, name)
	if errors.Is(err, unix.ENOENT) || errors.Is(err, unix.ENOTDIR) {
		return nil // gone, or replaced by a file
	}
	var names []fs.DirEntry
	if err == nil {
		defer unix.Close(cfd)
		names, err = confinePlantList(cfd)
	}
	if err != nil {
		// A directory of the run's that cannot be searched may hold
		// anything: moved aside whole.
		k.quarantine(fd, path, name, at, "the runner cannot list it ("+err.Error()+")")
		return nil
	}
	for _, n := range names {
		if err := k.entry(cfd, path, n.Name(), at, false); err != nil {
			if top {
				k.quarantine(fd, path, name, at, "the command created more entries below it than the runner checks")
				return nil
			}
			return err
		}
	}
	return nil
}

// confineProtectedNames is a checker that can tell a protected path
// from a secret one by its name ([sandbox.Sandbox.Protected]): a write of
// either is refused, but only a protected path is run or read as
// configuration later, and a secret the command creates (cp .env.example
// .env, a key it generates) is its to keep.
type confineProtectedNames interface {
	Protected(path string) (pattern string, ok bool)
}

// protected says why path, an entry the run created, was planted, and
// where the walk is below it: the walk would bind it read-only
// (confineWalk.protect: in a git directory by confineGitReadOnly, else
// when the checker refuses to let a command write it or Protect names
// it), and the checker, where it can tell, names it protected rather than
// secret or of a kind no file tool opens. A checker that cannot tell has
// every entry it refuses to let a command write moved aside.
func (k *confinePlantCheck) protected(path, name string, dir bool, at confineWalkAt) (why string, sub confineWalkAt, ok bool) {
	k.w.binds = k.w.binds[:0]
	sub = k.w.protect(path, name, dir, at)
	if len(k.w.binds) == 0 {
		return "", sub, false
	}
	switch {
	case at.inGit:
		return "git runs or reads it", sub, true
	case k.w.names[name]:
		return "Confinement.Protect names it", sub, true
	}
	if pc, can := k.w.checker.(confineProtectedNames); can {
		pat, ok := pc.Protected(path)
		if !ok {
			// A secret, not bound for this run: what is below it is
			// judged as the rest.
			return "", confineWalkAt{inGit: sub.inGit}, false
		}
		return "protected path, matches " + strconv.Quote(pat), sub, true
	}
	if _, reason := runCheckWrite(k.w.checker, path); reason != "" {
		return reason, sub, true
	}
	return "the checker refuses to let a command write it", sub, true
}

// quarantine moves the entry name of the directory open as fd aside, or
// removes it where it cannot be moved, and records it.
func (k *confinePlantCheck) quarantine(fd int, path, name string, at confineWalkAt, why string) {
	p := ConfinePlant{Path: path, Reason: why}
	for i := 1; i <= 9; i++ {
		to := name + confinePlantSuffix
		if i > 1 {
			to += "-" + strconv.Itoa(i)
		}
		dir := strings.TrimSuffix(path, "/"+name)
		if _, _, refused := k.protected(dir+"/"+to, to, false, at); refused {
			break
		}
		err := unix.Renameat2(fd, name, fd, to, unix.RENAME_NOREPLACE)
		if err == nil {
			p.MovedTo = dir + "/" + to
			k.planted = append(k.planted, p)
			return
		}
		if errors.Is(err, unix.ENOENT) {
			return // gone already (another check, or its creator)
		}
		if !errors.Is(err, unix.EEXIST) {
			break
		}
	}
	r, err := os.OpenRoot("/proc/self/fd/" + strconv.Itoa(fd))
	if err == nil {
		err = r.RemoveAll(name)
		r.Close()
	}
	if err != nil {
		p.Error = err.Error()
	}
	k.planted = append(k.planted, p)
}

// confinePlantOpenDir opens the directory name of the directory open as
// fd, for listing, without following a link or blocking. A directory the
// command took its owner's rights from (chmod 000, so that nobody looks
// inside) gets them back first: the runner runs as that owner, and a
// directory it cannot list is one it cannot check.
func confinePlantOpenDir(fd int, name string) (int, error) {
	const flags = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NONBLOCK | unix.O_NOFOLLOW | unix.O_CLOEXEC
	cfd, err := unix.Openat(fd, name, flags, 0)
	if !errors.Is(err, unix.EACCES) {
		return cfd, err
	}
	var st unix.Stat_t
	if unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR || int(st.Uid) != os.Geteuid() {
		return -1, err
	}
	if cerr := unix.Fchmodat(fd, name, st.Mode&0o7777|0o700, 0); cerr != nil {
		return -1, err
	}
	return unix.Openat(fd, name, flags, 0)
}

// confinePlantOpenBeneath opens the directory rel of the root open as
// rfd, for listing, with no link followed on the way, as
// confinePlantOpenDir does.
func confinePlantOpenBeneath(rfd int, rel string) (int, error) {
	how := &unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	parent, base := ".", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		parent, base = rel[:i], rel[i+1:]
	}
	if rel == "." {
		// The root itself: its own directory, through the O_PATH one.
		return confinePlantOpenDir(rfd, ".")
	}
	pfd, err := unix.Openat2(rfd, parent, how)
	if err != nil {
		return -1, err
	}
	defer unix.Close(pfd)
	return confinePlantOpenDir(pfd, base)
}

// confinePlantList lists the directory open as fd, sorted by name; fd
// stays open.
func confinePlantList(fd int) ([]fs.DirEntry, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dup), "dir")
	defer f.Close()
	entries, err := f.ReadDir(-1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// confinePlantRevert is the check after a run of plan: what the run
// planted is moved aside, recorded in res.Confined.Planted and told in
// the command's output (its standard error, when streamed).
func confinePlantRevert(c runConfig, plan *confinePlan, res *Result) {
	planted := plan.plants.revert(c.checker, c.confine.Protect, c.confine.MaxWalk)
	if len(planted) == 0 {
		return
	}
	res.Confined.Planted = planted
	var b strings.Builder
	for i, p := range planted {
		if i == confinePlantLines {
			fmt.Fprintf(&b, "toolgate: and %d more entries the command created where no command may write, each moved aside to NAME%s\n", len(planted)-i, confinePlantSuffix)
			break
		}
		b.WriteString(p.String())
		b.WriteByte('\n')
	}
	runTell(c, res, b.String())
}

// runTell ends the command's output with lines of the runner's: its
// standard error when streamed, else Output, on lines of their own.
func runTell(c runConfig, res *Result, lines string) {
	if s := c.stream; s != nil {
		if s.Stderr != nil {
			_, _ = io.WriteString(s.Stderr, lines)
		}
		return
	}
	if res.Output != "" && !strings.HasSuffix(res.Output, "\n") {
		res.Output += "\n"
	}
	res.Output += lines
}
