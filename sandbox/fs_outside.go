package sandbox

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/internal/sysread"
)

// An FSOption configures an [FS] that [Sandbox.OpenFS] opens.
type FSOption func(*FS)

// ReadOutside lets the FS's read-only operations reach, outside the
// roots, exactly what runtime's pipeline lets a file tool read there
// (rules sandbox:system-read and sandbox:go-module-cache, by one function
// both call): a system file every user may read, by its mode bits, below
// the system roots (nil means the default ones, /usr, /opt, /etc, /lib,
// /lib64 and the machine's information files of /proc; an empty, non-nil
// slice none), outside every directory every user may write, whose name
// is neither a credential's nor on the sandbox's secret list; and any file
// of the Go module cache modCache (absolute; "" means none). A host gets
// such an FS from runtime's Pipeline.OpenFS, which passes the places the
// pipeline judges by.
//
// The file is opened from the place's top one component at a time without
// following a link, its mode bits checked again on each descriptor: a link
// swapped in after the judgement, or a file whose bits changed, fails the
// open. Reading a file's content (Open, ReadFile) of a system directory is
// refused, as the pipeline refuses Grep of one; listing it (ReadDir,
// WalkDir, Glob, Stat) is not, and the names listed are judged one by
// one: a name the rule would not let a file tool read is left out. Writes
// outside the roots stay refused.
func ReadOutside(system []string, modCache string) FSOption {
	system = slices.Clone(system) // nil stays nil: the default roots
	return func(f *FS) {
		f.reads = &sysread.Places{System: system, ModCache: modCache}
	}
}

// lift judges a read of name outside the roots, which the sandbox refused
// with err: ok says the read rule lifts it.
func (f *FS) lift(name string, err error, lists bool) (*PathError, sysread.Lift, bool) {
	var pe *PathError
	if f.reads == nil || !errors.As(err, &pe) || !errors.Is(err, ErrOutsideRoots) || !filepath.IsAbs(pe.Resolved) {
		return nil, sysread.Lift{}, false
	}
	abs := name
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(f.Sandbox().workDir, abs)
	}
	l, ok := f.reads.Lift(abs, pe.Resolved, lists, f.secret)
	return pe, l, ok
}

// secret reports a path on the sandbox's secret list.
func (f *FS) secret(p string) bool {
	_, ok := f.Sandbox().Secret(p)
	return ok
}

// openOutside opens name, which the sandbox refused with err, where the
// read rule lifts the refusal; otherwise it returns err.
func (f *FS) openOutside(name string, err error, lists bool) (*os.File, sysread.Lift, error) {
	pe, l, ok := f.lift(name, err, lists)
	if !ok {
		return nil, l, err
	}
	file, oerr := l.Open(name)
	if oerr != nil {
		return nil, l, pathErr(ErrOutsideRoots, name, pe.Resolved,
			pe.Reason+"; read as "+l.Rule+", but it is not what the rule judged: "+oerr.Error(), oerr)
	}
	return file, l, nil
}

// readOutside reads the whole of name, refused by the sandbox with err.
func (f *FS) readOutside(name string, err error) ([]byte, error) {
	file, _, err := f.openOutside(name, err, false)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return io.ReadAll(file)
}

// statOutside describes name, refused by the sandbox with err, from the
// descriptor the read rule's open gives.
func (f *FS) statOutside(name string, err error) (os.FileInfo, error) {
	file, _, err := f.openOutside(name, err, true)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return file.Stat()
}

