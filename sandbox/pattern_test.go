package sandbox

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/stretchr/testify/require"
)

// refPattern is the straightforward classifier the indexed one must agree
// with: every pattern tried in order, every component with doublestar.
type refPattern struct {
	src      string
	anchored bool
	dir      bool
	double   bool
	elems    []string
}

func refCompile(src []string) ([]refPattern, error) {
	var set []refPattern
	for _, s := range src {
		p := refPattern{src: s}
		t := strings.ToLower(s)
		if strings.HasPrefix(t, "/") {
			p.anchored = true
			t = strings.TrimLeft(t, "/")
		}
		if strings.HasSuffix(t, "/") {
			p.dir = true
			t = strings.TrimRight(t, "/")
		}
		if t == "" || strings.IndexByte(t, 0) >= 0 {
			return nil, pathErr(ErrInvalidPath, s, "", "empty or malformed pattern", nil)
		}
		for e := range strings.SplitSeq(t, "/") {
			if e == "" || e == "." || e == ".." {
				return nil, pathErr(ErrInvalidPath, s, "", "bad component", nil)
			}
			if !doublestar.ValidatePattern(e) {
				return nil, pathErr(ErrInvalidPath, s, "", "malformed pattern component "+e, doublestar.ErrBadPattern)
			}
			p.double = p.double || e == "**"
			p.elems = append(p.elems, e)
		}
		set = append(set, p)
	}
	return set, nil
}

func (p *refPattern) match(comps []string) bool {
	if p.anchored {
		return refMatchElems(p.elems, comps, p.dir)
	}
	if !p.double && !p.dir {
		i := len(comps) - len(p.elems)
		return i >= 0 && refMatchElems(p.elems, comps[i:], false)
	}
	for i := range comps {
		if refMatchElems(p.elems, comps[i:], p.dir) {
			return true
		}
	}
	return false
}

func refMatchElems(elems, comps []string, prefix bool) bool {
	for len(elems) > 0 {
		if elems[0] == "**" {
			for k := 0; k <= len(comps); k++ {
				if refMatchElems(elems[1:], comps[k:], prefix) {
					return true
				}
			}
			return false
		}
		if len(comps) == 0 {
			return false
		}
		if ok, _ := doublestar.Match(elems[0], comps[0]); !ok {
			return false
		}
		elems, comps = elems[1:], comps[1:]
	}
	return prefix || len(comps) == 0
}

func refFirst(set []refPattern, paths ...string) (string, bool) {
	for _, p := range paths {
		if p == "" {
			continue
		}
		comps := strings.Split(strings.Trim(strings.ToLower(p), "/"), "/")
		for i := range set {
			if set[i].match(comps) {
				return set[i].src, true
			}
		}
	}
	return "", false
}

// agree compiles src both ways and checks that both refuse it, or that
// both classify every path list alike.
func agree(t *testing.T, src []string, paths ...[]string) {
	t.Helper()
	ref, rerr := refCompile(src)
	set, err := compilePatterns(src, "")
	if rerr != nil || err != nil {
		require.Equal(t, rerr != nil, err != nil, "patterns %q: reference error %v, indexed error %v", src, rerr, err)
		return
	}
	for _, ps := range paths {
		wantPat, want := refFirst(ref, ps...)
		gotPat, got := set.first(ps...)
		require.Equal(t, want, got, "patterns %q, paths %q", src, ps)
		require.Equal(t, wantPat, gotPat, "patterns %q, paths %q", src, ps)
	}
}

// names are path components chosen to meet the default patterns and the
// edges of the syntax: case, globs' ends, non-ASCII letters whose lower
// case differs in length.
var names = []string{
	"", "a", "B", "src", "pkg", "main.go", ".git", ".GIT", "Git", "config", "CONFIG", "hooks", "pre-commit",
	".env", ".ENV", ".env.local", ".Env.Prod", ".envrc", "environment", "x.pem", "X.PEM", ".pem", "pem",
	"tls.key", "key", "id_rsa", "ID_RSA.pub", "id_rsa.pub", "id_dsa", "id_ecdsa", "id_ed25519.pub", "id_",
	".ssh", ".SSH", "known_hosts", ".aws", "credentials", ".netrc", ".git-credentials", ".npmrc", ".pypirc",
	".claude", "settings.json", ".toolgate", "toolgate.json", "toolgate.local.json", ".bashrc", ".zshrc",
	".config", "fish", "config.fish", "pip", "pip.conf", ".pip", "*", "?", "[a]", "a*b", "ab", "aXb",
	"Straße", "STRASSE", "İstanbul", "\u212a", "k", "é.PEM", "\xff", "a\\b", "..", ".", "x", "deep",
}

