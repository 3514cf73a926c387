package sandbox

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/bmatcuk/doublestar/v4"
)

// pattern is one compiled protected or secret pattern.
//
// Syntax: components separated by "/", each matched as doublestar (the
// glob engine of the permission rules, search filters and globs) matches
// one component: "*", "?", "[...]" (with "[!...]" and "[^...]" for a
// class's complement), "{a,b}" and backslash escapes; and "**" as a whole
// component matching any number of components. This is a layer over that
// engine, not a second one: what it adds is the structure doublestar has
// no words for (case ignored, unanchored and directory patterns,
// exceptions and lifts) and an index of literal components. Matching ignores case, so
// that ".GIT/config" on a case-insensitive file system is still caught; a
// false match only makes a decision stricter. A pattern ending in "/" names
// a directory and matches it and everything beneath it. A pattern beginning
// with "/" is matched against the whole absolute path; any other pattern
// matches the trailing components at any depth.
type pattern struct {
	src      string
	anchored bool
	dir      bool
	double   bool // has a "**" component
	elems    []elem
	// key is a literal component that every path the pattern matches has
	// among its components, or "" when the pattern has none.
	key string
	// lifts are the pattern's own exceptions (entries "dir/!rest"), each
	// matched against the components after the ones the pattern matched
	// at one depth: a path is not matched there when one matches. They
	// lift this pattern only, and only at that depth, unlike an entry
	// beginning with "!", which lifts the whole list.
	lifts []pattern
}

// elemKind says how one pattern component is matched.
type elemKind uint8

const (
	elemLiteral elemKind = iota // a name without wildcards: equality
	elemStar                    // "pre*suf" with one "*": prefix and suffix
	elemStars                   // "a*b*c" with several "*" and no other wildcard: the parts in order
	elemGlob                    // anything else: doublestar
	elemAny                     // "**": any number of components
)

// elem is one compiled pattern component, lower-cased. Each kind matches
// exactly the names doublestar matches with the component's text
// (FuzzPatternDoublestar holds the fast kinds to it).
type elem struct {
	kind elemKind
	text string // the component as written (lower-cased)
	pre  string // elemStar: the part before the "*"
	suf  string // elemStar: the part after it
	// parts are elemStars's text split at each "*".
	parts []string
}

