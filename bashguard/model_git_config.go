package bashguard

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
)

// A repository's own config can make a read-only git command run a
// program: core.fsmonitor runs on every refresh of the index (git status),
// diff.external and the diff drivers on every patch, the filters on every
// file compared with the index. The config in the repository's git
// directory is as much the workspace as its files are, so the keys each
// subcommand's spec names (spec.config) are looked for there; the user's
// own config (~/.gitconfig) is the user's, and is not.

// gitConfigKeys are the keys the repository's config sets, lower-cased
// as git compares them: "section.key" or "section.subsection.key" (the
// subsection as written), with the value of each.
type gitConfigKeys struct {
	keys []gitConfigKey
	why  string // why the config cannot be read, or ""
	none bool   // there is no repository
	// subs are the keys of the configs of the repository's populated
	// submodules, nested ones too, each with the submodule's path
	// (model_git_submodules.go); subsWhy why they cannot all be read.
	// Only the keys that run programs are looked for there: the remotes
	// and secrets of a submodule are not the repository's.
	subs    []gitConfigKey
	subsWhy string
	// programs keeps, for each spec asked about, the key that makes its
	// command run a program, or "": the keys are kept while the config
	// does not change and the specs never change, so every key is matched
	// against a spec's patterns once, not for every command.
	mu       sync.Mutex
	programs map[*spec]gitConfigKey
}

// maxProgramKeys bounds the specs a config keeps the answer of: the git
// subcommands and the tools whose specs name config keys.
const maxProgramKeys = 256

// gitConfigKey is a key of a config, its value, and for a submodule's
// config the submodule's path from the top of the work tree.
type gitConfigKey struct{ name, val, from string }

// gitConfigPrograms asks when the repository's config sets one of the
// keys of the spec s that make git run a program.
func (m *cmdCall) gitConfigPrograms(c *verdictAcc, s *spec) {
	if len(s.config) == 0 {
		return
	}
	cfg := m.gitConfigKeys()
	if cfg.none {
		return
	}
	if cfg.why != "" {
		c.addf(permission.Ask, RuleGitConfig, "the repository's config ", cfg.why, ", and its keys can make git run programs", false)
		return
	}
	switch k := cfg.programKey(s); {
	case k.name == "" && cfg.subsWhy != "":
		c.addf(permission.Ask, RuleGitConfig, "", cfg.subsWhy, ", and the keys of a submodule's config can make git run programs in it", false)
	case k.from != "":
		c.addf(permission.Ask, RuleGitConfig, "the config of the submodule "+k.from+" sets "+k.name,
			", which makes "+s.name+" run a program or read another file as configuration when git runs in the submodule", "", false)
	case k.name != "":
		c.addf(permission.Ask, RuleGitConfig, "the repository's config sets "+k.name, ", which makes "+s.name+" run a program or read another file as configuration", "", false)
	}
}

// programKey returns the first of the keys, the repository's then its
// submodules', that makes the command of the spec s run a program, or
// one with no name.
func (cfg *gitConfigKeys) programKey(s *spec) gitConfigKey {
	cfg.mu.Lock()
	key, ok := cfg.programs[s]
	cfg.mu.Unlock()
	if ok {
		return key
	}
scan:
	for _, keys := range [][]gitConfigKey{cfg.keys, cfg.subs} {
		for _, k := range keys {
			for _, pat := range s.config {
				if configKeyMatch(pat, k.name) && !harmlessConfigValue(k) {
					key = k
					break scan
				}
			}
		}
	}
	cfg.mu.Lock()
	if len(cfg.programs) < maxProgramKeys {
		if cfg.programs == nil {
			cfg.programs = make(map[*spec]gitConfigKey)
		}
		cfg.programs[s] = key
	}
	cfg.mu.Unlock()
	return key
}

// harmlessConfigValue reports a value of a listed key that runs nothing,
// by harmlessConfigValues.
func harmlessConfigValue(k gitConfigKey) bool {
	vals, ok := harmlessConfigValues()[k.name]
	return ok && slices.Contains(vals, strings.ToLower(k.val))
}

