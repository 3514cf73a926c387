//go:build linux

package runner

import (
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// A repository the command creates inside the roots. git init and git
// clone write .git/config and .git/hooks/, two of the entries the plant
// check moves aside (git runs what they name, with the user's rights,
// the next time the user runs git there), which left such a repository
// without its configuration. What git itself writes there runs nothing:
// a config of format, remote and branch keys, and hooks named *.sample,
// which git never runs. So the check keeps a new config or hooks
// directory whose content is only that, and moves aside any other; from
// the next run on, the walk finds the new git directory and binds both
// read-only, as it does the roots' own, so they cannot be changed later.

// confineGitNewConfigKeys are the keys a git directory's new config (or
// config.worktree) may hold and be kept, as section.key, with "*" for a
// subsection, in lower case (git's section and key names are not case
// sensitive): what git init, git clone and git config user.* write, none
// of which names a program, a hook directory, an include, a work tree
// elsewhere or a filter. A value, when its key has a check, must pass it.
var confineGitNewConfigKeys = map[string]func(value string) bool{
	"core.repositoryformatversion": nil,
	"core.filemode":                nil,
	"core.bare":                    nil,
	"core.logallrefupdates":        nil,
	"core.ignorecase":              nil,
	"core.precomposeunicode":       nil,
	"core.symlinks":                nil,
	"extensions.objectformat":      nil,
	"extensions.refstorage":        nil,
	"user.name":                    nil,
	"user.email":                   nil,
	"remote.*.url":                 confineGitPlainURL,
	"remote.*.fetch":               nil,
	"branch.*.remote":              nil,
	"branch.*.merge":               nil,
}

// confineGitPlainURL refuses a remote URL that makes git run a program
// to fetch: a transport helper ("ext::sh -c …", any "<helper>::…") or
// one read as an option.
func confineGitPlainURL(url string) bool {
	return !strings.Contains(url, "::") && !strings.HasPrefix(url, "-")
}

// confineGitNewMaxBytes bounds the new config the check reads (git
// init's is under 200 bytes, a clone's under 400).
const confineGitNewMaxBytes = 64 << 10

// confineGitNewMaxHooks bounds the entries of a new hooks directory (git
// init writes 14 samples).
const confineGitNewMaxHooks = 64

// The lines of a config the check reads: a strict part of git-config(1)'s
// syntax, in which no line can mean something else to git. A section
// header alone on its line, with at most a subsection without quotes or
// backslashes inside; a key, "=", and a value without quotes, backslashes
// or comment characters (so no continuation, escape or trailing comment);
// blank lines and whole-line comments. Anything else, including the
// deprecated [section.sub] form, makes the file unknown, and so moved
// aside.
var (
	confineGitSectionLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[ \t]*\[([A-Za-z0-9-]+)(?: "([^"\\]*)")?\][ \t]*$`) })
	confineGitKeyLine     = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[ \t]*([A-Za-z][A-Za-z0-9-]*)[ \t]*=[ \t]*([^"\\#;]*?)[ \t]*$`)
	})
)

// confineGitConfigBenign reports whether a new git config, b, holds only
// what confineGitNewConfigKeys lets it, in the syntax above.
func confineGitConfigBenign(b []byte) bool {
	if len(b) > confineGitNewMaxBytes || !utf8.Valid(b) {
		return false
	}
	section := ""
	for line := range strings.SplitSeq(string(b), "\n") {
		if strings.ContainsFunc(line, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
			return false // carriage returns, NULs and other controls
		}
		trimmed := strings.TrimLeft(line, " \t")
		if trimmed == "" || trimmed[0] == '#' || trimmed[0] == ';' {
			continue
		}
		if m := confineGitSectionLine().FindStringSubmatch(line); m != nil {
			section = strings.ToLower(m[1])
			if strings.Contains(line, `"`) {
				section += ".*"
			}
			continue
		}
		m := confineGitKeyLine().FindStringSubmatch(line)
		if m == nil || section == "" {
			return false
		}
		check, ok := confineGitNewConfigKeys[section+"."+strings.ToLower(m[1])]
		if !ok || check != nil && !check(m[2]) {
			return false
		}
	}
	return true
}

// confineGitNewBenign reports whether name, an entry of a git directory
// (open as fd) that the run created and that git runs or reads, holds
// only what git itself writes there: a config of confineGitNewConfigKeys
// (a regular file with one link, so that no other name can change it
// once it is bound read-only), or a hooks directory of regular *.sample
// files.
func confineGitNewBenign(fd int, name string) bool {
	switch name {
	case "config", "config.worktree":
		return confineGitNewConfig(fd, name)
	case "hooks":
		return confineGitNewHooks(fd)
	}
	return false
}

func confineGitNewConfig(fd int, name string) bool {
	cfd, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	f := os.NewFile(uintptr(cfd), name)
	defer f.Close()
	var st unix.Stat_t
	if unix.Fstat(cfd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Nlink != 1 || st.Size > confineGitNewMaxBytes {
		return false
	}
	b, err := io.ReadAll(io.LimitReader(f, confineGitNewMaxBytes+1))
	return err == nil && confineGitConfigBenign(b)
}

func confineGitNewHooks(fd int) bool {
	hfd, err := unix.Openat(fd, "hooks", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(hfd)
	names, err := confinePlantList(hfd)
	if err != nil || len(names) > confineGitNewMaxHooks {
		return false
	}
	for _, e := range names {
		var st unix.Stat_t
		if !strings.HasSuffix(e.Name(), ".sample") || unix.Fstatat(hfd, e.Name(), &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			return false
		}
	}
	return true
}
