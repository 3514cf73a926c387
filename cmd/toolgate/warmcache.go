package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/internal/stattime"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
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
	// files are what was made of files read whole (settings, the
	// record of trust), by kind and path, kept while each file's stat
	// is as when it was read.
	files map[string]keptFile
	// tools is Claude Code's registry of tools, built once: a registry
	// does not change (With and Restrict make new ones).
	tools *tool.Registry
	// boot and ns are this boot's identifier and this process's user
	// namespace, read once (ids): neither changes while the process
	// lives.
	boot, ns string
	ids      bool
	// checkers and guards are the compiled rules and the shell guards
	// of the configurations met, compared deeply before reuse
	// (warmkeep.go).
	checkers []keptChecker
	guards   []keptGuard
	// self is the running binary's path, read once (selfRead).
	self     string
	selfRead bool
	// key is the buffer sandboxKey writes into, kept between calls.
	key []byte
	// reuse counts what was reused instead of built.
	reuse warmReuse
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
	c.key = appendSandboxKey(c.key[:0], cfg)
	if k := c.kept[string(c.key)]; k != nil {
		if slices.Equal(k.resolved, resolved) {
			k.sb.Forget()
			return k.sb, nil
		}
		_ = k.sb.Close()
		delete(c.kept, string(c.key))
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
	c.kept[string(c.key)] = &keptSandbox{sb: sb, resolved: resolved}
	return sb, nil
}

// sandboxKey is cfg as a string that tells every two configurations
// apart: each string with its length, each list with its count (-1 for
// a nil list, which means the defaults).
func sandboxKey(cfg sandbox.Config) string {
	return string(appendSandboxKey(nil, cfg))
}

// appendSandboxKey appends sandboxKey(cfg) to b.
func appendSandboxKey(b []byte, cfg sandbox.Config) []byte {
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
	return b
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

// drop forgets every kept sandbox and guard and closes the mount
// table's descriptor.
func (c *warmCache) drop() {
	c.dropSandboxes()
	c.dropGuards()
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

// maxWarmFiles bounds the files a warm process keeps what it made of;
// past it they are dropped together.
const maxWarmFiles = 64

// warmRacy is how recent a file's change may be for what was made of
// it to be kept: a write within the file system's clock tick of the
// read may leave its stat as it was, so a file changed this recently is
// read again at the next call.
const warmRacy = 2 * time.Second

// keptFile is what a warm process made of one file, and the file's stat
// when it was made.
type keptFile struct {
	stamp fileStamp
	val   any
}

// fileStamp is what a stat says of a file that changes when its content
// does: its identity, type, owner, mode, size and times.
type fileStamp struct {
	dev, ino, size   uint64
	mode, uid        uint32
	mtimeNs, ctimeNs int64
}

// stampOf stats path, following links, and reports whether it is a
// regular file.
func stampOf(path string) (fileStamp, bool) {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return fileStamp{}, false
	}
	mtime, ctime := stattime.Times(&st)
	return fileStamp{dev: uint64(st.Dev), ino: st.Ino, size: uint64(st.Size), mode: st.Mode, uid: st.Uid,
		mtimeNs: mtime.Nano(), ctimeNs: ctime.Nano()}, true
}

// file returns what load makes of the regular file at path: the kept
// value while the file's stat is as when it was made, else load's,
// kept when the file did not change while load read it and not within
// warmRacy before. A file that is missing or not regular, and every
// error, are made afresh each time and never kept.
func (c *warmCache) file(kind, path string, load func() (any, error)) (any, error) {
	before, ok := stampOf(path)
	if !ok {
		return load()
	}
	key := kind + "\x00" + path
	if k, ok := c.files[key]; ok && k.stamp == before {
		return k.val, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	after, ok := stampOf(path)
	recent := time.Now().Add(-warmRacy).UnixNano()
	if !ok || after != before || before.mtimeNs >= recent || before.ctimeNs >= recent {
		delete(c.files, key)
		return v, nil
	}
	if c.files == nil || len(c.files) >= maxWarmFiles {
		c.files = map[string]keptFile{}
	}
	c.files[key] = keptFile{stamp: before, val: v}
	return v, nil
}

// loadSettings is permission.LoadSettings, kept while the file is
// unchanged. Each call gets a copy of its own, whose lists a caller's
// append cannot write into the kept one's.
func (c *warmCache) loadSettings(path string, scope permission.Scope) (*permission.Settings, error) {
	v, err := c.file("settings "+scope.String(), path, func() (any, error) {
		return permission.LoadSettings(path, scope)
	})
	s, _ := v.(*permission.Settings)
	if err != nil || s == nil {
		return s, err
	}
	cp := *s
	cp.Allow, cp.Ask, cp.Deny = slices.Clip(cp.Allow), slices.Clip(cp.Ask), slices.Clip(cp.Deny)
	cp.AdditionalDirectories, cp.Warnings = slices.Clip(cp.AdditionalDirectories), slices.Clip(cp.Warnings)
	cp.Toolgate = slices.Clip(cp.Toolgate)
	return &cp, nil
}

// trustRecord is readTrustRecord, kept while the file is unchanged (the
// projects it returns are only read).
func (c *warmCache) trustRecord(path string) (map[string]bool, string, error) {
	type record struct {
		projects map[string]bool
		why      string
	}
	v, err := c.file("trust", path, func() (any, error) {
		projects, why, err := readTrustRecord(path)
		return record{projects, why}, err
	})
	r, _ := v.(record)
	return r.projects, r.why, err
}

// registryFor is registryFor with Claude Code's registry built once; on
// a nil cache, registryFor itself.
func (c *warmCache) registryFor(name string) (*tool.Registry, error) {
	if c == nil {
		return registryFor(name)
	}
	if c.tools == nil {
		c.tools = tool.ClaudeCodeTools()
	}
	if isMCPName(name) {
		return c.tools.With(&tool.Descriptor{ToolName: name, Base: tool.Traits{Kind: permission.KindOther}})
	}
	return c.tools, nil
}
