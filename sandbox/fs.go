package sandbox

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolgate/toolgate/internal/sysread"
)

// FS does file I/O confined to a sandbox's roots, through one [os.Root]
// per root, opened once by [Sandbox.OpenFS].
//
// Every method resolves its path with the sandbox (refusing paths outside
// the roots with a [*PathError]), then does the I/O relative to the
// matching os.Root. The kernel walk that os.Root performs refuses to leave
// the root, so swapping a directory for a symbolic link between the check
// and the I/O cannot lead outside. A path that a concurrent swap has
// turned into an escape fails with an error instead. (os.Root follows no
// absolute symbolic link; FS hands it the resolved path, in which the
// sandbox has already followed such links, so they work unless swapped in
// concurrently.)
//
// FS enforces containment only; whether a protected or secret path may be
// touched is decided beforehand, by [Sandbox.CheckPath]. Opened with
// [ReadOutside], its read-only operations also reach outside the roots
// what runtime's pipeline lets a file tool read there (system files every
// user may read, the Go module cache), by the pipeline's own rule.
//
// Paths may be absolute or relative to the sandbox's working directory.
// An FS is safe for concurrent use; after [FS.Close] every method fails.
// The zero FS has no roots and refuses every path.
type FS struct {
	sb    *Sandbox
	roots []*os.Root // parallel to sb.roots
	// reads are where reads outside the roots are lifted (ReadOutside);
	// nil lifts none.
	reads *sysread.Places

	closeOnce sync.Once
	closeErr  error
}

// OpenFS opens one [os.Root] for each of the sandbox's roots. The caller
// must call [FS.Close] when done. Without options the FS reaches nothing
// outside the roots; [ReadOutside] lets it read what the pipeline's read
// rule lets a file tool read there.
func (s *Sandbox) OpenFS(opts ...FSOption) (*FS, error) {
	if s == nil {
		s = none
	}
	f := &FS{sb: s, roots: make([]*os.Root, 0, len(s.roots))}
	for _, o := range opts {
		o(f)
	}
	for _, r := range s.roots {
		root, err := os.OpenRoot(r)
		if err != nil {
			_ = f.Close()
			return nil, err
		}
		f.roots = append(f.roots, root)
	}
	return f, nil
}

// Close closes every root. It is safe to call more than once.
func (f *FS) Close() error {
	f.closeOnce.Do(func() {
		var errs []error
		for _, r := range f.roots {
			errs = append(errs, r.Close())
		}
		f.closeErr = errors.Join(errs...)
	})
	return f.closeErr
}

// Sandbox returns the sandbox the FS confines to.
func (f *FS) Sandbox() *Sandbox {
	if f.sb == nil {
		return none
	}
	return f.sb
}

// locate resolves name and returns the root it lies in and its path
// relative to that root. With follow unset, the final component is not
// followed if it is a symbolic link.
func (f *FS) locate(name string, follow bool) (*os.Root, string, string, error) {
	var w walker
	var r string
	var err error
	sb := f.Sandbox()
	if follow {
		r, err = sb.resolve(&w, name)
	} else {
		r, err = sb.resolveParent(&w, name)
	}
	if err != nil {
		return nil, "", "", err
	}
	i := sb.rootOf(r)
	if i < 0 || i >= len(f.roots) {
		// resolve checked containment; this guards against misuse only.
		return nil, "", "", sb.outside(&w, name, r)
	}
	return f.roots[i], rel(r, sb.roots[i]), r, nil
}

// lexical maps name to a root and a root-relative path by its spelling
// alone, for read-only operations: it succeeds only for a clean path (no
// "." or ".." components) that lies, as written, inside a root. The
// operation then runs through that root's os.Root, which itself refuses
// to leave the root, so this skips the resolution without weakening
// containment. Any failure of the operation is retried on the resolved
// path, which gives a path that leads outside its typed error, and follows
// the absolute links inside a root that os.Root will not.
func (f *FS) lexical(name string) (*os.Root, string, bool) {
	if f.sb == nil {
		return nil, "", false
	}
	if name == "" || name[0] != '/' {
		if name == "" || name[0] == '~' || f.sb.workDir == "" {
			return nil, "", false
		}
		name = f.sb.workDir + "/" + name
	}
	if len(name) > maxPath || filepath.Clean(name) != name {
		return nil, "", false
	}
	i := f.sb.rootOf(name)
	if i < 0 || i >= len(f.roots) {
		return nil, "", false
	}
	return f.roots[i], rel(name, f.sb.roots[i]), true
}

