package sandbox

import (
	"bufio"
	"bytes"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolgate/toolgate/internal/fanout"
	"github.com/toolgate/toolgate/internal/gitfiles"
)

// Protection by identity.
//
// The protected and secret patterns judge the names on a path. A file is
// reached under other names too: ".claude -> conf" makes conf/settings.json
// the agent's settings, a ".git" file's "gitdir:" line or core.hooksPath
// names a directory whose files run as hooks, and in a dotfiles repository
// ~/.bashrc is a link to the repository's "bashrc". So the sandbox also
// resolves the protected and secret locations themselves — every pattern
// of literal names under each root, the working directory and the home
// directory, the git directory a ".git" file names (and its common
// directory), and the core.hooksPath directories of the roots' and the
// user's git configuration — and judges a path that resolves into one of
// them as that location, whatever name reached it. The home directory's
// locations are the user's own configuration (the "~/" entries and the
// dotfile names of the lists); a symbolic link found inside one of the
// protected or secret directories (~/.claude/settings.json, in a dotfiles
// repository laid out for GNU Stow, is a link to the repository's
// claude/settings.json) makes its target that location too, and the
// target's identity is recorded: whichever end of a link lies in the
// roots, the file is judged as what it is. Hard links are caught
// by device and inode: a regular file with more than one link is compared
// with the protected and secret files (and the files of the secret
// directories) found here.
//
// When: the locations are found when the Sandbox is built, and found
// again whenever a directory inside the roots that names one of them has
// changed since. Outside the roots the agent can change nothing (every
// path there is denied to it), so what was found there when the Sandbox
// was built stands; inside, links can be planted at any time. Each call
// stats the watched directories (a handful: the roots, and the few
// directories beneath them that hold protected names or lead to a
// protected location) and the git configuration files read inside the
// roots, and compares their device, inode and change time with what was
// recorded; creating, renaming or removing a
// link or directory there changes the change time of the directory that
// holds it, and the change time cannot be set back by its owner. A change
// time within racyWindow of the search is not trusted (a file system's
// clock may not tick between the search and a change that follows it), so
// the search is then repeated on the next call, as git treats a "racily
// clean" index. The cost per call is therefore a fixed number of stat
// calls while nothing changes, and one bounded search after a change: the
// number of locations is fixed by the lists, and each resolves in time
// linear in its length.

// racyWindow is how recent a change time may be before it is not trusted:
// twice the longest tick of the coarse clock Linux file systems stamp
// times with (10ms at HZ=100). A change after the search is stamped with
// that clock too, so once it has ticked past the recorded time, a change
// shows as a different time.
const racyWindow = 20 * time.Millisecond

// Bounds of the search.
const (
	maxGitFile     = 4096    // bytes read of a ".git" file or "commondir"
	maxGitConfig   = 1 << 20 // bytes read of a git config file
	maxSecretFiles = 4096    // files recorded beneath the secret directories
	maxSecretDepth = 3       // levels searched beneath a secret directory
)

// anchor is one protected or secret location.
type anchor struct {
	loc    string // where it is named: a root or home joined with the pattern
	real   string // where it resolves
	secret bool   // from the secret list; else protected
	pat    string // the pattern, or what named the location
}

// fileID is a file's identity.
type fileID struct{ dev, ino uint64 }

// watch is one file or directory whose change would change the anchors.
type watch struct {
	path   string
	exists bool
	dev    uint64
	ino    uint64
	ctime  int64
	size   int64
}

// identities is one search's result. It is never modified once published.
type identities struct {
	// moved are the anchors that resolve elsewhere than where they are
	// named (through a link): the names already judge the others.
	moved []anchor
	// files maps the identity of each existing protected or secret file,
	// and of the files beneath secret directories, to its anchor.
	files map[fileID]anchor
	// complete is false when the files beneath the secret directories
	// were too many to record.
	complete bool
	watches  []watch
	racy     bool
	// start is when the search began (Unix nanoseconds).
	start int64
	// reads is everything the search read, inside the roots or not:
	// each directory it listed or looked a name up in, each file it
	// read or took the identity of. A search made again while every one
	// is as recorded finds what this one found, so after Forget (and
	// when a later process loads the search from its file) the search
	// is revalidated by one stat of each instead of made again.
	reads []watch
	// forgotten: the host ran a command since (Forget); the search holds
	// only once reads are revalidated.
	forgotten bool
	// cover is what the sandbox's watcher watches for this search (see
	// watched.go), shared by its copies; nil: none.
	cover *idsCover // listed are the directories the walk of the roots listed whole, for
	// the next search (walkListing); nil for a search loaded from a facts
	// file until they are read from theirs (loadListings).
	listed map[string]*walkListing
	// search names the search this is the result of, shared by its
	// copies (Forget, revalidated): equal marks find the same locations.
	search *searchMark
}

// searchMark names one search (identities.search). It has a size, so
// that two searches never share the address of theirs.
type searchMark struct{ _ byte }

