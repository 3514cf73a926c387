package sandbox

import (
	"bytes"

	"github.com/toolgate/toolgate/internal/mountinfo"
)

// Mounts inside the roots.
//
// A mount inside a root brings another file system's files (or, with a
// bind mount, another directory's: ~/.aws, a .git/hooks, a .claude) under
// the root's names, and a bind mount keeps their device and inode, so
// neither the names nor the identities tell them from the root's own. So
// the mount points beneath the roots are read once, when the Sandbox is
// built (from /proc/self/mountinfo on Linux), and a path on one of them
// is judged as outside every root unless the mount point is itself a
// root, or lies above the root that holds the path. Mounting needs
// privileges a tool call does not get; a mount made later in the session
// is not seen.

// maxMountInfo bounds the bytes of the mount table read.
const maxMountInfo = 4 << 20

// innerMounts returns the mount points of the table that lie strictly
// beneath one of roots and are not roots themselves.
func innerMounts(table []byte, roots []string) []string {
	var out []string
	for line := range bytes.SplitSeq(table, []byte("\n")) {
		// id parent major:minor root mount-point options ...
		f := bytes.Fields(line)
		if len(f) < 5 {
			continue
		}
		mp := mountinfo.Unescape(string(f[4]))
		isRoot, inside := false, false
		for _, r := range roots {
			isRoot = isRoot || mp == r
			inside = inside || mp != r && within(mp, r)
		}
		if inside && !isRoot {
			out = append(out, mp)
		}
	}
	return out
}

// otherMount returns the mount point of a mount beneath the roots that
// holds the resolved path r and is not its root's own, or "".
func (s *Sandbox) otherMount(r string) string {
	for _, mp := range s.mounts {
		if !within(r, mp) {
			continue
		}
		// The innermost root holding r: if it lies at or beneath the
		// mount point, r is on its root's own mount.
		own := false
		for _, root := range s.roots {
			own = own || within(r, root) && within(root, mp)
		}
		if !own {
			return mp
		}
	}
	return ""
}

// MountBeneath returns a mount point strictly beneath the resolved
// directory dir on which a path is judged as outside every root (see
// otherMount): a search of dir descends into it and reads what the mount
// brings (a bound ~/.aws), which no path of it could be read as. A nil
// *Sandbox knows none.
func (s *Sandbox) MountBeneath(dir string) (string, bool) {
	if s == nil {
		return "", false
	}
	for _, mp := range s.mounts {
		if mp != dir && within(mp, dir) && s.otherMount(mp) != "" {
			return mp, true
		}
	}
	return "", false
}
