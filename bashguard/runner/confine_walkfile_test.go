//go:build linux

package runner

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/sandbox"
)

// confineWalkTestShell is a Shell as a launcher makes one per process:
// a new sandbox, a walk kept in walkFile.
func confineWalkTestShell(t *testing.T, root, walkFile, key string) *Shell {
	t.Helper()
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(t, err)
	return &Shell{Dir: root, Checker: sb, Confinement: Confinement{WalkFile: walkFile, WalkKey: key}}
}

// confineWalkTestRun runs script in a Shell of its own and returns its
// output.
func confineWalkTestRun(t *testing.T, root, walkFile, key, script string) Result {
	t.Helper()
	res, err := confineWalkTestShell(t, root, walkFile, key).Run(context.Background(), script)
	require.NoError(t, err)
	require.True(t, res.Confined.Enforced, res.Confined.Reason)
	return res
}

// confineWalkTestStamp names the walk file's state, to tell a run that
// took the walk from it (the file unchanged) from one that walked and
// wrote it again.
func confineWalkTestStamp(t *testing.T, path string) string {
	t.Helper()
	fi, err := os.Stat(path)
	require.NoError(t, err, "the walk is recorded")
	return fi.ModTime().String() + "|" + strconv.FormatInt(fi.Size(), 10) + "|" + strconv.FormatUint(fi.Sys().(*syscall.Stat_t).Ino, 10)
}

// A secret that appears between two commands of a session, each run by
// a process of its own that takes the walk from the walk file, is not
// readable by the second: created in place, renamed into place, or a
// hard link made to one. The first command of each pair takes the walk
// from the file (the file is not written again), the second walks again
// because a directory changed.
func TestConfinedWalkFileSeesSecretsMadeBetweenCommands(t *testing.T) {
	confineTestABI(t)
	root := runTestDir(t)
	walkFile := filepath.Join(runTestDir(t), "walk")
	for name, body := range map[string]string{
		".env": "TOKEN=top\n", "made/a.go": "package a\n", "renamed/notes.txt": "PRIVATE\n", "linked/b.go": "package b\n",
	} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(body), 0o644))
	}
	for i, c := range []struct {
		name, read string
		change     func() error
	}{
		{"created", "made/.env", func() error { return os.WriteFile(filepath.Join(root, "made", ".env"), []byte("TOKEN=made\n"), 0o644) }},
		{"renamed", "renamed/id_rsa", func() error {
			return os.Rename(filepath.Join(root, "renamed", "notes.txt"), filepath.Join(root, "renamed", "id_rsa"))
		}},
		{"linked", "linked/env.txt", func() error { return os.Link(filepath.Join(root, ".env"), filepath.Join(root, "linked", "env.txt")) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Past the clock's tick of the last change, the walk is
			// recorded ...
			time.Sleep(confinePlantRecent + 100*time.Millisecond)
			res := confineWalkTestRun(t, root, walkFile, "k", "cat .env 2>&1 | sed 's/^cat: //'")
			assert.Equal(t, ".env: Permission denied\n", res.Output)
			before := confineWalkTestStamp(t, walkFile)
			// ... and the next process takes it from the file.
			res = confineWalkTestRun(t, root, walkFile, "k", "cat made/a.go linked/b.go; cat .env 2>&1 | sed 's/^cat: //'")
			assert.Equal(t, "package a\npackage b\n.env: Permission denied\n", res.Output)
			assert.Equal(t, before, confineWalkTestStamp(t, walkFile), "the second process did not walk")
			assert.Equal(t, 1+i, res.Confined.Secrets, "the recorded count: the top's and those of the cases before")

			require.NoError(t, c.change())
			res = confineWalkTestRun(t, root, walkFile, "k", "cat "+c.read+" 2>&1 | sed 's/^cat: //'")
			assert.Equal(t, c.read+": Permission denied\n", res.Output, "a secret made since the walk was recorded")
		})
	}
}

// A walk file that could have been written by someone else, or by a
// confined command, or for another configuration, is ignored: the roots
// are walked, and the secret stays unreadable. The same bytes in the
// user's private file are taken (they are what the user's own runner
// wrote), which shows the forgery would have granted the secret.
func TestConfinedWalkFileForgedIsIgnored(t *testing.T) {
	confineTestABI(t)
	root := runTestDir(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), []byte("TOKEN=top\n"), 0o644))
	private := runTestDir(t)
	walkFile := filepath.Join(private, "walk")
	time.Sleep(confinePlantRecent + 100*time.Millisecond)
	res := confineWalkTestRun(t, root, walkFile, "k", "cat .env 2>&1 | sed 's/^cat: //'")
	require.Equal(t, ".env: Permission denied\n", res.Output)

	// The forgery: the root granted whole, nothing hidden.
	sh := confineWalkTestShell(t, root, walkFile, "k")
	c := runConfig{roots: []string{root}, checker: sh.Checker, confine: sh.Confinement}
	rec, ok := confineWalkRead(c, walkFile)
	require.True(t, ok, "the runner's own record is read")
	require.NotEmpty(t, rec.Rules)
	rec.Rules, rec.Covers, rec.Secrets = []confineRule{{Path: root, Access: confineAll}}, nil, 0
	forge := func(path string, mode os.FileMode) {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
		// Stamped as the directories are now: only its place and key
		// can tell the forgery.
		nodes, _, ok := confineTreeDecode(rec.Tree, c.roots)
		require.True(t, ok)
		tree := &confineTree{roots: nodes}
		tree.eachNode(func(n *confineNode) {
			st, ok := confineStampOf(n.path)
			require.True(t, ok)
			n.stamped, n.dev, n.ino, n.mtime, n.ctime = true, st.dev, st.ino, st.mtime, st.ctime
		})
		rec.Tree = confineTreeEncode(tree, time.Unix(1<<40, 0)) // none racy
		require.NoError(t, confineWalkWrite(path, rec))
		require.NoError(t, os.Chmod(path, mode))
	}

	open := filepath.Join(runTestDir(t), "open")
	require.NoError(t, os.Mkdir(open, 0o777))
	require.NoError(t, os.Chmod(open, 0o777))
	for _, f := range []struct {
		name, path, key string
		mode            os.FileMode
	}{
		{"writable by others", walkFile, "k", 0o666},
		{"in a directory others may write", filepath.Join(open, "walk"), "k", 0o600},
		{"inside the roots", filepath.Join(root, ".cache", "walk"), "k", 0o600},
		{"for another checker", walkFile, "other", 0o600},
	} {
		t.Run(f.name, func(t *testing.T) {
			forge(f.path, f.mode)
			res := confineWalkTestRun(t, root, f.path, f.key, "cat .env 2>&1 | sed 's/^cat: //'")
			assert.Equal(t, ".env: Permission denied\n", res.Output, "the forged record is ignored")
			assert.Equal(t, 1, res.Confined.Secrets)
		})
	}
	t.Run("private to the user", func(t *testing.T) {
		forge(walkFile, 0o600)
		res := confineWalkTestRun(t, root, walkFile, "k", "cat .env")
		assert.Equal(t, "TOKEN=top\n", res.Output, "only the user could have written this file")
	})
}

// The header's encoding reads back what it wrote, and refuses a header
// cut short or with bytes after it.
func TestConfineWalkEncoding(t *testing.T) {
	rec := &confineWalkRecord{Key: "k", Start: -5, Mounts: "m", Idents: "-",
		Rules:   []confineRule{{Path: "/a", Access: confineAll}, {Path: "/b", Access: 3, Follow: true}},
		Binds:   []string{"/a/.git/config"},
		Secrets: 2,
		Grants:  map[string]confineKeptGrant{"/h": {Rules: []confineRule{{Path: "/h", Access: 1}}, Secrets: 1, Paths: []string{"/h"}, Stamps: [][6]int64{{1, 1, 1, 1, 1, 1}}}},
		Tree:    []byte{1, 2, 3},
	}
	b := confineWalkEncode(nil, rec)
	got, ok := confineWalkDecode(b)
	require.True(t, ok)
	assert.Equal(t, rec, got)
	for _, bad := range [][]byte{b[:len(b)-1], append(bytes.Clone(b), 0), binary.AppendUvarint(nil, 1<<40)} {
		_, ok := confineWalkDecode(bad)
		assert.False(t, ok)
	}
}

