package permission

import (
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// pathPattern matches cleaned absolute paths against a gitignore-style
// pattern that was made absolute when the rule was compiled:
//
//	//etc/**      absolute: /etc/**
//	~/.ssh/**     under the home directory
//	/docs/**      relative to the folder of the settings file that holds the rule
//	./src/**      relative to the working directory
//	src/**        relative to the working directory
//	*.env         no slash: any depth below the working directory
//
// A pattern also matches everything below what it matches, as in
// gitignore: Read(./secrets) covers ./secrets/key.
type pathPattern struct {
	glob  string // absolute doublestar pattern
	below string // glob + "/**"
	dir   string // the longest literal directory the pattern starts with
}

// pathBases are the directories that relative path patterns resolve
// against.
type pathBases struct {
	home, workDir, ruleDir string
}

func compilePathPattern(spec string, b pathBases) (pathPattern, string) {
	var base, rel string
	switch {
	case strings.HasPrefix(spec, "//"):
		base, rel = "/", spec[2:]
	case spec == "~" || strings.HasPrefix(spec, "~/"):
		if b.home == "" {
			return pathPattern{}, "a ~ path needs a home directory, and none is configured"
		}
		base, rel = b.home, strings.TrimPrefix(strings.TrimPrefix(spec, "~"), "/")
	case strings.HasPrefix(spec, "~"):
		return pathPattern{}, "~user paths are not supported"
	case strings.HasPrefix(spec, "/"):
		if b.ruleDir == "" {
			return pathPattern{}, "a /path is relative to the settings file's folder, and this rule has none"
		}
		base, rel = b.ruleDir, spec[1:]
	default:
		if b.workDir == "" {
			return pathPattern{}, "a relative path needs a working directory, and none is configured"
		}
		base, rel = b.workDir, strings.TrimPrefix(spec, "./")
		if !strings.Contains(strings.TrimSuffix(rel, "/"), "/") && rel != "" {
			rel = "**/" + rel // gitignore: a name without a slash matches at any depth
		}
	}
	if !path.IsAbs(base) {
		return pathPattern{}, "base directory " + base + " is not absolute"
	}
	dirOnly := strings.HasSuffix(rel, "/")
	rel = strings.Trim(rel, "/")
	for _, c := range strings.Split(rel, "/") {
		if c == ".." || c == "." {
			return pathPattern{}, "'.' and '..' are not allowed in path patterns"
		}
	}
	g := escapeGlob(path.Clean(base))
	if rel != "" {
		g = strings.TrimSuffix(g, "/") + "/" + rel
	}
	if !doublestar.ValidatePattern(g) {
		return pathPattern{}, "invalid glob pattern"
	}
	p := pathPattern{glob: g, below: strings.TrimSuffix(g, "/") + "/**", dir: literalDir(g)}
	if dirOnly {
		p.glob = p.below
	}
	return p, ""
}

func (p *pathPattern) match(abs string) bool {
	if ok, _ := doublestar.Match(p.glob, abs); ok {
		return true
	}
	ok, _ := doublestar.Match(p.below, abs)
	return ok
}

// escapeGlob quotes the characters doublestar treats as special, so that a
// directory name such as "a[1]" is matched literally.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[]{}\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', ']', '{', '}', '\\':
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// domainPattern matches a host name: "example.com" exactly,
// "*.example.com" for its subdomains (not the bare domain), or "*" for
// every host, as Claude Code reads "domain:*".
type domainPattern struct {
	host   string // exact host, lower case
	suffix string // ".example.com" for a wildcard
	any    bool   // "*": every host, as a rule for the whole tool
}

func compileDomainPattern(d string) (domainPattern, string) {
	d = strings.ToLower(strings.TrimRight(d, "."))
	if d == "" {
		return domainPattern{}, "empty domain"
	}
	if d == "*" {
		return domainPattern{any: true}, ""
	}
	if strings.HasPrefix(d, "*.") {
		rest := d[2:]
		if rest == "" || strings.ContainsAny(rest, "*/:@ ") {
			return domainPattern{}, "invalid domain pattern"
		}
		return domainPattern{suffix: "." + rest}, ""
	}
	if strings.ContainsAny(d, "*/:@ ") {
		return domainPattern{}, "invalid domain: only a leading '*.' wildcard is allowed"
	}
	return domainPattern{host: d}, ""
}

func (p *domainPattern) match(host string) bool {
	if p.any {
		return true
	}
	host = strings.TrimRight(host, ".") // "evil.com.." is evil.com to a resolver
	if p.suffix != "" {
		return len(host) > len(p.suffix) && strings.EqualFold(host[len(host)-len(p.suffix):], p.suffix)
	}
	return strings.EqualFold(host, p.host)
}

// literalDir returns the longest directory prefix of an absolute pattern
// that holds no glob syntax: "/home/u/src" for "/home/u/src/**/*.go".
func literalDir(g string) string {
	end := len(g)
	if i := strings.IndexAny(g, `*?[]{}\`); i >= 0 {
		end = i
	}
	d := g[:end]
	if end < len(g) || !strings.HasSuffix(d, "/") {
		// The last component is partial (or the whole pattern is a
		// literal path, which also covers what lies below it: its own
		// directory is filed too, so use the path itself).
		if end == len(g) {
			return path.Clean(d)
		}
		if i := strings.LastIndexByte(d, '/'); i >= 0 {
			d = d[:i+1]
		}
	}
	if d == "" {
		return "/"
	}
	return path.Clean(d)
}
