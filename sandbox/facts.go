package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"

	"github.com/toolgate/toolgate/internal/safefile"
	"github.com/toolgate/toolgate/internal/wire"
)

// A facts file keeps the search for the protected and secret locations
// (identity.go) between processes. A hook that runs once per call (toolgate
// check) would otherwise walk the roots on every call: in a tree of 100,000
// files, thousands of directory reads a call. The file holds the last
// search and everything it read; a new process loads it as a forgotten
// search (a command may have run since), and the first judgement
// revalidates it with one stat of each directory and file the search read,
// then searches afresh only when one has changed.
//
// The file is trusted only as far as its place is: it must be a regular
// file (not a link) owned by this process's user, neither it nor its
// directory writable by anyone else, and it must name the same roots,
// working directory, home directory and lists; anything else is ignored
// and the roots are searched. A host puts it where the agent cannot write
// (toolgate check: its state directory, whose placement inside the roots
// it refuses).

// factsVersion changes whenever the file's meaning does.
const factsVersion = 2

// maxFactsBytes bounds the file: a search records at most maxWalk
// directories and a few thousand files.
const maxFactsBytes = 32 << 20

type factsWatch struct {
	Path   string
	Exists bool
	Dev    uint64
	Ino    uint64
	Ctime  int64
	Size   int64
}

type factsAnchor struct {
	Loc    string
	Real   string
	Secret bool
	Pat    string
}

type factsFileID struct {
	Dev    uint64
	Ino    uint64
	Anchor factsAnchor
}

type factsData struct {
	Version  int
	Key      string
	Start    int64
	Complete bool
	Moved    []factsAnchor
	Files    []factsFileID
	Watches  []factsWatch
	Reads    []factsWatch
}

// factsKey names what a search depends on besides the files: a search
// made for other roots or lists is never loaded.
func factsKey(s *Sandbox, protected, secret []string) string {
	b := wire.AppendUvarint([]byte(factsMagic), factsVersion)
	for _, list := range [][]string{s.roots, {s.workDir, s.home}, protected, secret, s.stateDirs} {
		b = wire.AppendUvarint(b, uint64(len(list)))
		for _, e := range list {
			b = wire.AppendString(b, e)
		}
	}
	b = wire.AppendUvarint(b, uint64(os.Geteuid()))
	b = wire.AppendBool(wire.AppendBool(b, protected == nil), secret == nil)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func toFactsWatches(ws []watch) []factsWatch {
	out := make([]factsWatch, len(ws))
	for i, w := range ws {
		out[i] = factsWatch{w.path, w.exists, w.dev, w.ino, w.ctime, w.size}
	}
	return out
}

func fromFactsWatches(ws []factsWatch) []watch {
	out := make([]watch, len(ws))
	for i, w := range ws {
		out[i] = watch{path: w.Path, exists: w.Exists, dev: w.Dev, ino: w.Ino, ctime: w.Ctime, size: w.Size}
	}
	return out
}

func toFactsAnchor(a anchor) factsAnchor { return factsAnchor{a.loc, a.real, a.secret, a.pat} }

func fromFactsAnchor(a factsAnchor) anchor {
	return anchor{loc: a.Loc, real: a.Real, secret: a.Secret, pat: a.Pat}
}

// saveFacts writes ids to the sandbox's facts file, when it has one and
// the search can be revalidated (a racy search is made again anyway).
// Failing to write costs only the next process a search.
func (s *Sandbox) saveFacts(ids *identities) {
	if s.factsFile == "" || ids.racy {
		return
	}
	d := factsData{Version: factsVersion, Key: s.factsKey, Start: ids.start, Complete: ids.complete,
		Watches: toFactsWatches(ids.watches), Reads: toFactsWatches(ids.reads), Moved: []factsAnchor{}, Files: []factsFileID{}}
	for _, a := range ids.moved {
		d.Moved = append(d.Moved, toFactsAnchor(a))
	}
	for id, a := range ids.files {
		d.Files = append(d.Files, factsFileID{id.dev, id.ino, toFactsAnchor(a)})
	}
	b := encodeFacts(&d)
	if len(b) > maxFactsBytes {
		return
	}
	dir := filepath.Dir(s.factsFile)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(dir, ".facts-*")
	if err != nil {
		return
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil {
		return
	}
	_ = os.Rename(tmp.Name(), s.factsFile)
	s.saveListings(ids)
}

// loadFacts returns the search the sandbox's facts file holds, forgotten
// (to be revalidated before use), or nil when there is none it can trust.
func (s *Sandbox) loadFacts() *identities {
	if s.factsFile == "" {
		return nil
	}
	b, err := safefile.ReadPrivate(s.factsFile, maxFactsBytes)
	if err != nil {
		return nil
	}
	d, err := decodeFacts(b)
	if err != nil || d.Version != factsVersion || d.Key != s.factsKey {
		return nil
	}
	ids := &identities{files: make(map[fileID]anchor, len(d.Files)), complete: d.Complete, start: d.Start,
		watches: fromFactsWatches(d.Watches), reads: fromFactsWatches(d.Reads), forgotten: true, cover: &idsCover{}, search: &searchMark{}}
	for _, a := range d.Moved {
		ids.moved = append(ids.moved, fromFactsAnchor(a))
	}
	for _, x := range d.Files {
		ids.files[fileID{x.Dev, x.Ino}] = fromFactsAnchor(x.Anchor)
	}
	return ids
}

// inRoots reports whether p, or where its directory resolves, lies inside
// a root.
func (s *Sandbox) inRoots(p string) bool {
	if s.rootOf(p) >= 0 {
		return true
	}
	d, err := filepath.EvalSymlinks(filepath.Dir(p))
	return err == nil && s.rootOf(filepath.Join(d, filepath.Base(p))) >= 0
}
