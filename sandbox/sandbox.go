package sandbox

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Sandbox confines paths to a set of root directories and classifies the
// protected and secret paths inside them.
//
// A Sandbox is immutable once built and safe for concurrent use by many
// goroutines. The zero value has no roots: every path is outside.
type Sandbox struct {
	roots     []string // resolved, deduplicated, shortest first
	workDir   string   // resolved, or empty
	home      string   // resolved, or empty
	protected patternSet
	secret    patternSet
	// mounts are the mount points beneath the roots that are not roots
	// (see mounts.go).
	mounts []string
	// ids holds the protected and secret locations found by identity
	// (see identity.go), refreshed when the directories that name them
	// change; nil until first needed.
	ids atomic.Pointer[identities]
	// witnessList stands for the secret names when a filter is judged
	// (see select.go); made once, on first use.
	witnessOnce sync.Once
	witnessList []witness
	// base is set on a view of one decision ([Sandbox.Pin]): the sandbox
	// it was taken of, whose identities it takes once, on first use, into
	// pinned, and whose witnesses it shares.
	base *Sandbox
	// factsFile keeps the search between processes (facts.go); factsKey
	// is what the search depends on besides the files.
	factsFile, factsKey string
	// stateDirs are Config.StateDirs outside the roots.
	stateDirs []string
	// noListings makes the search look every name up and list every
	// directory, without the listings absentIn answers from and the kept
	// ones of the walk (the tests compare the two); walkBound, when
	// positive, bounds the walk in place of maxWalk (the tests reach it).
	noListings bool
	walkBound  int

	pinOnce sync.Once
	pinned  *identities
	// look keeps a view's lookups (see lookups), in viewLookups; nil on
	// a sandbox.
	look        *lookups
	viewLookups lookups
	// vsync, on a view, is its sync of the shared watcher (watched.go).
	vsync viewSync
	// watch keeps the lookups of every view of a long-lived sandbox
	// (see watched.go); shared by its views, nil on a zero Sandbox.
	watch *watched
	// listedDirs, on a view, are the directories CheckListed resolved,
	// and whether each is its own resolved path.
	listedDirs sync.Map
}

// Pin returns a view of s for one decision: it judges every path as s
// does, but revalidates the protected and secret locations found by
// identity once, when it first needs them, and holds them for every
// path it judges after, where s revalidates them for each path (a stat
// of each file they depend on); and it looks each directory and file on
// the way of the paths it judges up once, where s looks them up for each
// path (links and missing entries are looked up each time). A host takes
// a view for each tool call and drops it after: a change to the file
// system after the view first judged is seen by the next view, not by
// this one. A view of a view is itself; Pin of nil is nil.
func (s *Sandbox) Pin() *Sandbox {
	if s == nil || s.base != nil {
		return s
	}
	mark := s.watch.pin()
	v := &Sandbox{roots: s.roots, workDir: s.workDir, home: s.home, protected: s.protected,
		secret: s.secret, mounts: s.mounts, base: s, watch: s.watch}
	v.vsync.mark = mark
	v.look = &v.viewLookups
	v.viewLookups.shared, v.viewLookups.sync = s.watch, &v.vsync
	return v
}

// viewSync returns the view's sync of the shared watcher, nil on the
// sandbox itself.
func (s *Sandbox) viewSync() *viewSync {
	if s.base == nil {
		return nil
	}
	return &s.vsync
}

// Close releases what the sandbox holds to answer its views' lookups
// cheaply (an inotify instance, where it made one). The sandbox and its
// views stay usable: they then look every path up. A Sandbox dropped
// without Close releases it when it and its views are collected.
func (s *Sandbox) Close() error {
	if s == nil {
		return nil
	}
	return s.watch.close()
}

