package bashguard

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// bigIndexName is the name of the entry i of a large index: long, as a
// monorepo's paths are, in many directories.
func bigIndexName(i int) string {
	return fmt.Sprintf("src/module-%03d/package-%03d/a-rather-long-file-name-%07d.go", i/10000, i/100%100, i)
}

// bigIndexRepo makes a repository whose index git writes with n entries
// (an empty blob each, none in the work tree), in one update-index.
func bigIndexRepo(t testing.TB, n int) string {
	t.Helper()
	ws := filepath.Join(t.TempDir(), "ws")
	require.NoError(t, os.Mkdir(ws, 0o755))
	gitIn(t, ws, "init", "-q")
	blob := strings.TrimSpace(gitInput(t, ws, "", "hash-object", "-w", "--stdin"))
	var in strings.Builder
	for i := range n {
		in.WriteString("100644 " + blob + "\t" + bigIndexName(i) + "\n")
	}
	gitInput(t, ws, in.String(), "update-index", "--index-info")
	return ws
}

// An index far over the bound of the tracked paths' reader (200,000
// entries git writes, over 16 MiB) has its gitlinks scanned all the same:
// git status is allowed, and a gitlink whose submodule's config sets
// core.fsmonitor asks, naming it, in versions 2 and 4 and split, for git
// diff too (which asks in any case: it prints every tracked file, more
// than the guard judges for one command). A truncated index, one with an unclean name, one over the
// scan's bound and a FIFO in its place ask: the scan fails closed.
func TestGitLargeIndexSubmodules(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: git is not installed, so no large index can be made to judge: " + err.Error())
	}
	ws := bigIndexRepo(t, 200_000)
	index := filepath.Join(ws, ".git", "index")
	orig, err := os.ReadFile(index)
	require.NoError(t, err)
	require.Greater(t, len(orig), maxIndexBytes, "the index is larger than the in-memory reader's bound")
	g := New(DefaultPolicy())
	judge := func(script string) Verdict {
		t.Helper()
		root := filepath.Dir(ws)
		return g.Judge(context.Background(), ws, CheckerJudge(rootChecker{dir: root, roots: []string{root}}), script)
	}
	allowed := func(why string) {
		t.Helper()
		v := judge("git status")
		assert.Equal(t, permission.Allow, v.Decision, "%s: %s", why, v.Reason)
		assert.Equal(t, RuleSafe, v.Rule, "%s: %s", why, v.Reason)
		assert.Equal(t, "every command is read-only and on the safe list", v.Reason, why)
	}
	asks := func(why, reason string) {
		t.Helper()
		v := judge("git status")
		assert.Equal(t, permission.Ask, v.Decision, "%s: %s", why, v.Reason)
		assert.Contains(t, v.Reason, reason, why)
	}
	allowed("a large index without gitlinks")
	v := judge("git diff")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Equal(t, RuleGitContent, v.Rule, v.Reason)
	assert.Equal(t, "git: git diff prints the content of the tracked files, and the repository's index, which says which files those are, cannot be read here", v.Reason,
		"git diff, whose tracked files are more than the guard judges")

	sub := filepath.Join(ws, "vendor", "sub")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	gitIn(t, sub, "init", "-q")
	gitIn(t, sub, "commit", "-q", "--allow-empty", "-m", "sub")
	head := strings.TrimSpace(gitIn(t, sub, "rev-parse", "HEAD"))
	gitIn(t, ws, "update-index", "--add", "--cacheinfo", "160000,"+head+",vendor/sub")
	allowed("a large index whose submodule's config sets no program")

	const fsmonitor = "the config of the submodule vendor/sub sets core.fsmonitor, which makes git status run a program"
	gitIn(t, sub, "config", "core.fsmonitor", "/tmp/x")
	asks("a large index's submodule with core.fsmonitor", fsmonitor)
	v = judge("git diff")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "the config of the submodule vendor/sub sets core.fsmonitor", "git diff")

	orig, err = os.ReadFile(index) // with the gitlink
	require.NoError(t, err)
	gitIn(t, ws, "update-index", "--index-version", "4")
	asks("a large version 4 index", fsmonitor)
	gitIn(t, ws, "update-index", "--split-index")
	asks("a large split index, the gitlink in its shared index", fsmonitor)
	gitIn(t, ws, "update-index", "--no-split-index")

	gitIn(t, sub, "config", "--unset", "core.fsmonitor")
	const unread = "the repository's index cannot be read for its submodules ("
	at := bytes.Index(orig, []byte(bigIndexName(100_000)))
	require.Positive(t, at, "the name of an entry in the middle")
	unclean := bytes.Clone(orig)
	copy(unclean[at:], "../")
	for _, tc := range []struct {
		name   string
		write  func() error
		reason string
	}{
		{"truncated", func() error { return os.WriteFile(index, orig[:len(orig)/2], 0o644) }, unread + "the git index cannot be read)"},
		{"an unclean name in the middle", func() error { return os.WriteFile(index, unclean, 0o644) }, unread + "the git index cannot be read)"},
		{"over the scan's bound (sparse)", func() error { return os.Truncate(index, maxIndexScanBytes+1) },
			unread + index + " is larger than " + strconv.Itoa(maxIndexScanBytes) + " bytes)"},
		{"a FIFO", func() error {
			if err := os.Remove(index); err != nil {
				return err
			}
			return syscall.Mkfifo(index, 0o644)
		}, unread + index + " is not a regular file)"},
	} {
		require.NoError(t, tc.write(), tc.name)
		asks(tc.name, tc.reason)
		require.NoError(t, os.Remove(index))
		require.NoError(t, os.WriteFile(index, orig, 0o644))
		allowed("the index restored after " + tc.name)
	}

	// The fact is kept while the index does not change, which it is
	// stamped for, and read again when it does: a gitlink added to it
	// whose submodule already sets core.fsmonitor asks.
	other := filepath.Join(ws, "vendor", "other")
	require.NoError(t, os.MkdirAll(other, 0o755))
	gitIn(t, other, "init", "-q")
	gitIn(t, other, "commit", "-q", "--allow-empty", "-m", "other")
	gitIn(t, other, "config", "core.fsmonitor", "/tmp/x")
	g = New(DefaultPolicy())
	g.ws.noTTL = true
	allowed("a kept fact, before the index changes")
	keys := g.ws.configKeys(ws)
	assert.Same(t, keys, g.ws.configKeys(ws), "the keys are read once")
	f := g.ws.facts[factKey{kind: "keys", a: ws}]
	require.NotNil(t, f)
	assert.True(t, slices.ContainsFunc(f.stamps, func(s fileStamp) bool { return s.path == index }), "the index is stamped")
	head = strings.TrimSpace(gitIn(t, other, "rev-parse", "HEAD"))
	gitIn(t, ws, "update-index", "--add", "--cacheinfo", "160000,"+head+",vendor/other")
	asks("a gitlink added to the index of a kept fact", "the config of the submodule vendor/other sets core.fsmonitor")
}

