package bashguard

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"

	"github.com/toolgate/toolgate/permission"
)

// A path word with unquoted glob characters stands for the files bash
// finds for it, not for itself: "cat .e*" reads .env, and "cat lin*/passwd"
// goes through a link named link. Such a word is expanded here as bash
// expands it with its default options, and every file it names is checked.
// The options that change globbing (dotglob, nocaseglob, globstar,
// extglob, GLOBIGNORE) are set only by commands that are never
// auto-allowed (shopt, set, an assignment to GLOBIGNORE), and the Runner
// starts bash with an explicit environment, so the defaults hold whenever
// a call is allowed.

const (
	// maxGlobDirs bounds the directories listed for one word.
	maxGlobDirs = 256
	// maxGlobMatches bounds the files checked for one word.
	maxGlobMatches = 1000
)

var (
	errGlobTooMany = errors.New("it matches more files than can be checked")
	errGlobClass   = errors.New("it uses a character class that is not checked")
)

// globPaths checks every file the glob word p names, for a read or a
// write. It reports false when the files cannot be told, having recorded
// an Ask; the caller then checks p itself too, as bash passes a word that
// matches nothing as it is.
func (m *cmdCall) globPaths(c *verdictAcc, p string, access Access, who string) bool {
	verb := "reads "
	if access == Write {
		verb = "writes "
	}
	dir := m.dir
	if dir == "" && !path.IsAbs(p) {
		c.addf(permission.Ask, RulePathGlob, verb, p, ": no working directory is configured, so the files it names cannot be checked", false)
		return false
	}
	matches, err := m.ws.glob(dir, p)
	if err != nil {
		c.addf(permission.Ask, RulePathGlob, verb, p, ": the files it names cannot be checked: "+err.Error(), false)
		return false
	}
	for _, match := range matches {
		if access == Write {
			m.writePath(c, match, 0, who)
		} else {
			m.reach(c, match, 0, who, access)
		}
	}
	return true
}

// expandGlob returns the paths bash's pathname expansion gives for the
// word p, written as p is (a relative p gives paths relative to dir), or
// none when nothing matches. Like bash without dotglob, "*", "?" and
// bracket expressions do not match a leading "." unless the pattern
// component starts with one; "**" is "*"; only paths that exist are
// given.
func expandGlob(dir, p string) ([]string, error) { return expandGlobRec(dir, p, nil) }

// globFact is what expandGlob gives for a word in a directory.
type globFact struct {
	paths []string
	err   error
}

// glob is expandGlob(dir, p) kept on the cache (a loop over a glob, or a
// glob operand, lists its directory at every call otherwise:
// BenchmarkToolgateCommands in bench): each directory it lists is stamped
// (stat, as os.ReadDir follows links) before it is listed, and each path
// it gives by the lookup that found it. A relative dir is expanded afresh
// each time: it depends on the process's directory. The paths are shared
// by every call that gets them: they must not be changed.
func (c *wsCache) glob(dir, p string) ([]string, error) {
	if !path.IsAbs(dir) && !path.IsAbs(p) {
		c = nil
	}
	f := c.get(factKey{kind: "glob", a: dir, b: p}, func(r *stampRec) any {
		paths, err := expandGlobRec(dir, p, r)
		return globFact{paths: paths, err: err}
	}).(globFact)
	return f.paths, f.err
}

// expandGlobRec is expandGlob, recording in r (when not nil) the stamps
// its answer depends on.
func expandGlobRec(dir, p string, r *stampRec) ([]string, error) {
	start := globCand{fs: dir}
	if path.IsAbs(p) {
		start = globCand{fs: "/", text: "/"}
	}
	cands := []globCand{start}
	listed := 0
	for comp := range strings.SplitSeq(p, "/") {
		if comp == "" {
			continue
		}
		if !strings.ContainsAny(comp, "*?[") {
			for i := range cands {
				cands[i] = cands[i].join(comp)
			}
			continue
		}
		var err error
		if cands, err = globComponent(cands, comp, &listed, r); err != nil || len(cands) == 0 {
			return nil, err
		}
	}
	if len(cands) == 1 && cands[0] == start {
		return nil, nil // no component: nothing to expand
	}
	return globExisting(cands, strings.HasSuffix(p, "/"), r), nil
}

// globCand is a path a glob may name so far: where it is, and how it is
// written.
type globCand struct{ fs, text string }

// join is the path name below c.
func (c globCand) join(name string) globCand {
	return globCand{fs: path.Join(c.fs, name), text: joinText(c.text, name)}
}

// globComponent returns the entries of the directories cands whose names
// match the pattern component comp, counting the directories it lists
// in listed, and stamping each in r (when not nil) before it is listed.
func globComponent(cands []globCand, comp string, listed *int, r *stampRec) ([]globCand, error) {
	pat, err := goPattern(comp)
	if err != nil {
		return nil, err
	}
	var next []globCand
	for _, cd := range cands {
		if *listed++; *listed > maxGlobDirs {
			return nil, errGlobTooMany
		}
		r.add(cd.fs, true, false)
		entries, err := os.ReadDir(cd.fs)
		switch {
		case errors.Is(err, fs.ErrNotExist) || isNotDir(err):
			continue // nothing to match here
		case err != nil:
			if r != nil {
				r.bad = true // an error that may pass: not kept
			}
			return nil, err
		}
		for _, e := range entries {
			name := e.Name()
			if name[0] == '.' && comp[0] != '.' {
				continue
			}
			if ok, err := path.Match(pat, name); err != nil {
				// bash reads some patterns path.Match refuses ("[]a]" is
				// a class of "]" and "a"): the files cannot be told.
				return nil, errGlobClass
			} else if !ok {
				continue
			}
			if len(next) == maxGlobMatches {
				return nil, errGlobTooMany
			}
			next = append(next, cd.join(name))
		}
	}
	return next, nil
}

// globExisting gives, like bash, only the candidates that exist: "*/.env"
// names the .env files of the directories, not a path under each file.
// With dirs (a pattern that ends in "/") only directories and links to
// them, and bash keeps the "/". Each lookup is stamped in r (when not
// nil).
func globExisting(cands []globCand, dirs bool, r *stampRec) []string {
	out := make([]string, 0, len(cands))
	for _, cd := range cands {
		if dirs {
			if r.isDir(cd.fs) {
				out = append(out, cd.text+"/")
			}
			continue
		}
		if r.lexists(cd.fs) {
			out = append(out, cd.text)
		}
	}
	return out
}

func joinText(prefix, comp string) string {
	switch prefix {
	case "":
		return comp
	case "/":
		return "/" + comp
	}
	return prefix + "/" + comp
}

// goPattern turns one component of a bash glob into a path.Match pattern:
// "[!...]" becomes "[^...]". What the two read differently is refused:
// POSIX classes ("[:alpha:]", "[=e=]", "[.x.]"), a class that starts with
// "]" ("[]a]", "[!]a]"), and backslashes.
func goPattern(comp string) (string, error) {
	for _, odd := range [...]string{"[:", "[=", "[.", "[]", "[!]", "[^]", "\\"} {
		if strings.Contains(comp, odd) {
			return "", errGlobClass
		}
	}
	return strings.ReplaceAll(comp, "[!", "[^"), nil
}

// isNotDir reports a listing that failed because a component is a file.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }
