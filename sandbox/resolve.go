package sandbox

import (
	"bytes"
	"os"
	"strconv"
	"strings"
)

// Limits the kernel applies (Linux values; other systems are no laxer).
const (
	maxPath     = 4096 // PATH_MAX
	maxName     = 255  // NAME_MAX
	maxSymlinks = 40   // MAXSYMLINKS
)

// validate refuses the paths that cannot name a file before any system
// call is made.
func validate(path string) error {
	switch {
	case path == "":
		return pathErr(ErrInvalidPath, path, "", "empty path", nil)
	case strings.IndexByte(path, 0) >= 0:
		return pathErr(ErrInvalidPath, path, "", "path contains a NUL byte", nil)
	case len(path) > maxPath:
		return pathErr(ErrInvalidPath, path, "", "path is longer than "+strconv.Itoa(maxPath)+" bytes", nil)
	case path[0] == '~':
		first, _, _ := strings.Cut(path, "/")
		return pathErr(ErrHomeRef, path, "", "leading "+strconv.Quote(first)+" refers to a home directory, which only a shell expands", nil)
	}
	return nil
}

// fileKind is what lstat found at a path.
type fileKind uint8

const (
	kindOther fileKind = iota
	kindDir
	kindLink
)

// walker resolves a path the way the kernel's path walk does: one
// component at a time, following each symbolic link where it is met. Its
// buffer is reused across the components of one walk so that a path
// without links costs one allocation, the result.
type walker struct {
	via     string // the last magic link (under /proc or /dev) followed
	command bool   // the path is opened by another process: see Sandbox.Commands
	self    string // this process's directory name under /proc, once read
	collect bool   // record the location of every link followed
	// anchor is a handle of the existing directory buf[:anchorLen] names,
	// or atCwd (lookups then take the whole absolute path); since counts
	// the directories entered since it was opened.
	anchor, anchorLen, since int
	links                    []string // those locations, when collect is set
	// final is the lstat of the walk's result when its last step looked
	// it up and found no link (finalOK), or found nothing (finalOK, and
	// finalMissing): the caller need not ask again.
	final        fileStat
	finalOK      bool
	finalMissing bool
	finalPath    string // the walk's result, when finalOK
	// memo keeps the lookups of a view of one decision (nil: none).
	memo *lookups
	buf  [256]byte
}

