package bashguard

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// git status, git diff and the other commands that compare the work tree
// with the index run git again in every populated submodule: a gitlink
// entry of the index (mode 160000) whose directory holds a .git, listed
// in .gitmodules or not. That git reads the submodule's own config, so a
// core.fsmonitor set there runs as one set in the repository's config
// does (tried: git status ran it, from an embedded repository and from an
// absorbed one under .git/modules). The keys are read from every
// populated submodule's config, nested ones too, and matched as the
// repository's are; what cannot be read within the bounds asks.

const (
	// maxSubmodules bounds the submodules whose configs are read,
	// nested ones included.
	maxSubmodules = 64
	// maxSubmoduleDepth bounds how deep submodules nest.
	maxSubmoduleDepth = 4
)

// submoduleKeys returns the keys of the configs of the populated
// submodules of the work tree whose top is top, each with the
// submodule's path, or why they cannot all be read.
func submoduleKeys(top string, r *stampRec) ([]gitConfigKey, string) {
	var keys []gitConfigKey
	n := 0
	why := readSubmoduleKeys(&keys, top, "", r, 0, &n)
	return keys, why
}

// readSubmoduleKeys appends the keys of the configs of the populated
// submodules of the work tree at dir (the path rel from the top) to keys,
// n counting the submodules read, and returns why it stopped, or "".
func readSubmoduleKeys(keys *[]gitConfigKey, dir, rel string, r *stampRec, depth int, n *int) string {
	links, err := workTreeGitlinks(dir, r)
	if err != nil {
		where := "the repository's index"
		if rel != "" {
			where = "the index of the submodule " + rel
		}
		return where + " cannot be read for its submodules (" + err.Error() + ")"
	}
	for _, l := range links {
		sub, name := filepath.Join(dir, l), path.Join(rel, l)
		if !r.lexists(filepath.Join(sub, ".git")) {
			continue // not populated: git does not run there
		}
		if *n++; *n > maxSubmodules || depth >= maxSubmoduleDepth {
			return "the repository has more submodules, or nested deeper, than are read here"
		}
		gitDir, common, why := gitDirsRec(sub, r)
		var ks []gitConfigKey
		if why == "" {
			ks, why = dirConfigKeys(gitDir, common, r)
		}
		if why != "" {
			return "the config of the submodule " + name + " " + why
		}
		for _, k := range ks {
			if k.name == "core.worktree" && ownWorkTree(common, k.val, sub) {
				continue // git submodule absorbs every submodule's git directory so
			}
			k.from = name
			*keys = append(*keys, k)
		}
		if why := readSubmoduleKeys(keys, sub, name, r, depth+1, n); why != "" {
			return why
		}
	}
	return ""
}

// workTreeGitlinks returns the gitlink entries of the index of the work
// tree at dir, a split index's shared entries among them (a gitlink
// either holds is a candidate: git runs where one is populated); none
// for a repository without an index.
func workTreeGitlinks(dir string, r *stampRec) ([]string, error) {
	p, hashLen, gitDir, err := indexFile(dir, r)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	links, shared, err := fileGitlinks(p, hashLen, r)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil, nil // a fresh repository tracks nothing
	case err != nil || shared == "" || strings.Trim(shared, "0") == "":
		return links, err // a null name: git reads no shared index (read-cache.c's read_index_from)
	}
	more, _, err := fileGitlinks(filepath.Join(gitDir, "sharedindex."+shared), hashLen, r)
	return append(links, more...), err
}

// fileGitlinks scans the index file p for its gitlinks, streaming it
// through a bounded buffer, and stamps it: a change to it revalidates the
// fact read from it.
func fileGitlinks(p string, hashLen int, r *stampRec) ([]string, string, error) {
	r.add(p, true, false)
	if err := r.missing(p); err != nil {
		return nil, "", err
	}
	f, size, err := openRegular(p)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if size > maxIndexScanBytes {
		return nil, "", errLarger(p, maxIndexScanBytes)
	}
	return scanGitlinks(f, size, hashLen)
}

// indexGitlinks is scanGitlinks of an index held in memory.
func indexGitlinks(b []byte, hashLen int) ([]string, string, error) {
	return scanGitlinks(bytes.NewReader(b), int64(len(b)), hashLen)
}

// maxGitlinkBytes bounds the names of the gitlinks a scan keeps.
const maxGitlinkBytes = 1 << 20

// scanGitlinks returns the names of the gitlink entries (mode 160000: a
// submodule's commit) of the index of size bytes rd holds, whatever the
// number of its entries: each is read only to its name and mode, and
// only the gitlinks' names are kept. For a split index it also returns
// the hex name of the shared index that holds its other entries.
func scanGitlinks(rd io.Reader, size int64, hashLen int) (links []string, shared string, err error) {
	ir, err := newIndexReader(rd, size, hashLen)
	if err != nil {
		return nil, "", err
	}
	kept := 0
	for range ir.entries {
		name, mode, err := ir.next()
		gitlink := mode&0o170000 == 0o160000
		switch {
		case err != nil:
			return nil, "", err
		case len(name) == 0 && !gitlink:
			// A split index's entry that replaces one of the shared
			// index, whose name it takes.
		case !cleanIndexName(name):
			return nil, "", errIndex
		case gitlink:
			if kept += len(name); kept > maxGitlinkBytes {
				return nil, "", errors.New("the git index holds more submodules than are read here")
			}
			links = append(links, string(name))
		}
	}
	shared, err = ir.link()
	return links, shared, err
}

// ownWorkTree reports a core.worktree value, in the config of the git
// directory common, that names the submodule's own directory sub, as the
// config of an absorbed submodule (.git/modules/NAME) always does.
func ownWorkTree(common, val, sub string) bool {
	if !filepath.IsAbs(val) {
		val = filepath.Join(common, val)
	}
	return filepath.Clean(val) == filepath.Clean(sub)
}