func randomPath(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(5) > 0 {
		b.WriteByte('/')
	}
	for n := r.IntN(9); n >= 0; n-- {
		b.WriteString(names[r.IntN(len(names))])
		if n > 0 || r.IntN(6) == 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// patElems are pattern components: literal names, each kind of glob, "**",
// escapes and bad classes.
var patElems = []string{
	"a", "b", "src", ".git", ".GIT", "config", ".env", ".env.*", "*.pem", "*.PEM", "id_rsa*", "*", "**", "?",
	"a*", "*a", "a*b", "a**b", "*a*", "[ab]", "[!a]", "[a-c]*", "\\*", "a\\b", "x?y", "deep", ".ssh", "pip.conf",
	"straße", "İstanbul", "\u212a", "k", "[", "é*", "*.go", "main.go",
	"{a,b}", "*.{pem,key}", "{.env,.env.*}", "{", "a}", "]", "[^a]*",
}

func randomPattern(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(4) == 0 {
		b.WriteByte('/')
	}
	for n := r.IntN(4); n >= 0; n-- {
		b.WriteString(patElems[r.IntN(len(patElems))])
		if n > 0 || r.IntN(3) == 0 {
			b.WriteByte('/')
		}
	}
	return b.String()
}

// TestPatternIndexAgrees checks the indexed classifier against the
// straightforward one on random paths, with the default lists and with
// random lists.
func TestPatternIndexAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var lists [][]string
	for range 20000 {
		n := 1 + r.IntN(3)
		ps := make([]string, n)
		for i := range ps {
			ps[i] = randomPath(r)
		}
		lists = append(lists, ps)
	}
	agree(t, DefaultProtected(), lists...)
	agree(t, DefaultSecret(), lists...)
	for range 300 {
		src := make([]string, r.IntN(6))
		for i := range src {
			src[i] = randomPattern(r)
		}
		agree(t, src, lists[:500]...)
	}
	// More than 64 patterns: the set spans several words.
	var many []string
	for i := range 150 {
		many = append(many, randomPattern(r), "name"+string(rune('a'+i%26))+"/")
	}
	agree(t, append(many, DefaultSecret()...), lists[:2000]...)
	// Paths deeper than the frame's buffers, and longer.
	deep := strings.Repeat("/a", 40) + "/.git/config"
	long := "/" + strings.Repeat("B", 600) + "/x.PEM"
	agree(t, append(DefaultProtected(), DefaultSecret()...), []string{deep}, []string{long}, []string{"/"}, []string{"", deep})
}

// FuzzPatternIndex checks that the indexed classifier agrees with the
// straightforward one on any path and any pattern, alone and added to the
// default lists.
func FuzzPatternIndex(f *testing.F) {
	for _, s := range [][2]string{
		{"/r/.git/config", ".git/"}, {"/r/a/B.PEM", "*.pem"}, {"/r/.env.local", ".env.*"}, {"/r/id_rsa.pub", "id_rsa*"},
		{"/r/sub/deep/x.txt", "/r/sub/**/*.txt"}, {"/R/.Aws/Credentials", ".aws/credentials"}, {"/", "**"},
		{"/a/b/c", "a/**/c/"}, {"/a/\u212a", "k"}, {"/İ/x", "i̇/"}, {"/x/a*b", "a\\*b"}, {"//a//b", "a/b"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, p, pat string) {
		agree(t, []string{pat}, []string{p})
		agree(t, append(DefaultSecret(), pat), []string{p}, []string{"/r/x", p})
		agree(t, append([]string{pat}, DefaultProtected()...), []string{p})
	})
}

// TestJudgeClassifiesWithoutAllocating guards the hot path: the
// classification allocates nothing for an ASCII path.
func TestJudgeClassifiesWithoutAllocating(t *testing.T) {
	set, err := compilePatterns(append(DefaultProtected(), DefaultSecret()...), "")
	require.NoError(t, err)
	p, q := "/Home/User/Projects/src/pkg/main.go", "/Home/User/Projects/src/Pkg/../pkg/main.go"
	allocs := testing.AllocsPerRun(100, func() {
		if pat, ok := set.first(p, q); ok {
			t.Fatal(pat)
		}
	})
	require.Zero(t, allocs, "classifying an ASCII path allocates")
}

// BenchmarkClassify compares the indexed classifier with the
// straightforward one on a path that matches no default pattern (the
// common case: every pattern is ruled out) and on one that matches late in
// the list.
func BenchmarkClassify(b *testing.B) {
	src := append(DefaultProtected(), DefaultSecret()...)
	set, err := compilePatterns(src, "")
	require.NoError(b, err)
	ref, err := refCompile(src)
	require.NoError(b, err)
	for _, p := range []string{"/Home/User/Projects/src/pkg/main.go", "/Home/User/Projects/deploy/tls.key"} {
		b.Run("indexed"+p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				set.first(p)
			}
		})
		b.Run("straightforward"+p, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				refFirst(ref, p)
			}
		})
	}
}