// globMeta are the characters doublestar gives a meaning in a component;
// a component without them is a literal name.
const (
	globMeta        = `*?[]{}\`
	globMetaButStar = `?[]{}\`
)

// oneStar writes each run of "*" in a component (not "**" alone) as one
// "*", which it means in every glob syntax: doublestar reads "a***" as
// needing a character after "a", unlike "a*" and "a**".
func oneStar(e string) string {
	if e == "**" || !strings.Contains(e, "**") {
		return e
	}
	b := make([]byte, 0, len(e))
	star := false // the last byte written is an unescaped "*"
	for i := 0; i < len(e); i++ {
		c := e[i]
		switch {
		case c == '*':
			if !star {
				b = append(b, c)
			}
			star = true
			continue
		case c == '\\' && i+1 < len(e):
			b = append(b, c, e[i+1])
			i++
		case c == '[':
			// A class is copied whole: a "*" in it is a character.
			j := i + 1
			for j < len(e) && e[j] != ']' {
				if e[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(e)-1)
			b = append(b, e[i:j+1]...)
			i = j
		default:
			b = append(b, c)
		}
		star = false
	}
	return string(b)
}

func compileElem(e string) elem {
	e = oneStar(e)
	switch {
	case e == "**":
		return elem{kind: elemAny, text: e}
	case !strings.ContainsAny(e, globMeta):
		return elem{kind: elemLiteral, text: e}
	case strings.Count(e, "*") == 1 && !strings.ContainsAny(e, globMetaButStar):
		pre, suf, _ := strings.Cut(e, "*")
		return elem{kind: elemStar, text: e, pre: pre, suf: suf}
	case !strings.ContainsAny(e, globMetaButStar):
		return elem{kind: elemStars, text: e, parts: strings.Split(e, "*")}
	}
	return elem{kind: elemGlob, text: e}
}

// match reports whether one lower-cased path component matches.
func (e *elem) match(name string) bool {
	switch e.kind {
	case elemLiteral:
		return name == e.text
	case elemStar:
		// "*" matches any run of bytes other than "/", and a component
		// holds no "/": only the two ends are fixed.
		return len(name) >= len(e.pre)+len(e.suf) && strings.HasPrefix(name, e.pre) && strings.HasSuffix(name, e.suf)
	case elemStars:
		// The first part fixed at the start, the last at the end, the
		// others each found leftmost after the one before: what
		// doublestar finds for "*" alone, which never crosses a "/".
		first, last := e.parts[0], e.parts[len(e.parts)-1]
		if len(name) < len(first)+len(last) || !strings.HasPrefix(name, first) || !strings.HasSuffix(name, last) {
			return false
		}
		rest := name[len(first) : len(name)-len(last)]
		for _, part := range e.parts[1 : len(e.parts)-1] {
			i := strings.Index(rest, part)
			if i < 0 {
				return false
			}
			rest = rest[i+len(part):]
		}
		return true
	}
	return doublestar.MatchUnvalidated(e.text, name) // validated by compilePattern
}

func compilePattern(s string) (pattern, error) {
	p := pattern{src: s}
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
		return p, pathErr(ErrInvalidPath, s, "", "empty or malformed pattern", nil)
	}
	p.elems = make([]elem, 0, strings.Count(t, "/")+1)
	for e := range strings.SplitSeq(t, "/") {
		if e == "" || e == "." || e == ".." {
			return p, pathErr(ErrInvalidPath, s, "", "pattern has an empty, \".\" or \"..\" component", nil)
		}
		// A "{...}" group holding a "/" is split here, and each part is
		// malformed: refused, as is any other malformed component.
		if !doublestar.ValidatePattern(e) {
			return p, pathErr(ErrInvalidPath, s, "", "malformed pattern component "+e, doublestar.ErrBadPattern)
		}
		ce := compileElem(e)
		p.double = p.double || ce.kind == elemAny
		if ce.kind == elemLiteral {
			// Every component of the pattern but "**" matches one path
			// component, and a literal one only a component equal to it.
			// The last is kept: the most particular name, as a rule.
			p.key = e
		}
		p.elems = append(p.elems, ce)
	}
	return p, nil
}

// match reports whether the lower-cased components of an absolute path
// match the pattern.
func (p *pattern) match(comps []string) bool {
	if len(p.lifts) > 0 {
		return p.matchLifted(comps)
	}
	if p.anchored {
		return matchElems(p.elems, comps, p.dir)
	}
	if !p.double && !p.dir {
		// Without "**" a file pattern can only match the last components.
		i := len(comps) - len(p.elems)
		return i >= 0 && matchElems(p.elems, comps[i:], false)
	}
	for i := range comps {
		if matchElems(p.elems, comps[i:], p.dir) {
			return true
		}
	}
	return false
}

// matchLifted is match for a directory pattern with lifts, whose
// components (no "**") each match one path component: at each depth where
// the pattern matches, the components after it are tried against every
// lift, and a match at that depth counts only when no lift matches them.
func (p *pattern) matchLifted(comps []string) bool {
	n := len(p.elems)
	for i := 0; i+n <= len(comps); i++ {
		if matchElems(p.elems, comps[i:i+n], false) && !p.lifted(comps[i+n:]) {
			return true
		}
		if p.anchored {
			break
		}
	}
	return false
}

// lifted reports whether one of the pattern's lifts matches rest, the
// components beneath the directory it matched.
func (p *pattern) lifted(rest []string) bool {
	for i := range p.lifts {
		if matchElems(p.lifts[i].elems, rest, p.lifts[i].dir) {
			return true
		}
	}
	return false
}

// matchElems matches elems against the start of comps. Unless prefix is
// set, the match must use up every component.
func matchElems(elems []elem, comps []string, prefix bool) bool {
	for len(elems) > 0 {
		if elems[0].kind == elemAny {
			for k := 0; k <= len(comps); k++ {
				if matchElems(elems[1:], comps[k:], prefix) {
					return true
				}
			}
			return false
		}
		if len(comps) == 0 || !elems[0].match(comps[0]) {
			return false
		}
		elems, comps = elems[1:], comps[1:]
	}
	return prefix || len(comps) == 0
}

// patternSet is an ordered list of compiled patterns with an index: a
// pattern with a literal component is tried only on paths that have that
// component, so that a path is matched against few patterns rather than
// all of them.
type patternSet struct {
	pats []pattern
	// except holds the exceptions (the entries written with a leading
	// "!"): a path one of them matches is not matched by the set.
	except *patternSet
	// byKey maps a pattern key to the set of patterns (a bit per index)
	// that have it; always is the set of patterns without a key.
	byKey  map[string][]uint64
	always []uint64
	// keyLens has bit n set when some key is n bytes long (n < 64; longer
	// keys set bit 63), so most components skip the map lookup.
	keyLens uint64
	// memo keeps what the set said of each path it was asked about (nil
	// for the zero set: nothing kept).
	memo *matchMemo
}

// matchMemo keeps, for one compiled set, the index of the pattern that
// matched each path it was asked about (-1: none). A set is read-only
// once compiled and its answer depends on the path's text alone, so an
// answer never goes stale: a session asks about the same few paths at
// every call (the working directory, a command's operands, the
// repository's files), and the patterns with no literal component, tried
// on every path, cost most of a judgement of a path in the workspace
// (BenchmarkToolgateCommands in bench). It is safe for concurrent use.
type matchMemo struct {
	mu sync.Mutex
	m  map[string]int32
}

// maxMemo bounds the paths a matchMemo keeps; past it they are dropped
// together.
const maxMemo = 4096

// maxMemoPath bounds the length of a path a matchMemo keeps.
const maxMemoPath = 512

// listPattern returns the compiled form of s, an entry of the default
// lists (DefaultProtected, DefaultSecret) that is neither an exception
// nor a lift: for one anchored to home ("~/rest"), rest's, which
// compilePatterns puts after home's components (homeAnchor). They are
// compiled when the package is built (patterns_gen.go, held to the lists
// by TestListPatternsCurrent), so that a sandbox, made for every call of
// toolgate check, compiles only what a configuration adds (see
// BenchmarkCompileLists); a pattern is read-only once compiled, so one is
// shared by every set.
func listPattern(s string) (*pattern, bool) {
	i, ok := listPatternIndex()[s]
	if !ok {
		return nil, false
	}
	return &listPatternTable[i].p, true
}

// listPatternIndex finds an entry's row of listPatternTable: a map is
// made once, from the table (no pattern is compiled), since compilePatterns
// looks each entry of a list up.
var listPatternIndex = sync.OnceValue(func() map[string]int {
	m := make(map[string]int, len(listPatternTable))
	for i := range listPatternTable {
		m[listPatternTable[i].entry] = i
	}
	return m
})

// listPatternRow is one entry of listPatternTable.
type listPatternRow struct {
	entry string
	p     pattern
}

// homeAnchor is the components of home as a pattern's first ones: what
// compilePattern makes of escapeGlob(home) followed by "/".
type homeAnchor struct {
	elems    []elem
	anchored bool
	double   bool
	key      string // the last literal component
}

// newHomeAnchor compiles home's components once for every "~/" entry of
// a list; ok false when they do not compile alone (the entry is then
// compiled whole, and fails as it did).
func newHomeAnchor(home string) (homeAnchor, bool) {
	p, err := compilePattern(escapeGlob(home) + "/x")
	if err != nil || len(p.elems) < 2 {
		return homeAnchor{}, false
	}
	a := homeAnchor{elems: p.elems[:len(p.elems)-1], anchored: p.anchored}
	for _, e := range a.elems {
		a.double = a.double || e.kind == elemAny
		if e.kind == elemLiteral {
			a.key = e.text
		}
	}
	return a, true
}

// join is the pattern compilePattern makes of home's components followed
// by rest's, rest compiled alone.
func (a homeAnchor) join(rest pattern) pattern {
	p := rest
	p.anchored = a.anchored
	p.double = a.double || rest.double
	p.elems = append(slices.Clip(a.elems), rest.elems...)
	if p.key == "" {
		p.key = a.key
	}
	return p
}

// homeEntries compiles the entries of one list against home, whose
// components are compiled once, for the first "~/" entry.
type homeEntries struct {
	home     string
	anchor   homeAnchor
	tried    bool
	anchorOK bool
}

// compile compiles the entry s, neither an exception nor a lift: from
// the table when the default lists hold it (a "~/" one joined to home's
// components), else on its own. keep is false for a "~/" entry without a
// home, which is left out.
func (h *homeEntries) compile(s string) (p pattern, keep bool, err error) {
	rest, homed := strings.CutPrefix(s, "~/")
	if !homed {
		if lp, ok := listPattern(s); ok {
			return *lp, true, nil
		}
		p, err = compilePattern(s)
		return p, err == nil, err
	}
	if h.home == "" {
		return pattern{}, false, nil
	}
	if !h.tried {
		h.anchor, h.anchorOK = newHomeAnchor(h.home)
		h.tried = true
	}
	if lp, ok := listPattern(s); ok && h.anchorOK {
		p = h.anchor.join(*lp)
	} else if p, err = compilePattern(escapeGlob(h.home) + "/" + rest); err != nil {
		return pattern{}, false, pathErr(ErrInvalidPath, s, "", "malformed pattern", err)
	}
	p.src = s
	return p, true, nil
}

// compilePatterns compiles a list of patterns. An entry beginning with
// "!" is an exception; one beginning with "~/" is anchored to home, and
// left out when home is empty; one with a component beginning with "!"
// ("dir/!rest") is a lift of the entry "dir/" (see [pattern.lifts]).
func compilePatterns(src []string, home string) (patternSet, error) {
	set := patternSet{pats: make([]pattern, 0, len(src))}
	var except, lifts []string
	homed := homeEntries{home: home}
	for _, s := range src {
		if e, ok := strings.CutPrefix(s, "!"); ok {
			except = append(except, e)
			continue
		}
		if strings.Contains(s, "/!") {
			lifts = append(lifts, s)
			continue
		}
		p, keep, err := homed.compile(s)
		if err != nil {
			return patternSet{}, err
		}
		if keep {
			set.pats = append(set.pats, p)
		}
	}
	for _, s := range lifts {
		if err := set.lift(s, home); err != nil {
			return patternSet{}, err
		}
	}
	if len(except) > 0 {
		ex, err := compilePatterns(except, home)
		if err != nil {
			return patternSet{}, err
		}
		set.except = &ex
	}
	set.memo = &matchMemo{}
	words := (len(set.pats) + 63) / 64
	set.always = make([]uint64, words)
	set.byKey = make(map[string][]uint64, len(set.pats))
	// The keys' bit sets are cut from one array: at most one a pattern.
	bits := make([]uint64, 0, words*len(set.pats))
	for i, p := range set.pats {
		if p.key == "" {
			set.always[i/64] |= 1 << (i % 64)
			continue
		}
		b := set.byKey[p.key]
		if b == nil {
			bits = bits[:len(bits)+words]
			b = bits[len(bits)-words : len(bits) : len(bits)]
			set.byKey[p.key] = b
			set.keyLens |= lenBit(len(p.key))
		}
		b[i/64] |= 1 << (i % 64)
	}
	return set, nil
}

// lift adds the entry s, "dir/!rest", to the lifts of the pattern written
// "dir/", which must be in the set (unless it is anchored to a home the
// set has not: then neither is), have no "**" and no lift of its own in
// rest.
func (set *patternSet) lift(s, home string) error {
	k := strings.Index(s, "/!")
	base, rest := s[:k+1], s[k+2:]
	if strings.Contains(rest, "/!") {
		return pathErr(ErrInvalidPath, s, "", "a lift within a lift", nil)
	}
	lp, err := compilePattern(rest)
	if err != nil || strings.HasPrefix(rest, "/") {
		return pathErr(ErrInvalidPath, s, "", "malformed lift "+strconv.Quote(rest), err)
	}
	for i := range set.pats {
		p := &set.pats[i]
		if p.src != base {
			continue
		}
		if p.double {
			return pathErr(ErrInvalidPath, s, "", "a lift of a pattern with \"**\"", nil)
		}
		p.lifts = append(p.lifts, lp)
		return nil
	}
	if strings.HasPrefix(base, "~/") && home == "" {
		return nil
	}
	return pathErr(ErrInvalidPath, s, "", "a lift of "+strconv.Quote(base)+", which the list does not hold", nil)
}

func lenBit(n int) uint64 { return 1 << min(n, 63) }

// first returns the first pattern matching any of the absolute paths: for
// the first path that any pattern matches, the first such pattern in the
// set's order.
func (set *patternSet) first(paths ...string) (string, bool) {
	if len(set.pats) == 0 {
		return "", false
	}
	for _, p := range paths {
		if p == "" {
			continue
		}
		if i := set.matchPath(p); i >= 0 {
			return set.pats[i].src, true
		}
	}
	return "", false
}

// matchPath is match on the components of the absolute path p, through
// the set's memo.
func (set *patternSet) matchPath(p string) int {
	m := set.memo
	if m == nil || len(p) > maxMemoPath {
		return set.matchSplit(p)
	}
	m.mu.Lock()
	i, ok := m.m[p]
	m.mu.Unlock()
	if ok {
		return int(i)
	}
	i = int32(set.matchSplit(p))
	m.mu.Lock()
	if m.m == nil || len(m.m) >= maxMemo {
		m.m = make(map[string]int32)
	}
	m.m[strings.Clone(p)] = i
	m.mu.Unlock()
	return int(i)
}

// matchSplit is match on the components of the absolute path p, as
// strings.Split(strings.Trim(strings.ToLower(p), "/"), "/") gives them;
// for the common path (ASCII, not too deep) in buffers of this frame.
func (set *patternSet) matchSplit(p string) int {
	var (
		lowBuf  [512]byte
		compBuf [32]string
	)
	if low, ok := lower(lowBuf[:], p); ok && strings.Count(p, "/") < len(compBuf) {
		low = strings.Trim(low, "/")
		n := 0
		for {
			k := strings.IndexByte(low, '/')
			if k < 0 {
				break
			}
			compBuf[n], low = low[:k], low[k+1:]
			n++
		}
		compBuf[n] = low
		return set.match(compBuf[:n+1])
	}
	return set.match(strings.Split(strings.Trim(strings.ToLower(p), "/"), "/"))
}

// match is index unless an exception matches the components.
func (set *patternSet) match(comps []string) int {
	i := set.index(comps)
	if i >= 0 && set.except != nil && set.except.index(comps) >= 0 {
		return -1
	}
	return i
}

// escapeGlob escapes the characters doublestar gives a meaning, so that a
// literal path can be the start of a pattern.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, globMeta) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if strings.IndexByte(globMeta, s[i]) >= 0 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// index returns the index of the first pattern matching the lower-cased
// components of a path, or -1. Only the patterns without a key and those
// whose key is among the components are tried.
func (set *patternSet) index(comps []string) int {
	var maskBuf [4]uint64
	mask := append(maskBuf[:0], set.always...)
	for _, c := range comps {
		if set.keyLens&lenBit(len(c)) == 0 {
			continue
		}
		if b, ok := set.byKey[c]; ok {
			for w := range mask {
				mask[w] |= b[w]
			}
		}
	}
	for w, word := range mask {
		for word != 0 {
			i := w*64 + bits.TrailingZeros64(word)
			word &= word - 1
			if set.pats[i].match(comps) {
				return i
			}
		}
	}
	return -1
}

// lower returns p lower-cased as strings.ToLower would, and true, when p
// is ASCII: p itself when it has no upper-case letter, else a copy in buf
// (which must be the caller's and outlive the result) if it fits. It
// returns false for other paths.
func lower(buf []byte, p string) (string, bool) {
	upper := false
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c >= 0x80 {
			return "", false
		}
		upper = upper || 'A' <= c && c <= 'Z'
	}
	if !upper {
		return p, true
	}
	if len(p) > len(buf) {
		return "", false
	}
	b := buf[:len(p)]
	for i := range b {
		c := p[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b[i] = c
	}
	return unsafe.String(unsafe.SliceData(b), len(b)), true
}