// appendIndexEntry appends a version 2 entry of the name and mode, as git
// lays one out, with a zero hash.
func appendIndexEntry(b []byte, name string, mode uint32) []byte {
	start := len(b)
	b = append(b, make([]byte, 24)...)
	b = binary.BigEndian.AppendUint32(b, mode)
	b = append(b, make([]byte, 12+20)...)
	b = binary.BigEndian.AppendUint16(b, uint16(min(len(name), 0xfff)))
	b = append(b, name...)
	for pad := (len(b) - start + 8) &^ 7; len(b)-start < pad; {
		b = append(b, 0)
	}
	return b
}

// writeIndexFile writes a version 2 index of at least size bytes, of
// bigIndexName's entries and a gitlink last, and returns its length.
func writeIndexFile(t testing.TB, p string, size int64) int64 {
	t.Helper()
	entry := int64(len(appendIndexEntry(nil, bigIndexName(0), 0o100644)))
	n := int(size/entry) + 1
	f, err := os.Create(p)
	require.NoError(t, err)
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	b := binary.BigEndian.AppendUint32([]byte("DIRC\x00\x00\x00\x02"), uint32(n+1))
	for i := range n {
		b = appendIndexEntry(b, bigIndexName(i), 0o100644)
		if len(b) > 1<<16 {
			_, err = w.Write(b)
			require.NoError(t, err)
			b = b[:0]
		}
	}
	b = appendIndexEntry(b, "vendor/sub", 0o160000)
	b = append(b, make([]byte, 20)...)
	_, err = w.Write(b)
	require.NoError(t, err)
	require.NoError(t, w.Flush())
	fi, err := f.Stat()
	require.NoError(t, err)
	return fi.Size()
}

