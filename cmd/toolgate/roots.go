package main

import (
	"path/filepath"
	"strings"
)

// systemDirs are locations no settings file may make a root: the system's
// own files, its devices and its processes.
var systemDirs = []string{
	"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/root", "/run", "/sbin",
	"/sys", "/usr", "/var", "/snap", "/System", "/Library", "/private", "/Applications", "/cores", "/Volumes",
}

// tempDirs are folders for temporary files inside system locations
// (macOS keeps them under /var and /private): their subfolders may be
// roots.
var tempDirs = []string{"/var/tmp", "/var/folders", "/private/tmp", "/private/var/tmp", "/private/var/folders"}

// credentialDirs are folders of the home directory that hold keys,
// tokens and the agents' own configuration.
var credentialDirs = []string{
	".ssh", ".gnupg", ".aws", ".azure", ".config", ".kube", ".docker", ".gcloud", ".local/share/keyrings",
	".password-store", ".claude", ".mozilla", ".thunderbird", ".pki", ".terraform.d", ".vault-token",
	"Library/Keychains", ".netrc", ".npmrc", ".pypirc", ".git-credentials",
}

// forbiddenRoot says why dir may not be a root, or returns "": the file
// system's root, the home directory as a whole or a parent of it, a
// system location, or a credential folder of the home directory (or a
// folder inside one). dir is absolute and clean; callers check both the
// path as written and the path its links lead to.
func forbiddenRoot(dir, home string) string {
	dir = filepath.Clean(dir)
	if dir == "/" {
		return "the file system's root would admit every path"
	}
	if home != "" {
		home = filepath.Clean(home)
		if dir == home || within(home, dir) {
			return "the home directory as a whole holds keys and credentials"
		}
		for _, c := range credentialDirs {
			if d := filepath.Join(home, c); dir == d || within(dir, d) {
				return "it holds credentials or the agents' own configuration"
			}
		}
	}
	for _, t := range tempDirs {
		if within(dir, t) {
			return ""
		}
	}
	for _, s := range systemDirs {
		if dir == s || within(dir, s) {
			return "it is a system location"
		}
	}
	return ""
}

// within reports whether p lies strictly inside dir.
func within(p, dir string) bool {
	return strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
