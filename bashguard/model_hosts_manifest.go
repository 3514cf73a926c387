package bashguard

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// An install of named packages (npm install lodash, yarn add, pnpm add,
// bun add) also installs what the project's package.json names: a
// dependency given as a URL, a git repository or a GitHub shorthand
// reaches its own host, not the registry. npmManifestHosts judges those
// hosts, read from the package.json npm finds from the working directory;
// one it cannot read makes them hosts only known at run time.

// maxManifest bounds the package.json read.
const maxManifest = 1 << 20

func (m *cmdCall) npmManifestHosts(c *verdictAcc) {
	p := m.findUp("package.json")
	if p == "" {
		return // no project: only the named packages are installed
	}
	text, err := readSmall(p, maxManifest)
	if err != nil {
		m.unknownHost(c, "the hosts "+p+" names for its dependencies, which is not read here")
		return
	}
	var manifest map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &manifest) != nil {
		m.unknownHost(c, "the hosts "+p+" names for its dependencies, which is not read here")
		return
	}
	for _, k := range npmManifestKeys {
		if raw, ok := manifest[k]; ok {
			if !m.manifestSpecs(c, raw, 0) {
				m.unknownHost(c, "the hosts "+p+" names for its dependencies ("+k+"), which are not read here")
				return
			}
		}
	}
}

// manifestSpecs judges the spec strings of a dependency map (nested for
// overrides); it reports false for a value of another shape.
func (m *cmdCall) manifestSpecs(c *verdictAcc, raw json.RawMessage, depth int) bool {
	var specs map[string]json.RawMessage
	if depth > 8 || json.Unmarshal(raw, &specs) != nil {
		return false
	}
	for _, v := range specs {
		var s string
		if json.Unmarshal(v, &s) == nil {
			if !registrySpec(s) {
				m.npmSpecHost(c, s)
			}
			continue
		}
		if !m.manifestSpecs(c, v, depth+1) {
			return false
		}
	}
	return true
}

// registrySpec reports a version range, tag or alias that names a package
// on the registry: no URL, path, git or host form in it.
func registrySpec(s string) bool {
	if strings.HasPrefix(s, "npm:") && !strings.Contains(s, "://") {
		return true
	}
	for _, p := range []string{"workspace:", "link:", "catalog:", "portal:", "patch:"} {
		if strings.HasPrefix(s, p) {
			return !strings.Contains(s, "://")
		}
	}
	return !strings.ContainsAny(s, "/:@\\")
}

// findUp returns the path of name in the working directory or the nearest
// directory above it that holds one, or "".
func (m *cmdCall) findUp(name string) string {
	if m.dir == "" || !filepath.IsAbs(m.dir) {
		return ""
	}
	if d := m.ws.nearest(m.dir, name); d != "" {
		return filepath.Join(d, name)
	}
	return ""
}

// maxUp bounds the directories nearest looks in.
const maxUp = 64

// nearest is the first directory up from dir (absolute), dir itself
// first, that holds an entry name, as os.Lstat finds it (a link counts,
// wherever it leads), or "" for none within maxUp directories; kept on
// the cache, each directory on the way stamped by the entry looked up in
// it (a package manager's configuration and manifest are looked for up
// to / at every call: BenchmarkToolgateCommands in bench).
func (c *wsCache) nearest(dir, name string) string {
	return c.get(factKey{kind: "up", a: name, b: dir}, func(r *stampRec) any {
		for d, n := filepath.Clean(dir), 0; n < maxUp; n++ {
			if r.entry(filepath.Join(d, name), d) {
				return d
			}
			up := filepath.Dir(d)
			if up == d {
				break
			}
			d = up
		}
		return ""
	}).(string)
}
