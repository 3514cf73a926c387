package sandbox

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
	"Library/Keychains", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".local/bin", ".local/state",
}

// RefuseRoot says why dir may not be a root that a settings file names
// (Claude Code's additionalDirectories), or returns "": the file system's
// root, the home directory as a whole or a parent of it, a system
// location, or a credential or configuration folder of the home directory
// (or a folder inside one). Both the path as written and the path its
// links lead to are judged; dir must be absolute. Every front door
// ([github.com/toolgate/toolgate/runtime.Open] and "toolgate check")
// leaves such a directory out, which only narrows.
func RefuseRoot(dir, home string) string {
	if why := refuseRoot(filepath.Clean(dir), home); why != "" {
		return why
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		return refuseRoot(real, home)
	}
	return ""
}

func refuseRoot(dir, home string) string {
	if dir == "/" {
		return "the file system's root would admit every path"
	}
	if home != "" {
		homes := []string{filepath.Clean(home)}
		if h, err := filepath.EvalSymlinks(home); err == nil && h != homes[0] {
			homes = append(homes, h)
		}
		for _, home := range homes {
			if dir == home || strictlyWithin(home, dir) {
				return "the home directory as a whole holds keys and credentials"
			}
			for _, c := range credentialDirs {
				if d := filepath.Join(home, c); dir == d || strictlyWithin(dir, d) {
					return "it holds credentials or the agents' own configuration"
				}
			}
		}
	}
	for _, t := range tempDirs {
		if strictlyWithin(dir, t) {
			return ""
		}
	}
	for _, s := range systemDirs {
		if dir == s || strictlyWithin(dir, s) {
			return "it is a system location"
		}
	}
	return ""
}

// strictlyWithin reports whether p lies strictly inside dir.
func strictlyWithin(p, dir string) bool {
	return strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