// lstatOutside describes name without following a final link, refused by
// the sandbox with err (followed: ferr): the name must be one the read
// rule lets a listing show (what it leads to lifted, as Glob's matches
// are), and the link is described only when it is the one in the
// directory the rule judged, by device and inode.
func (f *FS) lstatOutside(name string, err, ferr error) (os.FileInfo, error) {
	if ferr == nil {
		return nil, err // the link leads into a root from outside: not a read the rule judges
	}
	fi, serr := f.statOutside(name, ferr)
	if serr != nil {
		return nil, err
	}
	var pe *PathError
	if !errors.As(err, &pe) || !filepath.IsAbs(pe.Resolved) {
		return nil, err
	}
	dir, base := filepath.Split(pe.Resolved)
	if base == "" {
		return fi, nil
	}
	d, _, derr := f.openOutside(filepath.Dir(pe.Resolved), pathErr(ErrOutsideRoots, name, filepath.Clean(dir), pe.Reason, nil), true)
	if derr != nil {
		return nil, err
	}
	defer d.Close()
	var st unix.Stat_t
	if e := unix.Fstatat(int(d.Fd()), base, &st, unix.AT_SYMLINK_NOFOLLOW); e != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: e}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFLNK {
		return fi, nil
	}
	li, e := os.Lstat(pe.Resolved)
	if e != nil {
		return nil, fixErr(e, name)
	}
	if ls, ok := li.Sys().(*syscall.Stat_t); !ok || uint64(ls.Dev) != uint64(st.Dev) || uint64(ls.Ino) != uint64(st.Ino) {
		return nil, pathErr(ErrOutsideRoots, name, pe.Resolved, pe.Reason+"; the link changed while it was described", nil)
	}
	return li, nil
}

// readDirOutside lists name, refused by the sandbox with err, leaving out
// the names the read rule would not let a listing show.
func (f *FS) readDirOutside(name string, err error) ([]fs.DirEntry, error) {
	d, l, err := f.openOutside(name, err, true)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	ents, err := d.ReadDir(-1)
	ents = slices.DeleteFunc(ents, func(e fs.DirEntry) bool { return !f.listed(filepath.Join(l.Real, e.Name())) })
	sortEntries(ents)
	return ents, fixErr(err, name)
}

// listed reports whether a name met in a listing outside the roots is one
// the read rule lets a file tool's listing show.
func (f *FS) listed(p string) bool {
	_, ok := f.reads.Lift(p, p, true, f.secret)
	return ok
}

// rootOutside opens, for a walk, the os.Root of the place l judged and
// names the directory below it the walk starts in. The walk cannot leave
// the place; each name it meets is judged again (listed).
func rootOutside(l sysread.Lift) (*os.Root, string, error) {
	root, err := os.OpenRoot(l.Top)
	if err != nil {
		return nil, "", err
	}
	return root, rel(l.Real, strings.TrimSuffix(l.Top, "/")), nil
}

// walkOutside is WalkDir for a name the sandbox refused with err.
func (f *FS) walkOutside(name string, err error, fn fs.WalkDirFunc) error {
	pe, l, ok := f.lift(name, err, true)
	if !ok {
		return err
	}
	root, rp, err := rootOutside(l)
	if err != nil {
		return pathErr(ErrOutsideRoots, name, pe.Resolved, pe.Reason+"; its place could not be opened: "+err.Error(), err)
	}
	defer root.Close()
	return fs.WalkDir(root.FS(), rp, func(p string, d fs.DirEntry, err error) error {
		abs := joinRel(l.Real, rp, p)
		if !f.listed(abs) {
			if d != nil && d.IsDir() && p != rp {
				return fs.SkipDir
			}
			if p != rp {
				return nil
			}
		}
		return fn(abs, d, err)
	})
}

// globOutside is Glob for a pattern whose base directory the sandbox
// refused with err.
func (f *FS) globOutside(pattern string, err error) ([]string, error) {
	if f.reads == nil || strings.ContainsRune(pattern, '\\') {
		return nil, err
	}
	abs := pattern
	if abs[0] != '/' {
		abs = f.Sandbox().workDir + "/" + abs
	}
	b, rest := doublestar.SplitPattern(abs)
	if rest = strings.Trim(rest, "/"); rest == "" {
		rest = "."
	}
	pe, l, ok := f.lift(b, err, true)
	if !ok {
		return nil, err
	}
	root, rb, oerr := rootOutside(l)
	if oerr != nil {
		return nil, pathErr(ErrOutsideRoots, pattern, pe.Resolved, pe.Reason+"; its place could not be opened: "+oerr.Error(), oerr)
	}
	defer root.Close()
	return globIn(root, rb, l.Real, rest, pattern, f.listed)
}
