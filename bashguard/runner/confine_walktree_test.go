//go:build linux

package runner

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/sandbox"
)

// confineWalkTreeMutate changes the project under root at random: a file
// (a secret's name among them), a directory, a link (dangling, to a
// secret, to a directory), a hard link (to a secret or not), a removal
// or a rename. It returns what it did, for the failure message.
func confineWalkTreeMutate(rng *rand.Rand, root string) string {
	names := []string{"a", "b", "c", ".env", "id_rsa", "CLAUDE.md", ".git", "config", "hooks", "x.go", ".github", "workflows", "notes.txt"}
	var dirs, files []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.IsDir():
			dirs = append(dirs, p)
		case d.Type().IsRegular():
			files = append(files, p)
		}
		return nil
	})
	pick := func(list []string) string { return list[rng.IntN(len(list))] }
	// A hard link made where the walk does not list (in a secret
	// directory, outside the roots) changes no stamp the record holds,
	// for a record taken unchanged as for one walked again: links are
	// made in walked directories only.
	var walked []string
	for _, d := range dirs {
		if !strings.Contains(d+"/", "/.env/") && !strings.Contains(d+"/", "/id_rsa/") {
			walked = append(walked, d)
		}
	}
	p := filepath.Join(pick(dirs), pick(names))
	switch rng.IntN(11) {
	case 0, 1:
		_ = os.Mkdir(p, 0o755)
		return "mkdir " + p
	case 2, 3:
		_ = os.WriteFile(p, []byte("x\n"), 0o644)
		return "write " + p
	case 4:
		if p != root {
			_ = os.RemoveAll(p)
		}
		return "remove " + p
	case 5:
		q := filepath.Join(pick(dirs), pick(names))
		if !strings.HasPrefix(q+"/", p+"/") {
			_ = os.Rename(p, q)
		}
		return "rename " + p + " " + q
	case 6:
		target := pick([]string{"../.env", "nowhere", ".", "id_rsa", "../a"})
		_ = os.Symlink(target, p)
		return "symlink " + target + " " + p
	case 7:
		if len(files) > 0 {
			f, q := pick(files), filepath.Join(pick(walked), pick(names))
			_ = os.Link(f, q)
			return "link " + f + " " + q
		}
	case 8:
		// A secret renamed to a plain name: hidden by its identity.
		if len(files) > 0 {
			f := pick(files)
			q := filepath.Join(pick(dirs), "plain.txt")
			_ = os.Rename(f, q)
			return "rename " + f + " " + q
		}
	case 10:
		// A hard link to a file under a secret's name: the file, where
		// it was, is hidden from the next walk on by its identity.
		if len(files) > 0 {
			f := pick(files)
			q := filepath.Join(pick(walked), pick([]string{".env", "id_rsa"}))
			_ = os.Link(f, q)
			return "link " + f + " " + q
		}
	case 9:
		// A file of a directory changed in place: no directory moves.
		if len(files) > 0 {
			f := pick(files)
			_ = os.WriteFile(f, []byte("y\n"), 0o644)
			return "rewrite " + f
		}
	}
	return "nothing"
}

// TestConfineWalkFileMatchesAWalk changes a project at random between
// processes that keep the walk in a walk file, and compares what each
// takes from it (the record unchanged, or the tree walked again where it
// changed) with a walk from scratch that judges by the same recorded
// identities: the rules, the binds, the count of secrets, the hidden
// identities and the plant snapshot.
func TestConfineWalkFileMatchesAWalk(t *testing.T) {
	confineTestABI(t)
	root := runTestDir(t)
	private := runTestDir(t)
	sb, err := sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
	require.NoError(t, err)
	c := runConfig{bash: DefaultBash, dir: root, roots: []string{root}, checker: sb, maxProcs: DefaultMaxProcs,
		confine: Confinement{Protect: []string{"CLAUDE.md"}, WalkFile: filepath.Join(private, "walk"),
			IdentityFile: filepath.Join(private, "identities.json")}}
	rng := rand.New(rand.NewPCG(confineWalkTreeSeed(), 4))
	for range 40 {
		confineWalkTreeMutate(rng, root)
	}
	// Past the clock's tick: the first record's stamps are trusted.
	time.Sleep(confinePlantRecent + 100*time.Millisecond)
	var fast, incremental, fresh, relisted int
	var did []string
	for step := range 250 {
		did = append(did, confineWalkTreeMutate(rng, root))
		if step%25 == 24 {
			// Past the tick again: most directories are unchanged since
			// the record.
			time.Sleep(confinePlantRecent + 100*time.Millisecond)
		} else {
			time.Sleep(10 * time.Millisecond)
		}
		// A checker of its own, as each process makes one.
		c.checker, err = sandbox.New(sandbox.Config{Roots: []string{root}, WorkDir: root})
		require.NoError(t, err)
		known := confineLoadIdentities(c.confine.IdentityFile)
		want, err := confineWalkRoots(c, nil, known)
		require.NoError(t, err)

		rec, _ := confineWalkRead(c, c.confine.WalkFile)
		got, run, err := confineKeptRoots(c, rec)
		require.NoError(t, err)
		require.Equal(t, want.rules, got.rules, "step %d: rules after %q", step, did[max(0, len(did)-3):])
		require.Equal(t, want.binds, got.binds, "step %d: binds after %q", step, did[max(0, len(did)-3):])
		require.Equal(t, want.secrets, got.secrets, "step %d: secrets after %q", step, did[max(0, len(did)-3):])
		require.Equal(t, confineWalkTreePlants(want.plants), confineWalkTreePlants(got.plants), "step %d: plants after %q", step, did[max(0, len(did)-3):])
		switch {
		case run == nil:
			fast++
		case run.incremental:
			incremental++
			relisted += run.tree.relisted
			require.Equal(t, want.hidden, got.hidden, "step %d: hidden identities after %q", step, did[max(0, len(did)-3):])
		default:
			fresh++
			require.Equal(t, want.hidden, got.hidden, "step %d: hidden identities after %q", step, did[max(0, len(did)-3):])
		}
	}
	t.Logf("of 250 processes: %d took the record unchanged, %d walked it again where it changed (%d directories listed again), %d walked from scratch",
		fast, incremental, relisted, fresh)
	// A symbolic link made, changed or removed makes the next process
	// walk from scratch (one mutation in eleven, and the removals of
	// directories holding one); so did the first.
	require.Greater(t, incremental, 150, "most processes walk again only where the project changed")
	require.Less(t, fresh, 40)
}

