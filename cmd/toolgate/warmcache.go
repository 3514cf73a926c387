package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/sandbox"
)

// maxWarmSandboxes bounds the sandboxes a warm process keeps; past it
// they are dropped together (a process answers for one environment and
// one working directory, so a few suffice).
const maxWarmSandboxes = 8

// warmCache is what a warm process keeps between the calls it answers,
// so that a call does not build again what did not change: the sandbox
// of each configuration it met (its patterns compiled, the mount table
// read, the protected and secret locations found and watched). What a
// call may change is read as a fresh process reads it, or revalidated
// exactly: before each use a kept sandbox forgets its search of the
// workspace (sandbox.Sandbox.Forget: the next judgement revalidates
// every file the search read, as a fresh process revalidates its facts
// file), its roots, working directory and home resolve again to what
// they resolved to, and the mount table has not changed (the kernel
// marks /proc/self/mountinfo with POLLPRI on every mount and unmount).
// Anything else, or any error on the way, builds the sandbox afresh.
//
// A zero warmCache keeps nothing until it is used; one warm process
// uses one, a call at a time (warmServer.mu).
type warmCache struct {
	// mounts is the descriptor of /proc/self/mountinfo opened before
	// the kept sandboxes were built, 0 when none is open.
	mounts int
	kept   map[string]*keptSandbox
	// boot and ns are this boot's identifier and this process's user
	// namespace, read once (ids): neither changes while the process
	// lives.
	boot, ns string
	ids      bool
}

// bootID is bootID, read once.
func (c *warmCache) bootID() string {
	c.readIDs()
	return c.boot
}

// userNS is userNS, read once.
func (c *warmCache) userNS() string {
	c.readIDs()
	return c.ns
}

// readIDs reads the boot's identifier and the user namespace the first
// time.
func (c *warmCache) readIDs() {
	if !c.ids {
		c.boot, c.ns, c.ids = bootID(), userNS(), true
	}
}

// keptSandbox is one sandbox a warm process keeps, and what its roots,
// working directory and home resolved to when it was built.
type keptSandbox struct {
	sb       *sandbox.Sandbox
	resolved []string
}

// newSandbox is runtime.Workspace.NewSandbox for a warm process: the
// kept sandbox of cfg when it still holds, else a new one, kept for the
// next call.
func (c *warmCache) newSandbox(cfg sandbox.Config) (*sandbox.Sandbox, error) {
	if !c.mountsSame() {
		c.drop()
		if !c.openMounts() {
			return sandbox.New(cfg)
		}
	}
	resolved, ok := resolvedDirs(cfg)
	if !ok {
		return sandbox.New(cfg)
	}
	key := sandboxKey(cfg)
	if k := c.kept[key]; k != nil {
		if slices.Equal(k.resolved, resolved) {
			k.sb.Forget()
			return k.sb, nil
		}
		_ = k.sb.Close()
		delete(c.kept, key)
	}
	sb, err := sandbox.New(cfg)
	if err != nil {
		return nil, err
	}
	if len(c.kept) >= maxWarmSandboxes {
		c.dropSandboxes()
	}
	if c.kept == nil {
		c.kept = map[string]*keptSandbox{}
	}
	c.kept[key] = &keptSandbox{sb: sb, resolved: resolved}
	return sb, nil
}

// sandboxKey is cfg as a string that tells every two configurations
// apart: each string with its length, each list with its count (-1 for
// a nil list, which means the defaults).
func sandboxKey(cfg sandbox.Config) string {
	b := make([]byte, 0, 4096)
	str := func(s string) { b = append(strconv.AppendInt(b, int64(len(s)), 10), ':'); b = append(b, s...) }
	list := func(l []string) {
		n := len(l)
		if l == nil {
			n = -1
		}
		b = append(strconv.AppendInt(b, int64(n), 10), '#')
		for _, s := range l {
			str(s)
		}
	}
	list(cfg.Roots)
	str(cfg.WorkDir)
	list(cfg.Protected)
	list(cfg.Secret)
	str(cfg.Home)
	str(cfg.FactsFile)
	list(cfg.StateDirs)
	return string(b)
}

// resolvedDirs returns what the roots, the working directory and the
// home of cfg resolve to now, each with whether it is a directory and
// its device and inode (a directory moved away and another made in its
// place is another one), or the error that stopped it; false when cfg has a relative root (not
// kept: sandbox.New takes it against the working directory).
func resolvedDirs(cfg sandbox.Config) ([]string, bool) {
	paths := append(append([]string(nil), cfg.Roots...), cfg.WorkDir, cfg.Home)
	out := make([]string, len(paths))
	for i, p := range paths {
		if p == "" {
			continue
		}
		if j := slices.Index(paths[:i], p); j >= 0 {
			out[i] = out[j] // the working directory is often the first root
			continue
		}
		if !filepath.IsAbs(p) {
			return nil, false
		}
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			out[i] = "error: " + err.Error()
			continue
		}
		fi, err := os.Stat(r)
		switch {
		case err != nil:
			out[i] = "error: " + err.Error()
		default:
			kind := "file"
			if fi.IsDir() {
				kind = "dir"
			}
			st, _ := fi.Sys().(*syscall.Stat_t)
			if st == nil {
				return nil, false
			}
			out[i] = fmt.Sprintf("%s %d:%d: %s", kind, st.Dev, st.Ino, r)
		}
	}
	return out, true
}

// mountsSame reports whether the mount table is the one the kept
// sandboxes were built under: false when no descriptor is open, the
// poll fails or the kernel marked a change.
func (c *warmCache) mountsSame() bool {
	if c.mounts <= 0 {
		return false
	}
	fds := []unix.PollFd{{Fd: int32(c.mounts), Events: unix.POLLPRI}}
	if _, err := unix.Poll(fds, 0); err != nil {
		return false
	}
	return fds[0].Revents&(unix.POLLPRI|unix.POLLERR|unix.POLLNVAL) == 0
}

// openMounts opens /proc/self/mountinfo to watch the mount table, and
// reports whether it could.
func (c *warmCache) openMounts() bool {
	fd, err := unix.Open("/proc/self/mountinfo", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	c.mounts = fd
	return true
}

// drop forgets every kept sandbox and closes the mount table's
// descriptor.
func (c *warmCache) drop() {
	c.dropSandboxes()
	if c.mounts > 0 {
		_ = unix.Close(c.mounts)
		c.mounts = 0
	}
}

// dropSandboxes closes and forgets every kept sandbox.
func (c *warmCache) dropSandboxes() {
	for key, k := range c.kept {
		_ = k.sb.Close()
		delete(c.kept, key)
	}
}