// walk resolves path (which validate accepted), taking a relative path
// against wd, which must be resolved already. orig is the path as the
// caller gave it, for error messages. The result is clean and absolute,
// free of symbolic links up to its deepest existing component; components
// beyond that are kept as written, with "." and ".." applied.
//
// Lookups are anchored at a handle of a directory on the way, opened
// afresh every anchorEvery directories (as os.Root walks by handles), so
// that the kernel never looks up more than anchorEvery components for one
// step: the walk costs time linear in the path's depth, not quadratic.
func (w *walker) walk(orig, path, wd string) (string, error) {
	w.anchor, w.anchorLen, w.since = atCwd, 0, 0
	w.finalOK, w.finalMissing, w.finalPath = false, false, ""
	defer w.unanchor()
	buf := w.buf[:0]
	rest := path
	if path[0] == '/' {
		buf = append(buf, '/')
	} else {
		if wd == "" {
			return "", pathErr(ErrInvalidPath, orig, "", "relative path and no working directory configured", nil)
		}
		buf = append(buf, wd...)
	}
	var st statBuf
	links := 0
	isDir := true // buf names a directory, or something that does not exist yet
	for {
		for len(rest) > 0 && rest[0] == '/' {
			rest = rest[1:]
		}
		if rest == "" {
			break
		}
		name := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			name, rest = rest[:i], rest[i:]
		} else {
			rest = ""
		}
		if !isDir {
			return "", pathErr(ErrInvalidPath, orig, string(buf), string(buf)+" is not a directory", nil)
		}
		if name == "." {
			continue
		}
		if name == ".." {
			w.finalOK = false
			// buf holds no links, so its lexical parent is its real parent.
			if i := bytes.LastIndexByte(buf, '/'); i > 0 {
				buf = buf[:i]
			} else {
				buf = buf[:1]
			}
			if len(buf) < w.anchorLen {
				w.up(len(buf))
			}
			continue
		}
		if len(name) > maxName {
			return "", pathErr(ErrInvalidPath, orig, string(buf), "a component is longer than "+strconv.Itoa(maxName)+" bytes", nil)
		}
		mark := len(buf)
		if mark > 1 {
			buf = append(buf, '/')
		}
		buf = append(buf, name...)
		if len(buf) > maxPath {
			return "", pathErr(ErrInvalidPath, orig, "", "resolved path is longer than "+strconv.Itoa(maxPath)+" bytes", nil)
		}
		kind, fs, err := w.lstat(buf, &st)
		w.note(kind, fs, err)
		if err != nil {
			switch {
			case isNotExist(err):
				// Not there (yet): the rest is judged by name, as a write
				// would create it.
				continue
			case isNotDir(err):
				return "", pathErr(ErrInvalidPath, orig, string(buf), "a component of "+string(buf)+" is not a directory", err)
			case isNameTooLong(err):
				return "", pathErr(ErrInvalidPath, orig, string(buf), "name too long", err)
			}
			return "", pathErr(ErrUnresolvable, orig, string(buf), "cannot examine "+string(buf)+": "+err.Error(), err)
		}
		switch kind {
		case kindDir:
			if w.since++; anchored && w.since >= anchorEvery && rest != "" {
				w.reanchor(buf)
			}
		case kindLink:
			if err := w.foreign(orig, buf); err != nil {
				return "", err
			}
			links++
			if links > maxSymlinks {
				return "", pathErr(ErrSymlinkLoop, orig, string(buf), "more than "+strconv.Itoa(maxSymlinks)+" symbolic links followed (a loop?) at "+string(buf), nil)
			}
			target, err := readlink(buf)
			if err != nil {
				return "", pathErr(ErrUnresolvable, orig, string(buf), "cannot read link "+string(buf)+": "+err.Error(), err)
			}
			if target == "" {
				return "", pathErr(ErrInvalidPath, orig, string(buf), "symbolic link "+string(buf)+" is empty", nil)
			}
			if bytes.HasPrefix(buf, []byte("/proc/")) || bytes.HasPrefix(buf, []byte("/dev/")) {
				// A magic link: judged by where it leads. Links to pipes,
				// sockets, namespaces and anonymous inodes lead to no path.
				if target[0] != '/' && strings.IndexByte(target, ':') >= 0 {
					return "", pathErr(ErrInvalidPath, orig, string(buf), "magic link "+string(buf)+" leads to "+target+", which is not a file", nil)
				}
				w.via = string(buf)
			}
			if w.collect {
				w.links = append(w.links, string(buf))
			}
			if target[0] == '/' {
				buf = buf[:1]
				w.unanchor()
			} else {
				buf = buf[:mark]
			}
			rest = target + rest
		default:
			isDir = false
		}
	}
	if len(buf) > 1 && buf[len(buf)-1] == '/' {
		buf = buf[:len(buf)-1]
	}
	return w.result(buf), nil
}

// note keeps what the walk's latest lookup said, for stat.
func (w *walker) note(kind fileKind, fs fileStat, err error) {
	w.finalMissing = err != nil && isNotExist(err)
	w.finalOK = err == nil && kind != kindLink || w.finalMissing
	if err == nil {
		w.final = fs
	}
}

// result is the walk's result, buf, which the latest lookup answers for
// when it looked buf up.
func (w *walker) result(buf []byte) string {
	out := string(buf)
	if w.finalOK {
		w.finalPath = out
	}
	return out
}