// configKeyMatch reports whether the key name matches the pattern pat,
// where "*" stands for any subsection ("diff.*.textconv"), or, as the last
// part, any key of the section ("pager.*").
func configKeyMatch(pat, name string) bool {
	// Fast path (BenchmarkToolgateCommands in bench: every key of the
	// config against every pattern of the spec): a pattern with a section
	// matches only a name with the same section, which is the name or
	// ends at the name's first ".".
	if i := strings.IndexByte(pat, '.'); i >= 0 && (len(name) < i || name[:i] != pat[:i] || len(name) > i && name[i] != '.') {
		return false
	}
	ps, rest, _ := strings.Cut(pat, ".")
	ns, nrest, _ := strings.Cut(name, ".")
	if ps != ns {
		return false
	}
	if rest == "*" {
		return true
	}
	if sub, key, ok := strings.Cut(rest, "."); ok && sub == "*" {
		j := strings.LastIndexByte(nrest, '.')
		return j >= 0 && nrest[j+1:] == key
	}
	return nrest == rest
}

// gitConfigKeys reads the keys of the repository's config once per Judge
// call (and once per Guard while its files do not change): the config of
// the repository git finds from the working directory, and its
// config.worktree.
func (m *cmdCall) gitConfigKeys() *gitConfigKeys {
	if m.gitKeys != nil && m.gitKeysFor == m.dir {
		return m.gitKeys
	}
	m.gitKeysFor = m.dir
	if m.dir == "" || !filepath.IsAbs(m.dir) {
		m.gitKeys = &gitConfigKeys{none: true}
		return m.gitKeys
	}
	top, why := m.repoTop()
	if why != "" {
		// git would use another repository, which gitRepo asks about,
		// or the working directory does not exist, and nothing runs.
		m.gitKeys = &gitConfigKeys{none: true}
		return m.gitKeys
	}
	m.gitKeys = m.ws.configKeys(top)
	return m.gitKeys
}

// configKeys reads the keys of the config of the repository whose top is
// top, and of its submodules' configs, kept on the cache. The result is
// shared: it is not changed.
func (c *wsCache) configKeys(top string) *gitConfigKeys {
	return c.get(factKey{kind: "keys", a: top}, func(r *stampRec) any {
		k := &gitConfigKeys{}
		keys, why, none := repoConfigKeys(top, r)
		switch {
		case none:
			k.none = true
			return k
		case why != "":
			k.why = why
			return k
		}
		k.keys = keys
		k.subs, k.subsWhy = submoduleKeys(top, r)
		return k
	}).(*gitConfigKeys)
}

// repoConfigKeys reads the keys of the config of the repository whose
// top is top: its common directory's config, and the config.worktree of
// its work tree's own git directory (a linked work tree's) and of the
// common one, which git reads with extensions.worktreeConfig. none
// reports a repository whose git directory is not found.
func repoConfigKeys(top string, r *stampRec) (keys []gitConfigKey, why string, none bool) {
	gitDir, common, why := gitDirsRec(top, r)
	if why != "" {
		return nil, why, true
	}
	keys, why = dirConfigKeys(gitDir, common, r)
	return keys, why, false
}

// dirConfigKeys reads the keys of the configs of the repository whose
// git directory is gitDir and common directory common (repoConfigKeys).
func dirConfigKeys(gitDir, common string, r *stampRec) (keys []gitConfigKey, why string) {
	files := []string{path.Join(common, "config"), path.Join(common, "config.worktree")}
	if gitDir != common {
		files = append(files, path.Join(gitDir, "config.worktree"))
	}
	for _, f := range files {
		text, err := r.readSmall(f, maxGitConfig)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return nil, "cannot be read: " + err.Error()
		}
		ks, why := parseGitConfigKeys(text)
		if why != "" {
			return nil, why
		}
		keys = append(keys, ks...)
	}
	return keys, ""
}