// fixErr names the caller's path, rather than the root-relative one, in
// the errors os.Root returns.
func fixErr(err error, name string) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		pe.Path = name
	}
	return err
}

// Open opens the named file for reading.
func (f *FS) Open(name string) (*os.File, error) {
	return f.OpenFile(name, os.O_RDONLY, 0)
}

// OpenFile opens the named file with the given flags and permissions, like
// [os.OpenFile]. With os.O_CREATE|os.O_EXCL a final symbolic link is not
// followed (the open fails because the name exists), as the kernel does.
func (f *FS) OpenFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	if flag == os.O_RDONLY {
		if root, rp, ok := f.lexical(name); ok {
			if file, err := openRegular(root, rp, flag, perm, name); err == nil || errors.Is(err, ErrSpecialFile) {
				return file, err
			}
		}
	}
	follow := flag&(os.O_CREATE|os.O_EXCL) != os.O_CREATE|os.O_EXCL
	root, rp, _, err := f.locate(name, follow)
	if err != nil && flag == os.O_RDONLY {
		file, _, err := f.openOutside(name, err, false)
		return file, err
	}
	if err != nil {
		return nil, err
	}
	file, err := openRegular(root, rp, flag, perm, name)
	return file, fixErr(err, name)
}

// openRegular opens rp in root without blocking and refuses what is
// neither a regular file nor a directory ([ErrSpecialFile]), checked on
// the open descriptor: a FIFO swapped in after the check is never read
// (its open would wait for a writer), a device node never used. For a
// regular file or a directory O_NONBLOCK changes nothing.
func openRegular(root *os.Root, rp string, flag int, perm os.FileMode, name string) (*os.File, error) {
	file, err := root.OpenFile(rp, flag|syscall.O_NONBLOCK, perm)
	if err != nil {
		return nil, err
	}
	fi, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, err
	}
	if m := fi.Mode(); !m.IsRegular() && !m.IsDir() {
		file.Close()
		return nil, pathErr(ErrSpecialFile, name, "", name+" is not a regular file or directory ("+m.Type().String()+"): file tools open neither", nil)
	}
	return file, nil
}

// readRegular reads the whole of rp in root, a regular file.
func readRegular(root *os.Root, rp, name string) ([]byte, error) {
	file, err := openRegular(root, rp, os.O_RDONLY, 0, name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(file)
}

// Create creates or truncates the named file, like [os.Create].
func (f *FS) Create(name string) (*os.File, error) {
	return f.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o666)
}

// ReadFile reads the whole named file.
func (f *FS) ReadFile(name string) ([]byte, error) {
	if root, rp, ok := f.lexical(name); ok {
		if b, err := readRegular(root, rp, name); err == nil || errors.Is(err, ErrSpecialFile) {
			return b, err
		}
	}
	root, rp, _, err := f.locate(name, true)
	if err != nil {
		return f.readOutside(name, err)
	}
	b, err := readRegular(root, rp, name)
	return b, fixErr(err, name)
}

// WriteFile writes data to the named file, creating it with perm (before
// umask) if needed and truncating it otherwise.
func (f *FS) WriteFile(name string, data []byte, perm os.FileMode) error {
	root, rp, _, err := f.locate(name, true)
	if err != nil {
		return err
	}
	file, err := openRegular(root, rp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm, name)
	if err != nil {
		return fixErr(err, name)
	}
	_, err = file.Write(data)
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	return fixErr(err, name)
}

// MkdirAll creates the named directory and any missing parents.
func (f *FS) MkdirAll(name string, perm os.FileMode) error {
	root, rp, _, err := f.locate(name, true)
	if err != nil {
		return err
	}
	if rp == "." {
		return nil
	}
	return fixErr(root.MkdirAll(rp, perm), name)
}

// Stat describes the named file, following a final symbolic link.
func (f *FS) Stat(name string) (os.FileInfo, error) {
	if root, rp, ok := f.lexical(name); ok {
		if fi, err := root.Stat(rp); err == nil {
			return fi, nil
		}
	}
	root, rp, _, err := f.locate(name, true)
	if err != nil {
		return f.statOutside(name, err)
	}
	fi, err := root.Stat(rp)
	return fi, fixErr(err, name)
}