// New builds a sandbox from cfg. Every root and the working directory are
// resolved once, here; a root that does not exist or is not a directory, a
// relative working directory and a malformed pattern are errors.
func New(cfg Config) (*Sandbox, error) {
	if !supported {
		return nil, pathErr(ErrUnresolvable, "", "", "path resolution is not supported on this platform", nil)
	}
	s := &Sandbox{watch: &watched{}}
	// A Sandbox dropped without Close gives its inotify instance back
	// when it and its views are collected (the watcher refers to none).
	runtime.AddCleanup(s, func(c *watched) { _ = c.close() }, s.watch)
	if cfg.WorkDir != "" {
		if !filepath.IsAbs(cfg.WorkDir) {
			return nil, pathErr(ErrInvalidPath, cfg.WorkDir, "", "working directory must be absolute", nil)
		}
		wd, err := resolveDir(cfg.WorkDir)
		if err != nil {
			return nil, err
		}
		s.workDir = wd
	}
	for _, r := range cfg.Roots {
		if r == "" {
			return nil, pathErr(ErrInvalidPath, r, "", "empty root", nil)
		}
		if !filepath.IsAbs(r) {
			if s.workDir == "" {
				return nil, pathErr(ErrInvalidPath, r, "", "relative root and no working directory", nil)
			}
			r = s.workDir + "/" + r
		}
		rr, err := resolveDir(r)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(s.roots, rr) {
			s.roots = append(s.roots, rr)
		}
	}
	// Shortest first, so that the first root containing a path is the
	// outermost one.
	slices.SortStableFunc(s.roots, func(a, b string) int { return len(a) - len(b) })

	prot, sec := cfg.Protected, cfg.Secret
	if prot == nil {
		prot = DefaultProtected()
	}
	if sec == nil {
		sec = DefaultSecret()
	}
	if cfg.Home != "" {
		if !filepath.IsAbs(cfg.Home) {
			return nil, pathErr(ErrInvalidPath, cfg.Home, "", "home directory must be absolute", nil)
		}
		// A home that does not exist protects nothing beneath it, but its
		// patterns still apply to the path as written.
		s.home = filepath.Clean(cfg.Home)
		if h, err := resolveDir(cfg.Home); err == nil {
			s.home = h
		}
	}
	var err error
	if s.protected, err = compilePatterns(prot, s.home); err != nil {
		return nil, err
	}
	if s.secret, err = compilePatterns(sec, s.home); err != nil {
		return nil, err
	}
	if len(s.roots) > 0 {
		s.mounts = innerMounts(mountTable(), s.roots)
	}
	for _, d := range cfg.StateDirs {
		if !filepath.IsAbs(d) {
			return nil, pathErr(ErrInvalidPath, d, "", "state directory must be absolute", nil)
		}
		// Not one the agent writes in (inside a root), nor the home
		// directory or one holding it: the user's own files there (a
		// dotfiles link made during the session) must be searched for.
		if d = filepath.Clean(d); !s.inRoots(d) && (s.home == "" || !within(s.home, d)) {
			s.stateDirs = append(s.stateDirs, d)
		}
	}
	if cfg.FactsFile != "" {
		if !filepath.IsAbs(cfg.FactsFile) {
			return nil, pathErr(ErrInvalidPath, cfg.FactsFile, "", "facts file must be absolute", nil)
		}
		s.factsFile, s.factsKey = filepath.Clean(cfg.FactsFile), factsKey(s, cfg.Protected, cfg.Secret)
		if s.inRoots(s.factsFile) {
			// The agent may write inside the roots: a facts file there
			// could be forged, so it is neither read nor written.
			s.factsFile = ""
		}
		if ids := s.loadFacts(); ids != nil {
			s.ids.Store(ids)
			return s, nil
		}
	}
	ids := s.findIdentities()
	s.ids.Store(ids)
	s.saveFacts(ids)
	return s, nil
}

// resolveDir resolves an existing directory for the configuration.
func resolveDir(p string) (string, error) {
	if err := validate(p); err != nil {
		return "", err
	}
	var w walker
	r, err := w.walk(p, p, "")
	if err != nil {
		return "", err
	}
	mode, serr := statMode(r)
	if serr != nil {
		return "", pathErr(ErrInvalidPath, p, r, "does not exist or cannot be read: "+serr.Error(), serr)
	}
	if !mode.IsDir() {
		return "", pathErr(ErrInvalidPath, p, r, "is not a directory", nil)
	}
	return r, nil
}

// Roots returns the resolved roots, outermost first.
func (s *Sandbox) Roots() []string {
	if s == nil {
		return nil
	}
	return slices.Clone(s.roots)
}