// staleFor reports whether the final file st may be a hard link made
// since the search: a regular file with more than one name whose change
// time (which making or renaming any of its names sets) is not older than
// the search. Its other names may be secret or protected files made since
// in a directory nobody watches (a deep .env.local, then a link to it in
// node_modules), so the file is judged after a fresh search: one bounded
// search per link made, not per call, since the next search is newer than
// the file. The judge has the file's stat already; this costs nothing
// more while nothing changes.
func (ids *identities) staleFor(st fileStat) bool {
	return st.isRegular() && st.nlink > 1 && (st.ctime == 0 || st.ctime >= ids.start-racyFor(st.ctime))
}

// search finds the protected and secret locations afresh, for this
// sandbox and every later judgement of the one it is a view of: the
// recorded search after a Forget when nothing it read has changed, else a
// new one, which is also kept in the sandbox's facts file when it has one.
func (s *Sandbox) search(vs *viewSync) *identities {
	if s.base != nil {
		return s.base.search(vs)
	}
	if ids := s.revalidated(vs); ids != nil {
		return ids
	}
	ids := s.findIdentities()
	s.ids.Store(ids)
	s.saveFacts(ids)
	return ids
}

// revalidated returns the recorded search, no longer forgotten, when it
// was forgotten and nothing it read has changed since; else nil. vs is
// the view's sync of the watcher, nil for the sandbox's own use.
func (s *Sandbox) revalidated(vs *viewSync) *identities {
	ids := s.ids.Load()
	if ids == nil || !ids.forgotten || ids.racy || !s.watch.holds(vs, ids, true) {
		return nil
	}
	c := *ids
	c.forgotten = false
	s.ids.CompareAndSwap(ids, &c)
	return &c
}

// Forget drops the protected and secret locations found so far: the
// file system beneath the roots may have changed beyond the directories
// the sandbox watches (a command ran, which can make a link anywhere:
// svc/conf/.env.production -> ../deploy/x makes deploy/x a secret), so
// the next path judged is judged after a fresh search. A host calls it
// after a command ran; it costs one bounded search at the next
// judgement. Forget of a view forgets for the sandbox it is a view of;
// Forget of nil does nothing.
func (s *Sandbox) Forget() {
	if s == nil {
		return
	}
	if s.base != nil {
		s = s.base
	}
	if ids := s.ids.Load(); ids != nil && !ids.forgotten {
		c := *ids
		c.forgotten = true
		s.ids.CompareAndSwap(ids, &c)
	}
}

// newerThan returns identities from a search not older than the final
// file st: the last search of the sandbox (or of the one s is a view of)
// when it is, else a fresh one.
func (s *Sandbox) newerThan(st fileStat) *identities {
	root := s
	if s.base != nil {
		root = s.base
	}
	if ids := root.ids.Load(); ids != nil && !ids.forgotten && !ids.staleFor(st) {
		return ids
	}
	if ids := root.revalidated(s.viewSync()); ids != nil && !ids.staleFor(st) {
		return ids
	}
	ids := root.findIdentities()
	root.ids.Store(ids)
	root.saveFacts(ids)
	return ids
}

// current returns identities that describe the file system now: the
// recorded ones if nothing they depend on has changed, else a new search.
func (s *Sandbox) current() *identities {
	if s.base != nil {
		s.pinOnce.Do(func() { s.pinned = s.base.currentFor(&s.vsync) })
		return s.pinned
	}
	return s.currentFor(nil)
}

// currentFor is current for the sandbox itself, asked by the view whose
// sync of the watcher is vs (nil: by the sandbox itself).
func (s *Sandbox) currentFor(vs *viewSync) *identities {
	ids := s.ids.Load()
	if ids != nil && !ids.forgotten && !ids.racy && s.watch.holds(vs, ids, false) {
		return ids
	}
	return s.search(vs)
}

// valid reports whether every watched file is as recorded.
func (ids *identities) valid() bool {
	return same(ids.watches)
}

// unchanged reports whether everything the search read is as recorded.
func (ids *identities) unchanged() bool {
	return same(ids.watches) && same(ids.reads)
}

// same reports whether every file of ws is as recorded.
// The stats are shared by a few goroutines (fanout.All): a search of a
// large project watches hundreds of directories.
func same(ws []watch) bool {
	return fanout.All(len(ws), func(i int) bool {
		w := &ws[i]
		st, ok, err := statPath(w.path, true)
		if err != nil || ok != w.exists {
			return false
		}
		return !ok || st.dev == w.dev && st.ino == w.ino && st.ctime == w.ctime && st.size == w.size
	})
}

// idSearch is the state of one search.
type idSearch struct {
	s       *Sandbox
	start   int64
	ids     *identities
	seen    map[string]bool // anchors added, by location and list
	watched map[string]bool // paths watched: whether each is a directory
	nfiles  int
	nlinks  int
	nwalk   int
	// nprotected counts the entries protectedFiles listed.
	nprotected int
	// prev are the last search's listings of the walk, and prevStart when
	// it began (keptListing).
	prev      map[string]*walkListing
	prevStart int64
	// names are the listings of the directories add looked names up in
	// (absentIn); noListings looks every name up instead (the tests).
	names      map[string]dirNames
	noListings bool
}