// BenchmarkScanGitlinks scans the gitlinks of an index git writes with
// 200,000 entries, and of one at the scan's bound (written here, not by
// git): the time grows with the file, the memory does not.
func BenchmarkScanGitlinks(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("SKIP: git is not installed, so no large index can be made to scan: " + err.Error())
	}
	bound := filepath.Join(b.TempDir(), "index")
	for _, bc := range []struct {
		name string
		path func() (string, int64)
	}{
		{"git-200k-entries", func() (string, int64) {
			p := filepath.Join(bigIndexRepo(b, 200_000), ".git", "index")
			fi, err := os.Stat(p)
			require.NoError(b, err)
			return p, fi.Size()
		}},
		{"at-the-bound-512MiB", func() (string, int64) {
			return bound, writeIndexFile(b, bound, maxIndexScanBytes-1<<20)
		}},
	} {
		p, size := bc.path()
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := fileGitlinks(p, 20, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		if p == bound {
			require.NoError(b, os.Remove(bound))
		}
	}
}

// gitlinksBySlice is the reading of an index's gitlinks by offsets into
// the whole file in memory, which the streaming scan replaced: the fuzz
// test holds the scan to it. It mirrors the scan's bound on a name.
func gitlinksBySlice(b []byte, hashLen int) (links []string, shared string, ok bool) {
	if len(b) < 12 || string(b[:4]) != "DIRC" {
		return nil, "", false
	}
	version := binary.BigEndian.Uint32(b[4:8])
	if version < 2 || version > 4 {
		return nil, "", false
	}
	off, prev := 12, ""
	for range binary.BigEndian.Uint32(b[8:12]) {
		name, mode, next, ok := entryBySlice(b, off, hashLen, version, prev)
		gitlink := mode&0o170000 == 0o160000
		switch {
		case !ok:
			return nil, "", false
		case name == "" && !gitlink:
		case !cleanIndexName(name):
			return nil, "", false
		case gitlink:
			links = append(links, name)
		}
		prev, off = name, next
	}
	for off+8 <= len(b)-hashLen {
		size := int(binary.BigEndian.Uint32(b[off+4:]))
		if off+8+size > len(b) {
			return nil, "", false
		}
		if string(b[off:off+4]) == "link" {
			if size < hashLen {
				return nil, "", false
			}
			return links, hex.EncodeToString(b[off+8 : off+8+hashLen]), true
		}
		off += 8 + size
	}
	return links, "", true
}

// entryBySlice reads the entry at off for gitlinksBySlice.
func entryBySlice(b []byte, off, hashLen int, version uint32, prev string) (string, uint32, int, bool) {
	start := off
	if off+40+hashLen+2 > len(b) {
		return "", 0, 0, false
	}
	mode := binary.BigEndian.Uint32(b[off+24:])
	off += 40 + hashLen
	flags := binary.BigEndian.Uint16(b[off:])
	off += 2
	if flags&0x4000 != 0 {
		if version < 3 || off+2 > len(b) {
			return "", 0, 0, false
		}
		off += 2
	}
	var strip uint64
	if version == 4 {
		var k int
		strip, k = binary.Uvarint(b[off:])
		if k <= 0 || strip > uint64(len(prev)) {
			return "", 0, 0, false
		}
		off += k
	}
	end := bytes.IndexByte(b[off:], 0)
	if end < 0 {
		return "", 0, 0, false
	}
	if version == 4 {
		name := prev[:len(prev)-int(strip)] + string(b[off:off+end])
		return name, mode, off + end + 1, len(name) <= maxIndexName
	}
	name := string(b[off : off+end])
	off = start + (off-start+end+8)&^7
	return name, mode, off, off <= len(b) && len(name) <= maxIndexName
}