// stat is statPath(r, false) for the result r of the walk, answered by
// the walk's own last lookup when that looked r up.
func (w *walker) stat(r string) (fileStat, bool, error) {
	switch {
	case !w.finalOK || w.finalPath != r:
		return statPath(r, false)
	case w.finalMissing:
		return fileStat{}, false, nil
	}
	return w.final, true, nil
}

// anchorEvery is how many directories a walk enters before it anchors
// its lookups at a fresh directory handle.
const anchorEvery = 8

// atCwd stands for no anchor: lookups take the whole absolute path.
const atCwd = -100

// lstat looks up buf, relative to the anchor when there is one, and
// returns what statPath keeps of the answer.
func (w *walker) lstat(buf []byte, st *statBuf) (fileKind, fileStat, error) {
	if w.anchor == atCwd {
		return w.memo.lstat(buf, st)
	}
	kind, err := lstatAt(w.anchor, buf[w.anchorLen+1:], st)
	return kind, fileStatOf(st), err
}

// reanchor anchors lookups at the directory buf names (an existing one,
// just looked up). If it cannot be opened the walk goes on unanchored.
func (w *walker) reanchor(buf []byte) {
	var fd int
	var err error
	if w.anchor == atCwd {
		fd, err = openDirAt(atCwd, buf)
	} else {
		fd, err = openDirAt(w.anchor, buf[w.anchorLen+1:])
	}
	if err != nil {
		return
	}
	w.unanchor()
	w.anchor, w.anchorLen, w.since = fd, len(buf), 0
}

// up moves the anchor to its parent, whose path is n bytes long: the walk
// went above it with "..". The anchor holds no links, so its parent
// handle is the directory its lexical parent names.
func (w *walker) up(n int) {
	if n <= 1 {
		w.unanchor()
		return
	}
	fd, err := openDirAt(w.anchor, []byte(".."))
	w.unanchor()
	if err == nil {
		w.anchor, w.anchorLen = fd, n
	}
}

func (w *walker) unanchor() {
	if w.anchor != atCwd {
		closeFd(w.anchor)
	}
	w.anchor, w.anchorLen, w.since = atCwd, 0, 0
}

// foreign refuses the link at buf if it is a magic link of another
// process: under /proc/<pid>/ for a pid other than this process's, or
// /proc/self and /proc/thread-self themselves when the path is opened by
// another process (w.command). Its text is where the link leads in that
// process's view (its root may be another mount namespace's, its working
// directory and descriptors are its own), not in this one's.
func (w *walker) foreign(orig string, buf []byte) error {
	const proc = "/proc/"
	if !bytes.HasPrefix(buf, []byte(proc)) {
		return nil
	}
	rest := buf[len(proc):]
	name, inside := rest, false
	if i := bytes.IndexByte(rest, '/'); i >= 0 {
		name, inside = rest[:i], true
	}
	switch {
	case !inside && (string(name) == "self" || string(name) == "thread-self"):
		if w.command {
			return pathErr(ErrForeignProcess, orig, string(buf), string(buf)+" in a command names the command's own process, not this one: a path through it cannot be judged here", nil)
		}
		return nil
	case !inside || len(name) == 0 || !allDigits(name):
		return nil
	}
	if w.self == "" {
		self, err := readlink([]byte("/proc/self"))
		if err != nil || self == "" {
			return pathErr(ErrForeignProcess, orig, string(buf), "cannot tell this process's /proc entry, so magic link "+string(buf)+" cannot be judged", err)
		}
		w.self = self
	}
	if string(name) == w.self {
		return nil
	}
	return pathErr(ErrForeignProcess, orig, string(buf), "magic link "+string(buf)+" belongs to process "+string(name)+", not this one: it leads into that process's view of the file system, which cannot be judged here", nil)
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func statMode(p string) (os.FileMode, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return 0, err
	}
	return fi.Mode(), nil
}