// TestPatternLifts: an entry "dir/!rest" lifts the pattern "dir/" from
// the paths beneath it that rest matches, at that depth only, and no
// other pattern: the default .claude/ protection leaves Claude Code's
// worktrees and .claude/AGENTS.md, but a worktree's own .claude/, .git
// and start-up files stay protected.
func TestPatternLifts(t *testing.T) {
	set, err := compilePatterns(DefaultProtected(), "/home/u")
	require.NoError(t, err)
	for _, c := range []struct{ path, want string }{
		{"/r/.claude/worktrees/feat/src/main.go", ""},
		{"/r/.claude/worktrees/feat", ""},
		{"/r/.Claude/Worktrees/feat/x", ""},
		{"/r/.claude/AGENTS.md", ""},
		{"/r/.claude/worktrees/feat/.claude/settings.json", ".claude/"},
		{"/r/.claude/worktrees/feat/.claude/worktrees/x/y.go", ""},
		{"/r/.claude/worktrees/feat/.claude/worktrees", ".claude/"},
		{"/r/.claude/worktrees/feat/.git", ".git/"},
		{"/r/.claude/worktrees/feat/.envrc", ".envrc"},
		{"/r/.claude/worktrees/feat/.vscode/tasks.json", ".vscode/"},
		{"/r/.claude/worktrees/feat/sub/.git/hooks/pre-commit", ".git/"},
		{"/r/.claude/worktrees", ".claude/"},
		{"/r/.claude", ".claude/"},
		{"/r/.claude/settings.json", ".claude/"},
		{"/r/.claude/AGENTS.md/x", ".claude/"},
		{"/r/.claude/x/AGENTS.md", ".claude/"},
		{"/r/.claude/agents/a.md", ".claude/"},
		{"/r/.claude/worktree/feat/x", ".claude/"},
		{"/home/u/.claude/worktrees/feat/x.go", ""},
	} {
		got, _ := set.first(c.path)
		require.Equal(t, c.want, got, c.path)
	}
	// A lift applies to its own pattern only: another pattern that
	// matches the same path still does.
	set, err = compilePatterns([]string{"a/", "a/!b/", "b/"}, "")
	require.NoError(t, err)
	got, _ := set.first("/r/a/b/c")
	require.Equal(t, "b/", got)
	got, _ = set.first("/r/a/c/b")
	require.Equal(t, "a/", got)
	// Anchored patterns lift at their one depth; "~/" ones only with a home.
	set, err = compilePatterns([]string{"/r/a/", "/r/a/!b/", "~/c/", "~/c/!d"}, "")
	require.NoError(t, err)
	got, _ = set.first("/r/a/b/x")
	require.Equal(t, "", got)
	got, _ = set.first("/r/a/x/a/b/x")
	require.Equal(t, "/r/a/", got)
	// Malformed lifts refuse the list: a lift of nothing, of a pattern
	// with "**", within a lift, or not relative.
	for _, bad := range [][]string{
		{"a/!b"}, {"a/b/", "a/!b"}, {"**/a/", "**/a/!b"}, {"a/", "a/!b/!c"}, {"a/", "a/!/b"}, {"a/", "a/!"}, {"a/", "a/!../b"},
	} {
		_, err := compilePatterns(bad, "")
		require.ErrorIs(t, err, ErrInvalidPath, "%q", bad)
	}
}

// BenchmarkCompileLists compiles the default protected and secret lists
// with a home directory, as every sandbox does when it is made
// (toolgate check makes one for every call, a warm process one for each).
func BenchmarkCompileLists(b *testing.B) {
	prot, sec := DefaultProtected(), DefaultSecret()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := compilePatterns(prot, "/home/u"); err != nil {
			b.Fatal(err)
		}
		if _, err := compilePatterns(sec, "/home/u"); err != nil {
			b.Fatal(err)
		}
	}
}
