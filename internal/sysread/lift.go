package sysread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// A Lift is a file tool's read outside the roots that needs no person:
// why, by which rule, and which file it judged, for [Lift.Open] to open
// that file and no other. The content stage reports Why and Rule; the
// sandbox's FS opens through Open, so that a host's own read agrees with
// the decision.
type Lift struct {
	// Why is the reason (SystemReason or ModCacheReason) and Rule the
	// rule (RuleSystem or RuleModCache).
	Why, Rule string
	// Top is the place the file lies in, with every link followed: the
	// system root below which it lies, or the module cache.
	Top string
	// Real is the file (for a pattern, the directory it starts in) with
	// every link followed: Top or a path below it.
	Real string
	// Lists says the read lists the names below a directory rather than
	// reading the files there: only then is a system directory lifted.
	Lists bool
	// system says Top is a system root: Open checks the mode bits again.
	system bool
}

// ErrChanged is the error [Lift.Open] wraps when what it finds on the way
// is not what the judgement saw: a link, a file or directory with other
// mode bits, or something that is neither a file nor a directory.
var ErrChanged = errors.New("sysread: not what was judged (a link, other mode bits or a special file on the way)")

// Lift reports whether a file tool's read of p (absolute, as written)
// outside the roots, which leads to resolved (the caller's resolution,
// absolute), needs no person: a file of the Go module cache, or a system
// file every user may read (Why), and neither p nor resolved is a name
// the caller's secret list holds (secret). A directory of the system roots
// is lifted only for a read that lists the names below it (lists): one
// that reads every file there would read what the rule did not judge,
// /etc/shadow below /etc among them when it runs as root; the module cache
// holds only public source, so any read there is lifted.
//
// This is the one rule: the content stage's decision for Read, Grep and
// Glob and the sandbox's FS, which then opens the file with [Lift.Open],
// both call it.
func (pl Places) Lift(p, resolved string, lists bool, secret func(string) bool) (Lift, bool) {
	if !filepath.IsAbs(resolved) || secret(p) || secret(resolved) {
		return Lift{}, false
	}
	if real, base, ok := inModCache(resolved, pl.ModCache); ok {
		return Lift{Why: ModCacheReason, Rule: RuleModCache, Top: base, Real: real, Lists: lists}, true
	}
	if fi, err := os.Stat(resolved); err != nil || fi.IsDir() && !lists {
		return Lift{}, false
	}
	prefixes := pl.System
	if prefixes == nil {
		if Info[resolved] {
			return Lift{Why: SystemReason(Prefixes), Rule: RuleSystem, Top: "/proc", Real: resolved, Lists: lists, system: true}, true
		}
		prefixes = Prefixes
	}
	real, pre, ok := worldReadable(resolved, prefixes)
	if !ok {
		return Lift{}, false
	}
	return Lift{Why: SystemReason(prefixes), Rule: RuleSystem, Top: pre, Real: real, Lists: lists, system: true}, true
}

// Open opens for reading the file the lift judged, under the caller's
// name. It walks from Top to Real one component at a time, each opened
// relative to the one before without following a link (O_NOFOLLOW), so a
// link swapped in after the judgement fails the open rather than leading
// elsewhere; and it checks on every descriptor what the judgement checked
// on the path: for a system file its mode bits (every directory one every
// user may pass and, from Top down, not one every user may write; the
// file one every user may read), and that the file is a regular file, or a
// directory for a lift that lists (any directory of the module cache).
// A failure is a *fs.PathError wrapping the system's error or
// [ErrChanged]. The directories above Top are judged by Lift only.
func (l Lift) Open(name string) (*os.File, error) {
	fail := func(err error) (*os.File, error) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if l.Top == "" || l.Real != l.Top && !strings.HasPrefix(l.Real, strings.TrimSuffix(l.Top, "/")+"/") {
		return fail(ErrChanged)
	}
	const flags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC | unix.O_NONBLOCK
	fd, err := unix.Open(l.Top, flags|unix.O_DIRECTORY, 0)
	if err != nil {
		return fail(err)
	}
	var comps []string
	if rest := strings.Trim(l.Real[len(l.Top):], "/"); rest != "" {
		comps = strings.Split(rest, "/")
	}
	for i := 0; ; i++ {
		last := i == len(comps)
		if err := l.check(fd, last); err != nil {
			_ = unix.Close(fd)
			return fail(err)
		}
		if last {
			return os.NewFile(uintptr(fd), name), nil
		}
		f := flags
		if i < len(comps)-1 {
			f |= unix.O_DIRECTORY
		}
		next, err := unix.Openat(fd, comps[i], f, 0)
		_ = unix.Close(fd)
		if err != nil {
			if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
				err = errors.Join(ErrChanged, err)
			}
			return fail(err)
		}
		fd = next
	}
}

// check tests one descriptor of Open's walk; last says it is the file.
func (l Lift) check(fd int, last bool) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	mode := uint32(st.Mode)
	switch typ := mode & unix.S_IFMT; {
	case last && typ != unix.S_IFREG && typ != unix.S_IFDIR:
		return ErrChanged
	case last && typ == unix.S_IFDIR && l.system && !l.Lists:
		return ErrChanged
	case l.system && !modeOK(mode, last, true):
		return ErrChanged
	}
	return nil
}