// The tree's table gives each directory its path and stamp, and the
// plant check its names from the directory's block: a directory's
// identity, a file's name alone, a link's name, whatever device each
// is on; a node stamped within the clock's tick of the walk is marked
// racy, not stamped.
func TestConfineTreeTable(t *testing.T) {
	far := time.Unix(1<<40, 0)
	sub := &confineNode{path: "/r/sub", stamped: true, plant: true, dev: 1, ino: 20, mtime: unix.Timespec{Sec: 7}, ctime: unix.Timespec{Sec: 8},
		entries: []*confineEntry{{name: "x.go", idOK: true, id: confineIdentity{1, 21}}}}
	root := &confineNode{path: "/r", stamped: true, plant: true, dev: 1, ino: 2, mtime: unix.Timespec{Sec: 3, Nsec: 4},
		ctime: unix.Timespec{Sec: 5, Nsec: 6}, pctime: unix.Timespec{Sec: 5, Nsec: 9}, entries: []*confineEntry{
			{name: ".env", secret: true, idOK: true, id: confineIdentity{1, 9}},
			{name: "a.go", idOK: true, id: confineIdentity{1, 3}},
			{name: "link", symlink: true, id: confineIdentity{1, 12}, target: "../.env"},
			{name: "mnt", dir: true, secret: true, id: confineIdentity{4, 1}},
			{name: "sub", dir: true, idOK: true, id: confineIdentity{1, 20}, child: sub},
		}}
	tree := &confineTree{roots: []*confineNode{root}}
	b := confineTreeEncode(tree, far)
	dirs, ok := confineTreeTable(b, []string{"/r"})
	require.True(t, ok)
	require.Len(t, dirs, 2)
	assert.Equal(t, confineDirStamp{path: "/r", dev: 1, ino: 2, mtime: unix.Timespec{Sec: 3, Nsec: 4}, ctime: unix.Timespec{Sec: 5, Nsec: 6}}, dirs[0].stamp())
	assert.Equal(t, "/r/sub", dirs[1].path)
	assert.Equal(t, 0, dirs[1].parent)
	names, ok := confineTreePlantNames(dirs[0].block, dirs[0].dev)
	require.True(t, ok)
	assert.Equal(t, []confinePlantName{{name: ".env"}, {name: "a.go"}, {name: "link"},
		{name: "mnt", dir: true, id: confineIdentity{4, 1}}, {name: "sub", dir: true, id: confineIdentity{1, 20}}}, names)
	plants := confinePlantsOf([]string{"/r"}, dirs)
	require.Contains(t, plants.dirs, "/r/sub")
	assert.Equal(t, unix.Timespec{Sec: 5, Nsec: 9}, plants.dirs["/r"].ctime)
	_, ok = confineTreePlantNames(dirs[0].block[:len(dirs[0].block)-1], 1)
	assert.False(t, ok, "a block cut short")
	_, ok = confineTreeTable(b, []string{"/other"})
	assert.False(t, ok, "another root")
	_, ok = confineTreeTable(b[:len(b)-1], []string{"/r"})
	assert.False(t, ok, "blocks cut short")

	// Stamped after the walk began: racy.
	dirs, ok = confineTreeTable(confineTreeEncode(tree, time.Unix(0, 0)), []string{"/r"})
	require.True(t, ok)
	assert.Equal(t, uint64(treeNodeRacy|treeNodePlant), dirs[0].flags)
	nodes, entries, ok := confineTreeDecode(b, []string{"/r"})
	require.True(t, ok)
	assert.Equal(t, 6, entries)
	assert.Equal(t, tree.roots, nodes)
}