// confineWalkTreePlants is what a plant snapshot records, as plain
// values.
func confineWalkTreePlants(s *confinePlantSnap) map[string]confinePlantDir {
	out := map[string]confinePlantDir{}
	for p, d := range s.dirs {
		d.fill(s)
		// No names are no names, however they were read.
		out[p] = confinePlantDir{at: d.at, id: d.id, ctime: d.ctime, names: slices.Clip(d.names)}
		if len(d.names) == 0 {
			out[p] = confinePlantDir{at: d.at, id: d.id, ctime: d.ctime}
		}
	}
	return out
}

// confineWalkTreeSeed is the seed of the random changes:
// $TOOLGATE_TEST_SEED, else 3.
func confineWalkTreeSeed() uint64 {
	if n, err := strconv.ParseUint(os.Getenv("TOOLGATE_TEST_SEED"), 10, 64); err == nil {
		return n
	}
	return 3
}

// FuzzConfineWalkDecode reads any bytes as a walk file's header and as
// its tree: what decodes encodes again to what decodes the same, and a
// decoded tree holds only what a walk makes (names that are names, in
// order, a node only below a directory that may be granted).
func FuzzConfineWalkDecode(f *testing.F) {
	roots := []string{"/r"}
	tree := &confineTree{roots: []*confineNode{{path: "/r", stamped: true, plant: true, dev: 1, ino: 2,
		mtime: unix.Timespec{Sec: 3, Nsec: 4}, ctime: unix.Timespec{Sec: 5, Nsec: 6}, entries: []*confineEntry{
			{name: ".env", secret: true, idOK: true, id: confineIdentity{1, 9}},
			{name: ".git", dir: true, id: confineIdentity{1, 7}, child: &confineNode{path: "/r/.git", at: confineWalkAt{inGit: true}, unlisted: true}},
			{name: "link", symlink: true, target: "../.env"},
			{name: "src", dir: true, bind: true, id: confineIdentity{1, 8}, child: &confineNode{path: "/r/src", at: confineWalkAt{readOnly: true}}},
		}}}}
	far := time.Unix(1<<40, 0)
	rec := &confineWalkRecord{Key: "k", Start: -5, Mounts: "m", Idents: "-", Known: []confineIdentity{{1, 9}},
		Rules: []confineRule{{Path: "/r", Access: confineAll}}, Binds: []string{"/r/src"}, Secrets: 1,
		Tree: confineTreeEncode(tree, far)}
	f.Add(confineWalkEncode(nil, rec))
	f.Add(rec.Tree)
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, ok := confineWalkDecode(b); ok {
			again, ok := confineWalkDecode(confineWalkEncode(nil, got))
			require.True(t, ok)
			require.Equal(t, got, again)
		}
		if dirs, ok := confineTreeTable(b, roots); ok {
			// The table alone, as a process that finds nothing changed
			// reads it: every path below its parent's, every block
			// read or refused.
			for i, d := range dirs {
				require.True(t, d.parent < i)
				if d.parent >= 0 {
					require.Equal(t, dirs[d.parent].path+"/"+d.name, d.path)
				}
				confineTreePlantNames(d.block, d.dev)
			}
		}
		nodes, entries, ok := confineTreeDecode(b, roots)
		if !ok {
			return
		}
		count := 0
		var check func(n *confineNode)
		check = func(n *confineNode) {
			for i, e := range n.entries {
				count++
				require.True(t, confineTreeName(e.name))
				require.True(t, i == 0 || n.entries[i-1].name < e.name)
				require.Equal(t, e.child != nil, e.dir && !e.secret && !e.symlink)
				if e.child != nil {
					require.Equal(t, n.path+"/"+e.name, e.child.path)
					check(e.child)
				}
			}
		}
		for _, n := range nodes {
			check(n)
		}
		require.Equal(t, count, entries)
		back, entries2, ok := confineTreeDecode(confineTreeEncode(&confineTree{roots: nodes}, far), roots)
		require.True(t, ok)
		require.Equal(t, entries, entries2)
		require.Equal(t, nodes, back)
	})
}
