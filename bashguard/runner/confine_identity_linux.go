//go:build linux

package runner

import (
	"encoding/json"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// Identity across runs. The walk judges entries by name, and a command may
// rename a secret (mv .env notes.txt) for the next command to read. With
// [Confinement.IdentityFile] set, the runner records the device and inode
// of every entry a walk left out, and a later walk leaves out an entry
// with a recorded identity whatever it is now called. The record holds
// exactly what the last walk hid: an identity no longer found under the
// roots is dropped, so an inode the file system reuses for a new file
// after the secret is deleted is hidden at most until the next walk.

// confineIdentity is a file's identity.
type confineIdentity struct {
	Dev, Ino uint64
}

// confineMaxIdentities bounds the identities recorded.
const confineMaxIdentities = 100_000

// confineLoadIdentities reads the identities recorded in path; a missing
// or unreadable record is empty.
func confineLoadIdentities(path string) map[confineIdentity]bool {
	ids := map[confineIdentity]bool{}
	f, err := os.Open(path)
	if err != nil {
		return ids
	}
	defer f.Close()
	var list []confineIdentity
	if json.NewDecoder(io.LimitReader(f, 8<<20)).Decode(&list) != nil {
		return ids
	}
	for _, id := range list[:min(len(list), confineMaxIdentities)] {
		ids[id] = true
	}
	return ids
}

// confineSaveIdentities replaces the record in path with ids, atomically,
// readable by the user alone.
func confineSaveIdentities(path string, ids []confineIdentity) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".identities-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := json.NewEncoder(tmp).Encode(ids[:min(len(ids), confineMaxIdentities)]); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// confineIdentityOf is the identity of a directory entry, without
// following a link.
func confineIdentityOf(e fs.DirEntry) (confineIdentity, bool) {
	info, err := e.Info()
	if err != nil {
		return confineIdentity{}, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return confineIdentity{}, false
	}
	return confineIdentity{Dev: uint64(st.Dev), Ino: st.Ino}, true
}

// confineIdentityLinks is the identity of a directory entry, without
// following a link, and its count of links.
func confineIdentityLinks(e fs.DirEntry) (confineIdentity, uint64, bool) {
	info, err := e.Info()
	if err != nil {
		return confineIdentity{}, 0, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return confineIdentity{}, 0, false
	}
	return confineIdentity{Dev: uint64(st.Dev), Ino: st.Ino}, uint64(st.Nlink), true
}

// confineSameIdentities reports whether hidden holds exactly the
// identities of known.
func confineSameIdentities(known map[confineIdentity]bool, hidden []confineIdentity) bool {
	seen := make(map[confineIdentity]bool, len(hidden))
	for _, id := range hidden {
		if !known[id] {
			return false
		}
		seen[id] = true
	}
	return len(seen) == len(known)
}