// Lstat describes the named file without following a final symbolic link.
func (f *FS) Lstat(name string) (os.FileInfo, error) {
	if root, rp, ok := f.lexical(name); ok {
		if fi, err := root.Lstat(rp); err == nil {
			return fi, nil
		}
	}
	root, rp, _, err := f.locate(name, false)
	if err != nil {
		if f.reads == nil {
			return nil, err
		}
		_, _, _, ferr := f.locate(name, true)
		return f.lstatOutside(name, err, ferr)
	}
	fi, err := root.Lstat(rp)
	return fi, fixErr(err, name)
}

// Remove removes the named file or empty directory; a final symbolic link
// is removed itself, not its target.
func (f *FS) Remove(name string) error {
	root, rp, _, err := f.locate(name, false)
	if err != nil {
		return err
	}
	return fixErr(root.Remove(rp), name)
}

// ReadDir reads the named directory and returns its entries sorted by
// name.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	root, rp, _, err := f.locate(name, true)
	if err != nil {
		return f.readDirOutside(name, err)
	}
	d, err := root.Open(rp)
	if err != nil {
		return nil, fixErr(err, name)
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	sortEntries(ents)
	return ents, fixErr(err, name)
}

// sortEntries sorts directory entries by name.
func sortEntries(ents []fs.DirEntry) {
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}

// WalkDir walks the file tree at the named directory like
// [filepath.WalkDir]: in lexical order, not following symbolic links. The
// paths passed to fn are absolute: the resolved starting directory joined
// with the path beneath it.
func (f *FS) WalkDir(name string, fn fs.WalkDirFunc) error {
	root, rp, abs, err := f.locate(name, true)
	if err != nil {
		return f.walkOutside(name, err, fn)
	}
	return fs.WalkDir(root.FS(), rp, func(p string, d fs.DirEntry, err error) error {
		return fn(joinRel(abs, rp, p), d, err)
	})
}

// Glob returns the paths matching a doublestar pattern ("**" included),
// absolute and sorted. The pattern's base directory must resolve inside a
// root (see [Sandbox.GlobBase]); the walk runs through the root's os.Root
// and, like find, does not descend into symbolic links met on the way
// (links in the fixed base are followed). Every match is resolved again,
// and matches that lead outside the roots are left out.
func (f *FS) Glob(pattern string) ([]string, error) {
	sb := f.Sandbox()
	base, rest, err := sb.GlobBase(pattern)
	if err != nil {
		if errors.Is(err, ErrOutsideRoots) {
			return f.globOutside(pattern, err)
		}
		return nil, err
	}
	i := sb.rootOf(base)
	if i < 0 || i >= len(f.roots) {
		var w walker
		return nil, sb.outside(&w, pattern, base)
	}
	return globIn(f.roots[i], rel(base, sb.roots[i]), base, rest, pattern, func(m string) bool {
		_, err := sb.Resolve(m)
		return err == nil
	})
}

// globIn walks the doublestar pattern rest below rb, a directory of root
// that base names, without descending into links, and returns the
// absolute matches keep keeps, sorted.
func globIn(root *os.Root, rb, base, rest, pattern string, keep func(string) bool) ([]string, error) {
	fsys, err := fs.Sub(root.FS(), rb)
	if err != nil {
		return nil, fixErr(err, pattern)
	}
	var out []string
	err = doublestar.GlobWalk(fsys, rest, func(p string, _ fs.DirEntry) error {
		if m := joinRel(base, ".", p); keep(m) {
			out = append(out, m)
		}
		return nil
	}, doublestar.WithNoFollow())
	if err != nil {
		return nil, err
	}
	slices.Sort(out)
	return out, nil
}

// joinRel maps p, a path beneath the root-relative directory rp, back to an
// absolute path beneath abs (which rp names).
func joinRel(abs, rp, p string) string {
	if rp != "." {
		if p == rp {
			p = "."
		} else {
			p = p[len(rp)+1:]
		}
	}
	switch {
	case p == ".":
		return abs
	case abs == "/":
		return "/" + p
	}
	return abs + "/" + p
}