// dirNames is a listing of a directory whose lookups match its listings
// (exactNames), its names with ASCII case folded; ok is false for any
// other, or one too large to keep.
type dirNames struct {
	ok  bool
	set map[string]struct{}
}

// maxListed bounds the entries of a directory absentIn keeps.
const maxListed = 4096

// absentIn reports whether the directory dir has no entry name, from one
// listing of dir: a search looks a few hundred names of its lists up in
// each root and in the home directory, most of which are not there, and
// a listing answers for them all with a few system calls instead of one
// each. It reports false when it cannot tell (the name is then looked
// up): a file system whose lookups may find what its listings do not
// show (exactNames), a directory of more than maxListed entries, an
// error. The directory's own change time is recorded by the caller before
// it is listed, so that an entry made after the listing shows as a change.
func (f *idSearch) absentIn(dir, name string) bool {
	if f.noListings {
		return false
	}
	l, ok := f.names[dir]
	if !ok {
		l = listNames(dir)
		if f.names == nil {
			f.names = map[string]dirNames{}
		}
		f.names[dir] = l
	}
	if !l.ok {
		return false
	}
	_, present := l.set[asciiLower(name)]
	return !present
}

// listNames lists dir for absentIn.
func listNames(dir string) dirNames {
	d, err := openDirNoBlock(dir)
	if err != nil {
		return dirNames{}
	}
	defer d.Close()
	if !exactNames(int(d.Fd())) {
		return dirNames{}
	}
	names, err := d.Readdirnames(maxListed + 1)
	if err != nil || len(names) > maxListed {
		return dirNames{}
	}
	set := make(map[string]struct{}, len(names))
	for _, n := range names {
		set[asciiLower(n)] = struct{}{}
	}
	return dirNames{ok: true, set: set}
}

// asciiLower lower-cases the ASCII letters of s: a listing's names and a
// looked-up name are compared so, so that a file system that folds ASCII
// case without saying so on the directory (XFS made with ascii-ci) is
// answered for as a lookup there would answer; elsewhere a name that
// differs in case only is looked up, as before.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if 'A' <= b[j] && b[j] <= 'Z' {
					b[j] += 'a' - 'A'
				}
			}
			return string(b)
		}
	}
	return s
}

// watchAbsent records p, known not to exist, as watchFile does a
// directory that does not exist: what the search read, not watched.
func (f *idSearch) watchAbsent(p string) {
	if _, ok := f.watched[p]; ok {
		return
	}
	f.watched[p] = false
	if !f.resolvedOnce(p) {
		f.ids.reads = append(f.ids.reads, watch{path: p})
	}
}

func (s *Sandbox) findIdentities() *identities {
	if s == none || !supported {
		return &identities{complete: true, search: &searchMark{}}
	}
	f := &idSearch{
		s:          s,
		start:      time.Now().UnixNano(),
		ids:        &identities{files: map[fileID]anchor{}, complete: true, cover: &idsCover{}, listed: map[string]*walkListing{}, search: &searchMark{}},
		seen:       map[string]bool{},
		watched:    map[string]bool{},
		noListings: s.noListings,
	}
	f.ids.start = f.start
	if last := s.ids.Load(); last != nil && !s.noListings {
		f.prev, f.prevStart = s.loadListings(last), last.start
	}
	bases := slices2(s.roots, s.workDir)
	for _, b := range bases {
		f.patterns(b, false)
	}
	if s.home != "" {
		f.patterns(s.home, true)
	}
	f.absolute()
	for _, b := range bases {
		f.git(b)
	}
	for i, b := range bases {
		nested := false
		for j, o := range bases {
			nested = nested || j != i && o != b && within(b, o)
		}
		if !nested {
			f.walkDir(b, 0)
		}
	}
	for _, c := range gitfiles.UserConfigs(s.home) {
		f.hooksPath(c, "")
	}
	return f.ids
}

// slices2 returns the roots and, when it is not one of them, dir.
func slices2(roots []string, dir string) []string {
	out := append([]string(nil), roots...)
	if dir != "" {
		for _, r := range roots {
			if r == dir {
				return out
			}
		}
		out = append(out, dir)
	}
	return out
}

