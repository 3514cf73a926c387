package bashguard

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// A build context's .dockerignore names what the builder is not sent
// (moby's patternmatcher): a pattern, relative to the context's root, a
// leading "/" dropped, cleaned, "**" any number of directories, matches a
// path or a directory above it. A secret file the file excludes does not
// reach the build, so the walk of the context skips it. "!" re-includes
// what an earlier pattern excluded; a file with one is not used here (the
// whole context is judged), nor is one that does not read, nor a context
// beside a Dockerfile-specific ignore file (Dockerfile.dockerignore).

// dockerIgnore is the patterns of one .dockerignore.
type dockerIgnore []string

// readDockerIgnore reads the .dockerignore of the context directory dir,
// kept on the workspace cache; nil where there is none the walk can use.
func (m *cmdCall) readDockerIgnore(dir string) dockerIgnore {
	return m.ws.get(factKey{kind: "dockerignore", a: dir}, func(r *stampRec) any {
		if r.lexists(dir + "/Dockerfile.dockerignore") {
			return dockerIgnore(nil)
		}
		text, err := r.readSmall(dir+"/.dockerignore", maxConfFile)
		if err != nil {
			return dockerIgnore(nil)
		}
		return parseDockerIgnore(text)
	}).(dockerIgnore)
}

// parseDockerIgnore reads the patterns of a .dockerignore's text; nil
// for one with an exception (!) or a pattern that does not parse.
func parseDockerIgnore(text string) dockerIgnore {
	var out dockerIgnore
	for line := range strings.Lines(text) {
		p := strings.TrimSpace(line)
		switch {
		case p == "" || p[0] == '#':
			continue
		case p[0] == '!':
			return nil
		}
		p = path.Clean(strings.TrimPrefix(p, "/"))
		if !doublestar.ValidatePattern(p) || strings.Contains(p, `\`) {
			return nil
		}
		out = append(out, p)
	}
	return out
}

// skips reports whether the path rel, relative to the context's root,
// is not sent to the builder: a pattern matches it or a directory above
// it.
func (d dockerIgnore) skips(rel string) bool {
	for q := rel; q != "." && q != "/" && q != ""; q = path.Dir(q) {
		for _, p := range d {
			if ok, _ := doublestar.Match(p, q); ok {
				return true
			}
		}
	}
	return false
}
