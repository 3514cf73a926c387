//go:build linux

package runner

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/internal/mountinfo"
)

// Secrets covered in the mount namespace. Landlock only grants: a
// directory that holds a secret cannot be granted whole, so the walk
// grants each of its other entries by a rule of its own, and a large
// project with secrets scattered in it needs thousands of rules, each a
// path to open on every command. A secret that the mount namespace binds
// read-only anyway (the sandbox refuses to let a command write a secret
// path, so it is one of the protected paths, or it lies below one) is
// instead covered there: the second stage mounts over it an empty file
// (or an empty directory) of mode 0 from a read-only tmpfs of its own,
// and the directories that hold it are granted whole, one rule for a
// tree without other secrets. The cost is a mount a secret, not a rule
// an entry.
//
// Why it keeps the same denials:
//
//   - Reading, listing and executing: what the name reaches is the cover,
//     which no one may read, search or execute (mode 0, and the
//     command holds no capability: the second stage drops them all
//     before bash, and no_new_privs keeps a program from gaining any),
//     so the command gets EACCES, as Landlock answered. Writing,
//     truncating, changing its mode or times, or creating in a covered
//     directory: the cover's file system is read-only (EROFS, as the
//     read-only bind answered).
//   - Renaming or removing it, or mounting over it: the name is a mount
//     point (EBUSY, as the read-only bind answered); the command may not
//     change the mounts (Landlock refuses a restricted process any
//     mount or umount, and it holds no capability).
//   - A hard link to it, made by the command: link(2) from a mount point
//     to another mount is refused (EXDEV). A hard link made before the
//     walk is judged by the checker as the secret it is, by identity,
//     and covered or left out as well; one made between two commands
//     changes its directory, which the next command lists again.
//   - A symbolic link to it: resolved through the mount table, it
//     reaches the cover.
//   - A file created later: one made between two commands changes its
//     directory, listed again before the next one (as before); one
//     made during the run in a directory that holds a covered secret is
//     readable in that run, as one in any directory without a secret
//     always was (only the directories of secrets that are not covered
//     keep the reading of new files refused).
//   - Another path to the same file: Landlock grants by inode, so a
//     mount elsewhere of the same file system that reaches a root would
//     reach the secret uncovered. Secrets are covered only when the
//     mount table shows no such mount (confineCoverable); the table is
//     part of what a kept walk is valid for. /proc/PID/cwd and root of
//     a process outside are refused by Landlock's ptrace scoping.
//
// A cover that cannot be made (the name is gone or is now a link since
// the walk) fails the run: the secret may have moved where the grant
// reaches it; the next run walks again where it changed.

// confineCoverable reports whether the secrets of roots may be covered,
// by the mount table of this process (confineCoverableIn).
func confineCoverable(roots []string) bool {
	b, err := os.ReadFile("/proc/self/mountinfo")
	return err == nil && confineCoverableIn(b, roots)
}

// confineCoverableIn reports whether the secrets of roots may be covered
// under the mount table (as /proc/self/mountinfo reads it): no
// mount, besides the one through which each root is reached, shows the
// part of its file system that holds the root (or a part inside it or
// around it), and no later mount stacks on or above the one it is
// reached through. A table it cannot read says no.
func confineCoverableIn(table []byte, roots []string) bool {
	t, ok := parseCoverMounts(table)
	if !ok {
		return false
	}
	for _, root := range roots {
		if !path.IsAbs(root) || path.Clean(root) != root || !t.coverable(root) {
			return false
		}
	}
	return true
}

// coverMount is one line of a mount table: its ID, its parent's, its
// device, the path of its file system it shows, and where.
type coverMount struct{ id, parent, dev, root, point string }

// coverMounts is a mount table, in its order, with each mount's index by
// ID.
type coverMounts struct {
	mounts []coverMount
	byID   map[string]int
}

// parseCoverMounts reads a mount table; ok is false for one it cannot
// read, or an empty one.
func parseCoverMounts(table []byte) (t coverMounts, ok bool) {
	t.byID = map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(table))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			return t, false
		}
		t.byID[fields[0]] = len(t.mounts)
		t.mounts = append(t.mounts, coverMount{id: fields[0], parent: fields[1], dev: fields[2],
			root: mountinfo.Unescape(fields[3]), point: mountinfo.Unescape(fields[4])})
	}
	return t, sc.Err() == nil && len(t.mounts) > 0
}

// below reports whether mount i lies on mount j, at any remove.
func (t coverMounts) below(i, j int) bool {
	for range len(t.mounts) {
		k, ok := t.byID[t.mounts[i].parent]
		if !ok || k == i {
			return false
		}
		if k == j {
			return true
		}
		i = k
	}
	return false
}

// reaching is the index of the mount the path root is reached through:
// the deepest of those at or above it, the top of a stack at one place;
// -1 for none.
func (t coverMounts) reaching(root string) int {
	best := -1
	for i, m := range t.mounts {
		if root != m.point && !confinePathWithin(root, m.point) {
			continue
		}
		if best < 0 || len(m.point) > len(t.mounts[best].point) || (m.point == t.mounts[best].point && t.below(i, best)) {
			best = i
		}
	}
	return best
}

// coverable reports whether the secrets of the root may be covered: it
// is reached through one mount, and no other shows its files, nor stacks
// on or above that mount without lying on it.
func (t coverMounts) coverable(root string) bool {
	best := t.reaching(root)
	if best < 0 {
		return false
	}
	m := t.mounts[best]
	fsPath := path.Join(m.root, strings.TrimPrefix(root, m.point))
	for i, o := range t.mounts {
		switch {
		case i == best:
		case o.dev == m.dev && (o.root == fsPath || confinePathWithin(o.root, fsPath) || confinePathWithin(fsPath, o.root)):
			return false // the root's files reached by another path
		case (o.point == m.point || confinePathWithin(m.point, o.point)) && !t.below(best, i):
			return false // a mount on or above it that it does not lie on
		}
	}
	return true
}

// confinePathWithin reports whether p lies strictly inside dir (both
// clean and absolute).
func confinePathWithin(p, dir string) bool {
	if dir == "/" {
		return p != "/"
	}
	return strings.HasPrefix(p, dir+"/")
}

// confineCover mounts, in the second stage, over each of covers (after
// the read-only binds, which would otherwise hide the covers below them)
// an empty file or directory of mode 0 from a read-only tmpfs of the
// stage's own.
func confineCover(covers []string) error {
	if len(covers) == 0 {
		return nil
	}
	fsfd, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("covering the secret paths: fsopen: %w", err)
	}
	defer unix.Close(fsfd)
	if err := unix.FsconfigSetString(fsfd, "size", "4k"); err != nil {
		return fmt.Errorf("covering the secret paths: %w", err)
	}
	if err := unix.FsconfigSetString(fsfd, "mode", "0700"); err != nil {
		return fmt.Errorf("covering the secret paths: %w", err)
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return fmt.Errorf("covering the secret paths: %w", err)
	}
	mfd, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return fmt.Errorf("covering the secret paths: fsmount: %w", err)
	}
	defer unix.Close(mfd)
	ffd, err := unix.Openat(mfd, "f", unix.O_CREAT|unix.O_EXCL|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("covering the secret paths: %w", err)
	}
	unix.Close(ffd)
	if err := unix.Mkdirat(mfd, "d", 0); err != nil {
		return fmt.Errorf("covering the secret paths: %w", err)
	}
	// Read-only as a file system: no write, mode or time reaches the
	// covers, whatever mount shows them.
	pfd, err := unix.Fspick(mfd, "", unix.FSPICK_EMPTY_PATH|unix.FSPICK_CLOEXEC)
	if err != nil {
		return fmt.Errorf("covering the secret paths: fspick: %w", err)
	}
	err = unix.FsconfigSetFlag(pfd, "ro")
	if err == nil {
		err = unix.FsconfigReconfigure(pfd)
	}
	unix.Close(pfd)
	if err != nil {
		return fmt.Errorf("covering the secret paths: making the covers read-only: %w", err)
	}
	// Attached over "/", where no lookup sees it (a path from the root
	// starts below what covers it), so that the binds may take their
	// source in this mount namespace; detached again once they are made.
	if err := unix.MoveMount(mfd, "", unix.AT_FDCWD, "/", unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
		return fmt.Errorf("covering the secret paths: move_mount: %w", err)
	}
	scratch := "/proc/self/fd/" + strconv.Itoa(mfd)
	err = confineCoverEach(mfd, covers)
	if uerr := unix.Unmount(scratch, unix.MNT_DETACH); uerr != nil && err == nil {
		err = fmt.Errorf("covering the secret paths: detaching the covers' source: %w", uerr)
	}
	return err
}

// confineCoverEach binds the cover of each path of covers from the
// covers' file system at mfd.
func confineCoverEach(mfd int, covers []string) error {
	var src [2]int // the file's and the directory's descriptors
	for k, name := range []string{"f", "d"} {
		fd, err := unix.Openat(mfd, name, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("covering the secret paths: %w", err)
		}
		defer unix.Close(fd)
		src[k] = fd
	}
	for _, p := range covers {
		fd, err := unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
		if err != nil {
			return fmt.Errorf("covering the secret path %s: %w (it changed since the walk)", p, err)
		}
		var st unix.Stat_t
		err = unix.Fstat(fd, &st)
		cover := src[0]
		switch {
		case err != nil:
		case st.Mode&unix.S_IFMT == unix.S_IFLNK:
			err = errors.New("it is a symbolic link now (it changed since the walk)")
		case st.Mode&unix.S_IFMT == unix.S_IFDIR:
			cover = src[1]
		}
		if err == nil {
			err = unix.Mount("/proc/self/fd/"+strconv.Itoa(cover), "/proc/self/fd/"+strconv.Itoa(fd), "", unix.MS_BIND, "")
		}
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("covering the secret path %s: %w", p, err)
		}
	}
	return nil
}
