package bashguard

import (
	"path"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// reader judges the commands that read the files named by their operands,
// by their specs (specs_readers.go): each option by its kind, then the
// operands, the trees a recursive read walks, and what a few of them do
// with their operands beyond reading them.
func (m *cmdCall) reader(c *verdictAcc, name string, s *spec, v *argv) {
	f := m.judgeSpec(c, name, s, v, 1)
	tree := readerTree(s, &f)
	// What the reader does with its operands beyond reading them
	// (jq's program, date's, a checksum list).
	m.specCheck(c, s, v, 1, &f)
	if f.hasKind(kSumList) {
		m.sumLists(c, s, v, &f)
	}
	if s.operands == kWord {
		c.allow(RuleSafe, "on the safe list")
		return
	}
	m.leadGlobs(c, name, s, v, &f)
	ops := f.ops
	roots := 0
	for k, i := range ops {
		switch s.operandKind(k, &f) {
		case kPattern:
			continue
		case kWrite:
			m.writtenOperand(c, name, v, i) // uniq IN OUT
			continue
		}
		if s.operands == kProbe {
			if m.probePath(c, v.vals[i], v.flags[i], name) && tree.recursive {
				m.walkRoot(c, v.vals[i], v.flags[i], name, tree)
			}
		} else if m.readPath(c, v.vals[i], v.flags[i], name) && tree.recursive {
			m.walkRoot(c, v.vals[i], v.flags[i], name, tree)
		}
		roots++
	}
	switch {
	case roots == 0 && s.bareDot:
		// ls and du without an operand list the working directory.
		if m.probePath(c, ".", 0, name) && tree.recursive {
			m.walkRoot(c, ".", 0, name, tree)
		}
	case tree.recursive && roots == 0:
		// grep -r and rg without a file search the working directory.
		m.walkRoot(c, ".", 0, name, tree)
	}
	c.allow(RuleSafe, "reads only inside the allowed roots")
}

// readerTree says what the reader s reaches below its operands: its
// spec's tree (rg searches the tree of every operand, skipping hidden
// names; diff -r follows the links it finds; ls -R and du list the tree,
// and follow its links only with -L), changed by what its options said
// (their kinds kRecurse, kFollow, ...).
func readerTree(s *spec, f *specFacts) walkOpts {
	d := s.tree
	w := walkOpts{recursive: d.recursive, content: true, hidden: !d.skipHidden, follow: d.follow}
	unrestricted := 0
	for _, e := range f.seen {
		switch e.opt.kind {
		case kRecurse:
			w.recursive = true
		case kRecurseFollow:
			w.recursive, w.follow = true, true
		case kDirectories:
			w.recursive = w.recursive || e.val == "recurse"
		case kFollow:
			w.follow = true
		case kNoFollow:
			w.follow = false
		case kHidden:
			w.hidden = true
		case kUnrestricted:
			if unrestricted++; unrestricted >= 2 {
				w.hidden = true
			}
		case kInclude:
			w.names = append(w.names, nameFilter{kind: includeFile, pattern: e.val})
		case kExclude:
			w.names = append(w.names, nameFilter{kind: excludeFile, pattern: e.val})
		case kExcludeDir:
			w.names = append(w.names, nameFilter{kind: excludeDir, pattern: e.val})
		}
	}
	if d.listing {
		// A listing is walked only where it follows links: with -L, du
		// and ls -R list (and ls -L without -R stats) the entries behind
		// every link in the tree, which may lead out of the roots.
		w.recursive, w.content, w.hidden = w.follow, false, true
	}
	return w
}

// readerJq is jq's model: its program (see jqProgram).
func (m *cmdCall) readerJq(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	m.jqProgram(c, v, f, f.has(s.patternBy...))
}

// writtenOperand judges the operand at i of the command name, which its
// spec says is a file written (uniq IN OUT, xxd IN OUT): the path, and
// the command's Ask for writing it, which an allow rule may lift.
func (m *cmdCall) writtenOperand(c *verdictAcc, name string, v *argv, i int) {
	m.writePath(c, v.vals[i], v.flags[i], name)
	c.addf(permission.Ask, ArgsRule(name), name+" writes its output to ", v.vals[i], "", true)
}

// leadGlobs asks for a line of s whose first operand position that is a
// file written (leadOps, then operands: uniq IN OUT, xxd IN OUT) no
// operand fills as written, when a glob before it may name two files or
// more: bash gives the command each name, and the second takes the place
// of the file written.
func (m *cmdCall) leadGlobs(c *verdictAcc, name string, s *spec, v *argv, f *specFacts) {
	w := -1
	for k := 0; k <= len(s.leadOps) && w < 0; k++ {
		if s.operandKind(k, f) == kWrite {
			w = k
		}
	}
	if w < 0 || len(f.ops) > w {
		return
	}
	for _, i := range f.ops {
		if v.flags[i]&wGlob == 0 || !v.literal(i) {
			continue
		}
		if names, err := expandGlob(m.dir, v.vals[i]); err != nil || len(names) > 1 || m.dir == "" {
			c.addf(permission.Ask, ArgsRule(name), "glob ", v.vals[i], " may name two files, and "+name+" writes its output to the second", true)
		}
	}
}

// sumLists judges the operands of a checksum program's line whose option
// (kSumList: md5sum -c) makes them checksum lists, or its standard input
// without operands: the files the lists name are read
// (model_sumlist.go).
func (m *cmdCall) sumLists(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	if len(f.ops) == 0 {
		m.sumList(c, "-", 0, s.name)
	}
	for _, i := range f.ops {
		m.sumList(c, v.vals[i], v.flags[i], s.name)
	}
}

// jqProgram judges jq's program: one read from a file (-f) is not
// analysed; one on the command line may load modules or read the
// environment. Options such as --arg name value move the program to a
// later operand: every operand is looked at.
func (m *cmdCall) jqProgram(c *verdictAcc, v *argv, f *specFacts, fromFile bool) {
	if fromFile {
		c.add(permission.Ask, ArgsRule("jq"), "runs a jq program from a file, which is not analysed (it may import files outside the roots)", false)
	}
	for _, i := range f.ops {
		p := v.vals[i]
		if jqWord(p, "import") || jqWord(p, "include") || jqWord(p, "modulemeta") {
			c.add(permission.Ask, ArgsRule("jq"), "loads modules or data files (import, include), which can read files outside the roots", false)
			return
		}
		if jqReadsEnv(p) {
			environ(c, "jq program "+p+" reads the environment (env, $ENV)")
			return
		}
	}
}

// find allows searches that neither run commands nor write; -exec and
// friends have their command judged. What each primary of the
// expression does is a row of findPrimaries (model_find.go).
func (m *cmdCall) find(c *verdictAcc, v *argv, x execCtx) {
	i, follow := findLeading(v)
	starts, expr := findStarts(v, i)
	fx := findEffects{follow: follow}
	for i := expr; i < v.len(); i++ {
		if p := findPrimary(v.vals[i]); p != nil {
			i = m.findEffect(c, v, i, p, x, &fx)
		}
	}
	m.findStartPoints(c, v, starts, &fx)
	if fx.del {
		c.add(permission.Ask, ArgsRule("find"), "-delete removes the files found", true)
	}
	fi := m.scanFind(v, starts, expr, fx.follow)
	if fx.execRead {
		m.readFound(c, fi, "find", 0)
		c.allow(RuleSafe, "find -exec runs a read-only command on files inside the allowed roots")
	}
	c.lists = fi
	c.allow(RuleSafe, "find without actions that run commands or write")
}

// findLeading reads find's leading options by findLeadingSpec and
// returns the index of the first word after them and whether links are
// followed (the last of -L, -H, -P says).
func findLeading(v *argv) (int, bool) {
	follow := false
	i := scanSpec(findLeadingSpec(), v, 1, true, func(e *scanned) {
		switch {
		case e.opt == nil:
		case e.opt.kind == kFollow:
			follow = true
		case e.opt.kind == kNoFollow:
			follow = false
		}
	})
	return i, follow
}

// findStarts returns the indexes of the starting points from i on, and
// the index of the first word of the expression.
func findStarts(v *argv, i int) ([]int, int) {
	var starts []int
	for ; i < v.len(); i++ {
		s := v.vals[i]
		if v.literal(i) && (len(s) > 1 && s[0] == '-' || s == "(" || s == "!" || s == ")" || s == ",") {
			break
		}
		starts = append(starts, i)
	}
	return starts, i
}

// findStartPoints judges the starting points: each is written under
// -delete (and a critical one denied), probed otherwise, and walked where
// find follows the links in the tree.
func (m *cmdCall) findStartPoints(c *verdictAcc, v *argv, starts []int, fx *findEffects) {
	walk := walkOpts{recursive: true, hidden: true, follow: true}
	if len(starts) == 0 && fx.follow && !fx.del {
		m.walkRoot(c, ".", 0, "find", walk)
	}
	if len(starts) == 0 && fx.del {
		m.writePath(c, ".", 0, "find")
	}
	for _, k := range starts {
		if fx.del {
			if v.literal(k) && (path.IsAbs(v.vals[k]) || strings.HasPrefix(v.vals[k], "~")) && m.critical(v.vals[k]) {
				c.add(permission.Deny, RuleDangerousRmCritical, "deletes everything under the critical path "+v.vals[k], false)
			}
			m.writePath(c, v.vals[k], v.flags[k], "find")
		} else if m.probePath(c, v.vals[k], v.flags[k], "find") && fx.follow {
			// find -L follows the links in the tree: one out of the roots
			// lists (and -exec runs on) what lies outside.
			m.walkRoot(c, v.vals[k], v.flags[k], "find", walk)
		}
	}
}

// gitPattern reports an operand that reaches git as a pattern it matches
// itself: pathspec magic, quoted glob characters, or an unquoted glob that
// matches no file here (bash then passes it on as it is). A glob that
// matches files names those files, which go through the judge.
func gitPattern(s string, fl wordFlags, dir string) bool {
	if strings.HasPrefix(s, ":(") || strings.HasPrefix(s, ":!") || strings.HasPrefix(s, ":^") {
		return true
	}
	if !strings.ContainsAny(s, "*?[") {
		return false
	}
	if fl&wGlob == 0 {
		return true
	}
	matches, err := expandGlob(dir, s)
	return err == nil && len(matches) == 0
}

// gitBlobPath returns the path of a <rev>:<path> or :[<stage>:]<path>
// operand, and false for operands without one (no colon, an empty path,
// or ":/<text>", which searches commit messages).
func gitBlobPath(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i < 0 {
		return "", false
	}
	p := s[i+1:]
	if i == 0 {
		if strings.HasPrefix(p, "/") {
			return "", false
		}
		if len(p) >= 2 && '0' <= p[0] && p[0] <= '3' && p[1] == ':' {
			p = p[2:] // :<stage>:<path>
		}
	}
	return p, p != ""
}

// jqWord reports whether the jq program f uses the keyword or function w:
// an occurrence that is not part of a longer name, a field (.w) or a
// variable ($w).
func jqWord(f, w string) bool {
	for i := 0; ; {
		k := strings.Index(f[i:], w)
		if k < 0 {
			return false
		}
		k += i
		end := k + len(w)
		if (k == 0 || !isWordByte(f[k-1]) && f[k-1] != '.' && f[k-1] != '$') && (end == len(f) || !isWordByte(f[end])) {
			return true
		}
		i = end
	}
}

// gitPlainPattern reports a pathspec pattern without magic (":(top)",
// ":/"), "..", or a leading "/": git matches it against the paths below
// the working directory only.
func gitPlainPattern(s string) bool {
	return s != "" && s[0] != ':' && s[0] != '/' && !strings.Contains(s, "..")
}