// parseGitConfigKeys reads the keys of a git config file as git's config
// parser does: sections "[name]", "[name "sub"]" and "[name.sub]",
// "key = value" lines, "key" alone (true), comments after # and ;,
// quoted values and escapes, and lines continued by a final backslash.
// What it cannot read makes the whole answer unknown.
func parseGitConfigKeys(text string) ([]gitConfigKey, string) {
	var keys []gitConfigKey
	section := ""
	lines := strings.Split(text, "\n")
	for n := 0; n < len(lines); n++ {
		line := strings.TrimSpace(strings.TrimSuffix(lines[n], "\r"))
		if line == "" || line[0] == '#' || line[0] == ';' {
			continue
		}
		if line[0] == '[' {
			head, rest, ok := configSection(line)
			if !ok {
				return nil, "holds a section header that is not read here"
			}
			section = head
			line = strings.TrimSpace(rest)
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
		}
		if section == "" {
			return nil, "holds a key outside any section"
		}
		name, val, has := strings.Cut(line, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if !configKeyName(name) {
			return nil, "holds a line that is not read here"
		}
		if has {
			var b strings.Builder
			quoted, more, ok := configValue(&b, val, false)
			for more && ok && n+1 < len(lines) {
				n++
				quoted, more, ok = configValue(&b, lines[n], quoted)
			}
			if !ok || more || quoted {
				return nil, "holds a value that is not read here"
			}
			val = strings.TrimSpace(b.String())
		}
		keys = append(keys, gitConfigKey{name: section + "." + name, val: val})
	}
	return keys, ""
}

// configSection reads a section header: its name lower-cased, with its
// subsection, and the rest of the line.
func configSection(line string) (head, rest string, ok bool) {
	end := strings.IndexByte(line, ']')
	q := strings.IndexByte(line, '"')
	if q >= 0 && (end < 0 || q < end) {
		// [section "subsection"], escapes allowed in the subsection.
		name := strings.TrimSpace(line[1:q])
		if !configName(name) {
			return "", "", false
		}
		var sub strings.Builder
		i := q + 1
		for ; i < len(line) && line[i] != '"'; i++ {
			if line[i] == '\\' && i+1 < len(line) {
				i++
			}
			sub.WriteByte(line[i])
		}
		if i+1 >= len(line) || line[i+1] != ']' {
			return "", "", false
		}
		return strings.ToLower(name) + "." + sub.String(), line[i+2:], true
	}
	if end < 0 {
		return "", "", false
	}
	head = strings.TrimSpace(line[1:end])
	name, sub, dotted := strings.Cut(head, ".")
	if !configName(name) {
		return "", "", false
	}
	head = strings.ToLower(name)
	if dotted {
		head += "." + strings.ToLower(sub) // [section.sub] is lower-cased too
	}
	return head, line[end+1:], true
}

// configName reports a section or key name git accepts: letters, digits,
// "-" (and "." in a section).
func configName(s string) bool {
	for i := 0; i < len(s); i++ {
		ch := s[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '.') {
			return false
		}
	}
	return s != ""
}

// configKeyName reports a key name git accepts: a letter, then letters,
// digits and "-" (no "."; that is a section's).
func configKeyName(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	return configName(s) && !strings.Contains(s, ".")
}

// configValue reads a value (the text after "=", or a continued line)
// into b, quoted when the line starts inside quotes: whether it ends inside
// quotes, whether a final backslash continues it on the next line, and
// whether it could be read.
func configValue(b *strings.Builder, s string, quoted bool) (inQuotes, more, ok bool) {
	s = strings.TrimSuffix(s, "\r")
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\\':
			if i+1 == len(s) {
				return quoted, true, true
			}
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b', '"', '\\':
				b.WriteByte(s[i])
			default:
				return quoted, false, false
			}
		case ch == '"':
			quoted = !quoted
		case !quoted && (ch == '#' || ch == ';'):
			return false, false, true
		default:
			b.WriteByte(ch)
		}
	}
	return quoted, false, true
}