// patterns adds an anchor under base for every pattern of literal names;
// home also takes the patterns anchored to it ("~/").
func (f *idSearch) patterns(base string, home bool) {
	for _, set := range []struct {
		pats   *patternSet
		secret bool
	}{{&f.s.protected, false}, {&f.s.secret, true}} {
		for i := range set.pats.pats {
			p := &set.pats.pats[i]
			rel := p.src
			if r, ok := strings.CutPrefix(rel, "~/"); ok {
				if !home {
					continue
				}
				rel = r
			} else if p.anchored {
				continue
			}
			rel = strings.Trim(rel, "/")
			if rel == "" || strings.ContainsAny(rel, `*?[\`) {
				continue
			}
			f.add(base, rel, set.secret, p.src)
		}
	}
}

// absolute adds an anchor for every pattern that names an absolute
// location without wildcards ("/home/u/.config/claude/"): a host's own
// configuration directories outside the home directory's usual places.
func (f *idSearch) absolute() {
	for _, set := range []struct {
		pats   *patternSet
		secret bool
	}{{&f.s.protected, false}, {&f.s.secret, true}} {
		for i := range set.pats.pats {
			p := &set.pats.pats[i]
			if !strings.HasPrefix(p.src, "/") || strings.ContainsAny(p.src, `*?[\`) {
				continue
			}
			if rel := strings.Trim(p.src, "/"); rel != "" {
				f.add("/", rel, set.secret, p.src)
			}
		}
	}
}

// add resolves base/rel and records it.
func (f *idSearch) add(base, rel string, secret bool, pat string) {
	loc := base + "/" + rel
	if base == "/" {
		loc = "/" + rel
	}
	key := loc
	if secret {
		key += "\x00s"
	}
	if f.seen[key] || len(loc) > maxPath {
		return
	}
	f.seen[key] = true
	// The directories in which the names of loc are looked up; when one
	// does not exist, neither does loc, and the one above it tells when
	// it appears.
	for d, r := base, rel; ; {
		if !f.watchDir(d) {
			return
		}
		if d == base {
			// The first name of rel, not in base's listing: the lookup
			// would fail there, and, when rel goes on, what it would
			// record of the directory that is not there is recorded.
			first, _, more := strings.Cut(r, "/")
			if f.absentIn(base, first) {
				if more {
					f.watchAbsent(strings.TrimSuffix(base, "/") + "/" + first)
				}
				return
			}
		}
		i := strings.IndexByte(r, '/')
		if i < 0 {
			break
		}
		d, r = strings.TrimSuffix(d, "/")+"/"+r[:i], r[i+1:]
	}
	w := walker{collect: true}
	real, err := w.walk(loc, rel, base)
	if err != nil {
		return
	}
	if real != loc {
		// Reached through links: the directories those links and their
		// targets are named in matter too.
		for _, l := range w.links {
			f.watchDir(filepath.Dir(l))
		}
		f.watchAncestors(real)
		f.ids.moved = append(f.ids.moved, anchor{loc: loc, real: real, secret: secret, pat: pat})
	}
	st, ok, err := statPath(real, false)
	if err != nil || !ok {
		return
	}
	a := anchor{loc: loc, real: real, secret: secret, pat: pat}
	switch {
	case st.isRegular():
		f.file(st, a)
	case st.isDir() && secret:
		f.dirFiles(real, a, 0)
	case st.isDir():
		f.protectedFiles(real, a)
	}
}

// file records a protected or secret file's identity; a secret wins over
// a protected one, as it also asks for reads.
func (f *idSearch) file(st fileStat, a anchor) {
	id := fileID{st.dev, st.ino}
	if old, ok := f.ids.files[id]; ok && (old.secret || !a.secret) {
		return
	}
	f.ids.files[id] = a
}

// protectedFiles records the identities of the regular files of a
// protected directory and of its subdirectories (a git directory's config
// and hooks, an editor's configuration tree), and the links among them
// (see link), at most maxProtectedFiles entries of each directory,
// maxProtectedDepth levels deep and maxProtectedTotal entries in all:
// what a hard link of one of them reads is known to be no secret, and a
// link a dotfiles manager made deep inside (~/.config/nvim/lua/plugins/x
// -> the repository's file) is found. (Writing any file with more than
// one link asks whether it is known or not.)
func (f *idSearch) protectedFiles(dir string, a anchor) {
	f.protectedDir(dir, a, 0)
}

func (f *idSearch) protectedDir(dir string, a anchor, depth int) {
	f.listDir(dir, func(p string, st fileStat) {
		if f.nprotected++; f.nprotected > maxProtectedTotal {
			// Past the bound a hard link of a file not listed is
			// unknown, and asked about outside package trees anyway.
			return
		}
		sub := anchor{loc: a.loc + p[len(a.real):], real: p, pat: a.pat}
		switch {
		case st.isRegular():
			f.file(st, sub)
		case st.isLink():
			f.link(sub)
		case st.isDir() && !skipProtectedDir(n(p)) && depth+1 < maxProtectedDepth:
			f.protectedDir(p, a, depth+1)
		}
	})
}

// skipProtectedDir reports whether a directory beneath a protected one
// holds data rather than configuration: a git directory's object store
// (content-addressed files, many, never a target of their own), Claude
// Code's transcripts, snapshots and caches, and the tools' caches and
// logs.
func skipProtectedDir(name string) bool {
	switch name {
	case "objects", "lfs", "projects", "todos", "shell-snapshots", "statsig", "file-history", "debug",
		"session-env", "paste-cache", "ide":
		return true
	}
	return skipSecretDir(name)
}

// Bounds of the listing of the protected directories.
const (
	maxProtectedDepth = 5    // levels listed beneath a protected directory
	maxProtectedTotal = 4096 // entries listed in all
)

// maxLinks bounds the links inside protected and secret directories one
// search follows.
const maxLinks = 1024

// link records a symbolic link found inside a protected or secret
// directory (a.real is the link's own location): what it leads to is
// that location, wherever it lies and whatever it is called there. In a
// dotfiles repository laid out for GNU Stow, ~/.claude/settings.json is a
// link to the repository's claude/settings.json: a write of the
// repository's file is a write of the agent's settings.
func (f *idSearch) link(a anchor) {
	if f.nlinks >= maxLinks {
		if a.secret {
			f.ids.complete = false // a secret's other name may be unknown
		}
		return
	}
	f.nlinks++
	w := walker{collect: true}
	real, err := w.walk(a.real, a.real, "")
	if err != nil || real == a.real {
		return
	}
	f.readPath(real, w.links)
	loc := a.loc
	f.ids.moved = append(f.ids.moved, anchor{loc: loc, real: real, secret: a.secret, pat: a.pat})
	if st, ok, err := statPath(real, false); err == nil && ok && st.isRegular() {
		f.file(st, anchor{loc: loc, real: real, secret: a.secret, pat: a.pat})
	}
}

// skipSecretDir reports whether a directory beneath a secret directory
// holds a tool's cache or logs rather than credentials.
func skipSecretDir(name string) bool {
	switch name {
	case "cache", "logs", "log", "tmp", "http-cache":
		return true
	}
	return false
}

// secretName reports whether a secret pattern names the path p itself
// (not only a directory above it).
func (f *idSearch) secretName(p string) bool {
	pat, ok := f.s.secret.first(p)
	if !ok {
		return false
	}
	parent, _ := f.s.secret.first(p[:strings.LastIndexByte(p, '/')])
	return pat != parent
}

// n returns the last component of p.
func n(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// maxProtectedFiles bounds the entries of one directory protectedFiles
// reads.
const maxProtectedFiles = 256

// listDir calls fn for each of the first maxProtectedFiles entries of dir.
func (f *idSearch) listDir(dir string, fn func(string, fileStat)) {
	f.record(dir)
	d, err := openDirNoBlock(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(maxProtectedFiles)
	d.Close()
	for _, n := range names {
		p := dir + "/" + n
		if st, ok, err := statPath(p, false); err == nil && ok {
			fn(p, st)
		}
	}
}

// dirFiles records the identities of the regular files beneath a secret
// directory, a few levels deep, within maxSecretFiles in all.
func (f *idSearch) dirFiles(dir string, a anchor, depth int) {
	f.record(dir)
	d, err := openDirNoBlock(dir)
	if err != nil {
		return
	}
	defer d.Close()
	names, err := d.Readdirnames(maxSecretFiles + 1)
	if err != nil && err != io.EOF {
		f.ids.complete = false
		return
	}
	for _, n := range names {
		if f.nfiles >= maxSecretFiles {
			f.ids.complete = false
			return
		}
		p := dir + "/" + n
		st, ok, err := statPath(p, false)
		if err != nil || !ok {
			continue
		}
		switch {
		case st.isRegular():
			f.nfiles++
			f.file(st, anchor{loc: a.loc + p[len(a.real):], real: p, secret: true, pat: a.pat})
		case st.isLink():
			f.link(anchor{loc: a.loc + p[len(a.real):], real: p, secret: true, pat: a.pat})
		case st.isDir() && skipSecretDir(n) && !f.secretName(p):
			// Caches and logs of the tools (kubectl's discovery cache,
			// gcloud's logs): many files, no credential. (The caches
			// that hold tokens, like .aws/sso/cache, are secret by name.)
		case st.isDir() && depth+1 < maxSecretDepth:
			f.dirFiles(p, anchor{loc: a.loc + p[len(a.real):], real: p, secret: true, pat: a.pat}, depth+1)
		case st.isDir():
			f.ids.complete = false
		}
	}
}

// watchDir records the directory d and reports whether it exists.
func (f *idSearch) watchDir(d string) bool {
	return f.watchFile(d, true)
}

// watchFile records the file or directory p, existing or not; it reports
// whether p is a directory (when dir is set) or exists.
func (f *idSearch) watchFile(p string, dir bool) bool {
	if isDir, ok := f.watched[p]; ok {
		return isDir || !dir
	}
	st, ok, err := f.record(p)
	if err != nil {
		return false
	}
	f.watched[p] = ok && st.isDir()
	_, protectedDir := f.s.protected.first(p)
	if !ok && dir || f.s.rootOf(p) < 0 || dir && protectedDir {
		// An absent directory: the one holding it is watched. Outside
		// the roots nothing the agent does can change a file, and
		// inside a protected directory nothing it does without asking.
		if dir {
			return ok && st.isDir()
		}
		return ok
	}
	if ok && (st.ctime == 0 || st.ctime >= f.start-racyFor(st.ctime)) {
		f.ids.racy = true
	}
	f.ids.watches = append(f.ids.watches, watch{path: p, exists: ok, dev: st.dev, ino: st.ino, ctime: st.ctime, size: st.size})
	if dir {
		return st.isDir()
	}
	return ok
}

// record stats p, following links, and adds it to what the search read.
// What cannot be stat'ed makes the search racy: it is made again on every
// call.
func (f *idSearch) record(p string) (fileStat, bool, error) {
	st, ok, err := statPath(p, true)
	if err != nil {
		f.ids.racy = true
		return st, ok, err
	}
	if f.resolvedOnce(p) {
		return st, ok, err
	}
	if ok && (st.ctime == 0 || st.ctime >= f.start-racyFor(st.ctime)) {
		f.ids.racy = true
	}
	f.ids.reads = append(f.ids.reads, watch{path: p, exists: ok, dev: st.dev, ino: st.ino, ctime: st.ctime, size: st.size})
	return st, ok, err
}

// resolvedOnce reports whether p is left out of what the search read:
// a directory above the roots, the working directory or the home
// directory (resolved once, when the Sandbox is built: /tmp changes all
// the time, and what changes there leaves them where they are), the
// directory of the sandbox's own facts file, which the search itself
// writes, or a directory where the host keeps its own files
// (Config.StateDirs).
func (f *idSearch) resolvedOnce(p string) bool {
	if f.s.factsFile != "" && p == filepath.Dir(f.s.factsFile) || slices.Contains(f.s.stateDirs, p) {
		return true
	}
	for _, b := range append(slices2(f.s.roots, f.s.home), f.s.workDir) {
		if b != "" && b != p && within(b, p) {
			return true
		}
	}
	return false
}

// racyFor is how recent a change time may be before it is not trusted:
// racyWindow, or two seconds for a time in whole seconds (a file system
// whose clock ticks in seconds or slower).
func racyFor(ctime int64) int64 {
	if ctime%int64(time.Second) == 0 {
		return int64(2 * time.Second)
	}
	return int64(racyWindow)
}

// readPath adds to what the search read the directories a resolution
// looked names up in: those holding the links it followed, and those on
// the way to where it led (real) below the innermost root or home
// directory holding it, as watchAncestors takes them (the roots and the
// home directory themselves are resolved once, when the Sandbox is built).
func (f *idSearch) readPath(real string, links []string) {
	for _, l := range links {
		f.record(filepath.Dir(l))
	}
	top := f.topOf(real)
	for d := filepath.Dir(real); within(d, top); d = filepath.Dir(d) {
		f.record(d)
		if d == top || d == "/" {
			break
		}
	}
}

// topOf returns the innermost root, working or home directory holding p,
// or "/" when none does.
func (f *idSearch) topOf(p string) string {
	top := "/"
	for _, b := range append(slices2(f.s.roots, f.s.home), f.s.workDir) {
		if b != "" && within(p, b) && len(b) > len(top) {
			top = b
		}
	}
	return top
}

// watchAncestors records the directories on the way to p, below the
// innermost root or home directory holding it (from "/" when none does).
func (f *idSearch) watchAncestors(p string) {
	top := f.topOf(p)
	for d := filepath.Dir(p); within(d, top); d = filepath.Dir(d) {
		f.watchDir(d)
		if d == top || d == "/" {
			break
		}
	}
}

// git adds the git directory a ".git" file under base names, its common
// directory, and the core.hooksPath directories of the repository's
// configuration.
func (f *idSearch) git(base string) {
	dotgit := base + "/.git"
	st, ok, err := statPath(dotgit, true)
	if err != nil || !ok {
		return
	}
	if !st.isRegular() {
		// A git directory: base, which is watched, says when it is
		// replaced; its config may set core.hooksPath.
		f.hooksPath(dotgit+"/config", base)
		return
	}
	// A ".git" file (a worktree or a submodule): what it names, and the
	// common directory a worktree's git directory names, are protected.
	f.watchFile(dotgit, false)
	target, ok := readGitLink(dotgit, "gitdir:")
	if !ok {
		return
	}
	if !filepath.IsAbs(target) {
		target = filepath.Join(base, target)
	}
	gitdir := f.dirAnchor(target, "gitdir: of "+dotgit)
	if gitdir == "" {
		return
	}
	common := gitdir
	f.watchFile(gitdir+"/commondir", false)
	if c, ok := readGitLink(gitdir+"/commondir", ""); ok {
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitdir, c)
		}
		if d := f.dirAnchor(c, "commondir of "+gitdir); d != "" {
			common = d
		}
	}
	f.hooksPath(common+"/config", base)
	if gitdir != common {
		f.hooksPath(gitdir+"/config.worktree", base)
	}
}

// dirAnchor resolves a protected directory named by a git file and adds
// it; it returns the resolved path, or "".
func (f *idSearch) dirAnchor(p, what string) string {
	if err := validate(p); err != nil {
		return ""
	}
	w := walker{collect: true}
	real, err := w.walk(p, p, "")
	if err != nil {
		return ""
	}
	f.readPath(real, w.links)
	f.watchAncestors(real)
	f.ids.moved = append(f.ids.moved, anchor{loc: p, real: real, pat: what})
	return real
}

// hooksPath adds the core.hooksPath directory a git config file sets. A
// relative value is taken against base (where hooks run), or against each
// root for the user's own configuration.
func (f *idSearch) hooksPath(config, base string) {
	f.watchFile(config, false)
	v, ok := readHooksPath(config)
	if !ok || v == "" {
		return
	}
	var dirs []string
	switch {
	case v == "~" || strings.HasPrefix(v, "~/"):
		if f.s.home == "" {
			return
		}
		dirs = []string{f.s.home + v[1:]}
	case filepath.IsAbs(v):
		dirs = []string{v}
	case base != "":
		dirs = []string{filepath.Join(base, v)}
	default:
		for _, b := range slices2(f.s.roots, f.s.workDir) {
			dirs = append(dirs, filepath.Join(b, v))
		}
	}
	for _, d := range dirs {
		f.dirAnchor(d, "core.hooksPath of "+config)
	}
}

// readGitLink reads a ".git" file's "gitdir: <path>" line (prefix
// "gitdir:") or a "commondir" file's path (prefix "").
func readGitLink(p, prefix string) (string, bool) {
	b, ok := readHead(p, maxGitFile)
	if !ok {
		return "", false
	}
	line, _, _ := bytes.Cut(b, []byte("\n"))
	s := strings.TrimSpace(string(line))
	s, ok = strings.CutPrefix(s, prefix)
	s = strings.TrimSpace(s)
	return s, ok && s != ""
}

// readHooksPath reads core.hooksPath from a git config file: the last
// value set in a [core] section. Includes are not followed.
func readHooksPath(p string) (string, bool) {
	b, ok := readHead(p, maxGitConfig)
	if !ok {
		return "", false
	}
	return parseHooksPath(b)
}

// parseHooksPath reads core.hooksPath from a git config file's text.
func parseHooksPath(b []byte) (string, bool) {
	var val string
	found, core := false, false
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 4096), maxGitConfig)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			name, _, _ := strings.Cut(strings.Trim(line, "[]"), " ")
			core = strings.EqualFold(strings.TrimSpace(strings.TrimRight(name, "]")), "core")
			if i := strings.IndexByte(line, ']'); i >= 0 {
				line = strings.TrimSpace(line[i+1:])
			} else {
				continue
			}
		}
		if !core || line == "" {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		if !strings.EqualFold(strings.TrimSpace(k), "hookspath") {
			continue
		}
		v = strings.TrimSpace(v)
		if i := strings.IndexAny(v, "#;"); i >= 0 && !strings.HasPrefix(v, `"`) {
			v = strings.TrimSpace(v[:i])
		}
		val, found = strings.Trim(v, `"`), true
	}
	return val, found
}

// readHead reads at most n bytes of the regular file p.
func readHead(p string, n int64) ([]byte, bool) {
	fh, err := openNoBlock(p)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	if fi, err := fh.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, false
	}
	b, err := io.ReadAll(io.LimitReader(fh, n))
	return b, err == nil
}

// byIdentity returns the anchor the resolved path r lies in or is, for a
// write (protected or secret) or a read (secret only).
func (ids *identities) byIdentity(r string, write bool) (anchor, bool) {
	for _, a := range ids.moved {
		if (write || a.secret) && within(r, a.real) {
			return a, true
		}
	}
	return anchor{}, false
}

// Bounds of the walk of the roots.
const (
	maxWalk      = 50000 // entries visited beneath the roots
	maxWalkDepth = 24    // levels beneath a root
	walkBatch    = 256   // entries read from a directory at a time
)

// walkDir walks the tree beneath a root once, when the Sandbox is built,
// for what only a walk finds: a symbolic link whose own name is secret or
// protected wherever it lies (svc/.env.production -> ../deploy/x makes
// deploy/x a secret: it is what a tool reading .env.production reads),
// and the identity of every secret file, whatever pattern names it, so
// that a hard link of it in a package manager's tree (where other hard
// links are allowed for reads) is judged as the secret. The package
// managers' trees and the version-control directories are not entered:
// many files, none the user's own secret, and the git directory's files
// are recorded as protected already. A tree larger than maxWalk entries
// makes the search incomplete, and a hard link in a package tree is then
// asked about for reads too.
//
// Links made later, during the session, are seen at the time of the call
// that reaches them: a hard link because its file's change time is newer
// than the search (staleFor: the judge searches again before judging it),
// a symbolic link because only a command can make one, and the host
// forgets the search after every command it ran (Forget).
func (f *idSearch) walkDir(dir string, depth int) {
	st, ok, err := f.record(dir)
	if l := f.keptListing(dir, st, ok, err); l != nil {
		f.ids.listed[dir] = l
		// The entries the walk only counts are counted as they come, so
		// that a bound is reached where listing would reach it.
		next := 0
		for _, e := range l.looked {
			if !f.walkCount(e.at-next+1) || !f.walkEntry(dir, e.name, e.typ, depth, false) {
				return
			}
			next = e.at + 1
		}
		f.walkCount(l.entries - next)
		return
	}
	d, err := openDirNoBlock(dir)
	if err != nil {
		// What cannot be listed cannot be known to hold no secret.
		f.ids.complete = false
		return
	}
	defer d.Close()
	// The listing is kept for the next search when it is whole.
	var l *walkListing
	if ok {
		l = &walkListing{st: stampOf(dir, st)}
	}
	for {
		ents, err := d.ReadDir(walkBatch)
		if err != nil && err != io.EOF {
			f.ids.complete = false
			l = nil
		}
		for _, e := range ents {
			if l != nil {
				if walkLooks(f.s, dir, e.Name(), e.Type()) {
					l.looked = append(l.looked, keptEntry{at: l.entries, name: e.Name(), typ: e.Type()})
				}
				l.entries++
			}
			if !f.walkEntry(dir, e.Name(), e.Type(), depth, true) {
				return
			}
		}
		if err != nil || len(ents) == 0 {
			break
		}
	}
	if l != nil {
		f.ids.listed[dir] = l
	}
}

// walkCount counts n entries the walk does not look at; false when that
// takes it over its bound, as counting them one by one would.
func (f *idSearch) walkCount(n int) bool {
	bound := maxWalk
	if f.s.walkBound > 0 {
		bound = f.s.walkBound
	}
	if f.nwalk+n > bound {
		f.nwalk = bound + 1
		f.ids.complete = false
		return false
	}
	f.nwalk += n
	return true
}

// walkLooks reports whether the walk looks at the entry name of dir, of
// type t, beyond counting it: a link or regular file with a name of the
// lists, or a directory it enters. What it reports depends on the path,
// the type and the lists alone, all of which a kept listing's search had
// the same.
func walkLooks(s *Sandbox, dir, name string, t fs.FileMode) bool {
	p := dir + "/" + name
	if dir == "/" {
		p = "/" + name
	}
	switch {
	case t&fs.ModeSymlink != 0:
		_, secret := s.secret.first(p)
		_, protected := s.protected.first(p)
		return secret || protected
	case t.IsRegular():
		_, secret := s.secret.first(p)
		return secret
	case t.IsDir():
		return !skipWalk(name)
	}
	return false
}

// walkEntry judges the entry name of dir, of type t (a listing's
// fs.FileMode type bits), for walkDir, counting it when count is set;
// false when the walk is over its bound and stops.
func (f *idSearch) walkEntry(dir, name string, t fs.FileMode, depth int, count bool) bool {
	if count && !f.walkCount(1) {
		return false
	}
	p := dir + "/" + name
	if dir == "/" {
		p = "/" + name
	}
	switch {
	case t&fs.ModeSymlink != 0:
		if pat, ok := f.s.secret.first(p); ok {
			f.link(anchor{loc: p, real: p, secret: true, pat: pat})
		} else if pat, ok := f.s.protected.first(p); ok {
			f.link(anchor{loc: p, real: p, pat: pat})
		}
	case t.IsRegular():
		pat, ok := f.s.secret.first(p)
		if !ok || certName(pat) && certOnly(p) {
			return true
		}
		if st, ok, err := statPath(p, false); err == nil && ok && st.isRegular() {
			f.file(st, anchor{loc: p, real: p, secret: true, pat: pat})
		}
	case t.IsDir():
		if skipWalk(name) {
			return true
		}
		if depth+1 >= maxWalkDepth {
			f.ids.complete = false
			return true
		}
		f.walkDir(p, depth+1)
	}
	return true
}

// walkListing is a directory of the walk of the roots as a search listed
// it: its stamp when it did, how many entries it had, and, in the order
// they came, the entries the walk looks at beyond counting them
// (walkLooks). The next search walks an unchanged directory from it
// instead of listing it again: a directory's entries cannot change, be
// added, removed, renamed or replaced by another type, without its change
// time changing, and the walk judges each entry by its name and type
// alone, looking again at what it reads beyond that (a secret file's
// identity, a link's target, a certificate's first bytes). In a tree of
// thousands of directories, a file made anywhere made the next search
// list every one of them again.
type walkListing struct {
	st      watch
	entries int
	looked  []keptEntry
}

// keptEntry is an entry of a kept listing: its place among the
// directory's entries, its name and its type.
type keptEntry struct {
	at   int
	name string
	typ  fs.FileMode
}

// stampOf is the watch of the directory dir from its stat st.
func stampOf(dir string, st fileStat) watch {
	return watch{path: dir, exists: true, dev: st.dev, ino: st.ino, ctime: st.ctime, size: st.size}
}

// keptListing returns the last search's listing of dir when dir, stat'ed
// now (st, ok, err), is as it was then and its change time was older than
// that search by more than the clock's tick (a change in the same tick
// would not show); else nil.
func (f *idSearch) keptListing(dir string, st fileStat, ok bool, err error) *walkListing {
	if f.prev == nil || err != nil || !ok {
		return nil
	}
	l := f.prev[dir]
	if l == nil || l.st != stampOf(dir, st) || l.st.ctime == 0 || l.st.ctime >= f.prevStart-racyFor(l.st.ctime) {
		return nil
	}
	return l
}

// skipWalk reports whether the walk of the roots leaves a directory out:
// a package manager's tree or a version-control directory.
func skipWalk(name string) bool {
	switch name {
	case "node_modules", "site-packages", "dist-packages", ".git", ".hg", ".svn", ".jj":
		return true
	}
	return false
}
