package sandbox

import (
	"path"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

// doublestarGlobs are the doublestar patterns that say what the protected
// or secret pattern src (no exception, lift or "~/") matches in a cleaned,
// lower-cased absolute path: src anchored at "/", or after "/**/" when it
// is not anchored; a directory pattern also matches everything beneath.
// A run of "*" in a component is written as one (see oneStar). Trailing
// "**" components are also tried left out, which is what they match when
// they match no component: doublestar misses that case after a component
// ending in "*" ("a*/**" does not match "a", though "a/**" does and
// "a*/**" matches "ab").
func doublestarGlobs(src string) []string {
	t := strings.ToLower(src)
	anchored := strings.HasPrefix(t, "/")
	t = strings.TrimLeft(t, "/")
	dir := strings.HasSuffix(t, "/")
	t = strings.TrimRight(t, "/")
	var comps []string
	for c := range strings.SplitSeq(t, "/") {
		comps = append(comps, oneStar(c))
	}
	forms := [][]string{comps}
	for n := len(comps); n > 1 && comps[n-1] == "**"; n-- {
		forms = append(forms, comps[:n-1])
	}
	var globs []string
	for _, f := range forms {
		g := "/**/" + strings.Join(f, "/")
		if anchored {
			g = "/" + strings.Join(f, "/")
		}
		globs = append(globs, g)
		if dir {
			globs = append(globs, g+"/**")
		}
	}
	return globs
}

// FuzzPatternDoublestar: the protected and secret patterns are a layer
// over doublestar, not a glob dialect of their own. Wherever the two
// overlap (a pattern without the layer's exceptions and lifts, a cleaned
// absolute path, case folded), a compiled pattern matches exactly the
// paths doublestar matches with the pattern written out as a whole-path
// glob, so the fast paths (literal names, one or several "*", the literal
// index, "**" across components) say what doublestar says.
func FuzzPatternDoublestar(f *testing.F) {
	paths := []string{"/r/.env", "/r/a/.env.local", "/r/x.pem", "/r/.git/config", "/r/.git", "/home/u/.ssh/id_rsa",
		"/r/a/b/c", "/r/ab", "/r/a.key", "/r/Straße/k", "/a", "/r/src/main.go", "/r/a*b/x"}
	for _, ps := range [][]string{DefaultProtected(), DefaultSecret(), patElems} {
		for i, p := range ps {
			f.Add(p, paths[i%len(paths)])
		}
	}
	for _, p := range []string{"0***/**", "a*/**", "/r/[0]*/**/**", "A***", "a***?/b", "\\***", "[*]**x", "a/**", "**/b", "/r/**/c", "a/**/", "/r/", "*.{pem,key}", "{.env,.env.*}", "[!a]b", "[^a]*/c", "a**b/x", "\\*", "**/**/c"} {
		for _, q := range paths {
			f.Add(p, q)
		}
	}
	f.Fuzz(func(t *testing.T, src, p string) {
		if strings.HasPrefix(src, "!") || strings.HasPrefix(src, "~/") || strings.Contains(src, "/!") {
			return // the layer's own structure: exceptions, home, lifts
		}
		if !strings.HasPrefix(p, "/") || p == "/" || path.Clean(p) != p || strings.IndexByte(p, 0) >= 0 {
			return // the patterns judge cleaned absolute paths
		}
		pat, err := compilePattern(src)
		for _, g := range doublestarGlobs(src) {
			if err == nil && !doublestar.ValidatePattern(g) {
				t.Fatalf("%q compiles, but doublestar refuses %q", src, g)
			}
		}
		if err != nil {
			return
		}
		lp := strings.ToLower(p)
		got := pat.match(strings.Split(lp[1:], "/"))
		want := false
		for _, g := range doublestarGlobs(src) {
			if ok, _ := doublestar.Match(g, lp); ok {
				want = true
			}
		}
		if got != want {
			t.Fatalf("pattern %q on %q: matches %v, doublestar %q says %v", src, p, got, doublestarGlobs(src), want)
		}
	})
}