// WorkDir returns the resolved working directory, or "" if none was set.
func (s *Sandbox) WorkDir() string {
	if s == nil {
		return ""
	}
	return s.workDir
}

// none is the sandbox a nil *Sandbox behaves as: no roots.
var none = &Sandbox{}

// Resolve returns the real absolute location of path, which lies inside a
// root, or a [*PathError] saying why not. A nil *Sandbox has no roots.
//
// Relative paths are taken against the configured working directory. ".."
// and symbolic links are resolved one component at a time, the way the
// kernel does, so "link/.." is the parent of the link's target. A path
// that does not exist yet resolves through its deepest existing ancestor,
// and a dangling link is judged by where its target would be. The final
// component is followed if it is a link.
//
// The answer describes the file system at the moment of the call; to act
// on it without a race, do the I/O through an [FS].
func (s *Sandbox) Resolve(path string) (string, error) {
	var w walker
	if s != nil {
		w.memo = s.look
	}
	return s.resolve(&w, path)
}

func (s *Sandbox) resolve(w *walker, path string) (string, error) {
	if s == nil {
		s = none
	}
	if err := validate(path); err != nil {
		return "", err
	}
	if err := processRelative(path, s.workDir); err != nil {
		return "", err
	}
	r, err := w.walk(path, path, s.workDir)
	if err != nil {
		return "", err
	}
	return s.contain(w, path, r)
}

// contain checks where the walk of path led: inside a root, on the
// root's own mount, through no magic link.
func (s *Sandbox) contain(w *walker, path, r string) (string, error) {
	if s.rootOf(r) < 0 {
		return "", s.outside(w, path, r)
	}
	if w.via != "" {
		return "", pathErr(ErrForeignProcess, path, r, "goes through the magic link "+w.via+", which names a process's own view (its root, working directory or descriptors): it resolves in the process that judges it, not in the one that opens it", nil)
	}
	if mp := s.otherMount(r); mp != "" {
		return "", pathErr(ErrOtherMount, path, r, r+" lies on the mount at "+mp+", which is not a root: judged as outside every root", nil)
	}
	return r, nil
}

// resolveParent resolves every component of path but the last, which is
// kept as it is (not followed if it is a link). Paths ending in ".", ".."
// or "/" are resolved completely.
func (s *Sandbox) resolveParent(w *walker, path string) (string, error) {
	if s == nil {
		s = none
	}
	if err := validate(path); err != nil {
		return "", err
	}
	if err := processRelative(path, s.workDir); err != nil {
		return "", err
	}
	i := strings.LastIndexByte(path, '/')
	base := path[i+1:]
	if base == "" || base == "." || base == ".." {
		return s.resolve(w, path)
	}
	dir := path[:i+1]
	if i < 0 {
		dir = "."
	}
	d, err := w.walk(path, dir, s.workDir)
	if err != nil {
		return "", err
	}
	r := d + "/" + base
	if d == "/" {
		r = "/" + base
	}
	return s.contain(w, path, r)
}

func (s *Sandbox) outside(w *walker, path, r string) error {
	reason := "resolves to " + r
	if w.via != "" {
		reason += " through magic link " + w.via
	}
	if len(s.roots) == 0 {
		reason += ", and no roots are configured"
	} else {
		reason += ", outside every root (" + strings.Join(s.roots, ", ") + ")"
	}
	return pathErr(ErrOutsideRoots, path, r, reason, nil)
}

// rootOf returns the index of the outermost root containing the resolved
// path r, or -1.
func (s *Sandbox) rootOf(r string) int {
	for i, root := range s.roots {
		if within(r, root) {
			return i
		}
	}
	return -1
}

// within reports whether the clean absolute path p is root or lies beneath
// it. It compares whole components: "/a/bc" is not within "/a/b".
func within(p, root string) bool {
	if root == "/" {
		return strings.HasPrefix(p, "/")
	}
	if !strings.HasPrefix(p, root) {
		return false
	}
	return len(p) == len(root) || p[len(root)] == '/'
}

// rel returns p relative to root, both clean and absolute with p within
// root, in the form [os.Root] expects.
func rel(p, root string) string {
	if len(p) == len(root) {
		return "."
	}
	if root == "/" {
		return p[1:]
	}
	return p[len(root)+1:]
}
