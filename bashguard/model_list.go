package bashguard

import (
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Commands other than find print lists of paths too, and their output
// feeds xargs and loops as find's does: git ls-files, git grep -l, git
// diff --name-only, rg -l and rg --files, grep -rl, fd and ls. Each is
// modelled by what it can print, a set of paths below its starting
// points, and that set is walked and judged as find's is (model_find.go):
//
//   - git ls-files, git grep -l and git diff --name-only print names the
//     repository holds (in its index, its commits or its work tree),
//     relative to the working directory or to the repository's top
//     level. Without ".." or a magic pathspec they never lead above the
//     working directory, and they never pass through an entry named
//     .git, so every file a consumer may open with one of them is an
//     entry below the working directory, outside .git directories: the
//     walk covers that tree, following links to directories (an old name
//     may pass through what is a link today). A name that git would
//     quote (control characters, bytes above 0x7e, '"', '\') is asked:
//     git prints another text for it.
//   - rg and fd skip names that start with "." unless told otherwise
//     (--hidden, -uu); grep -r lists everything; ls lists the entries of
//     the working directory, without those that start with "." unless
//     -A. The other filters (patterns, types, ignore files) only narrow
//     what they print, and are not relied upon: every entry counts.
//   - Below ".", names are printed without "./", so one that starts with
//     "-" would be read as an option: it is asked.
//
// Only options known to keep the output plain names qualify: git
// ls-files -s/--stage/-t/--format, rg and grep without -l (which print
// "file:line"), ls -l/-F/--quoting-style, fd -l/--format, and fd -x/-X
// (which run a command themselves) are not listings, and what reads them
// stays asked. The command itself is judged as it stands, elsewhere.
//
// What each lister prints is data: the listing of its spec (spec.lists,
// the tables in specs_listers.go) says what each option it takes does to
// the listing, and its command line is read by the one scanner (scan.go),
// so that every spelling the program accepts (clusters, attached values,
// abbreviations, --opt=value) reaches the same row. An option the listing
// does not name, or one with a value it does not allow, makes the command
// no lister.

// listEffect is what an option does to what a lister prints.
type listEffect uint16

// lPlain is an option that changes nothing of the form of what is
// printed: it only narrows it.
const lPlain listEffect = 0

const (
	lNames        listEffect = 1 << iota // it prints the names of the files that match, not the lines (rg -l, git diff --name-only)
	lFiles                               // it prints every file it would search, and takes no pattern (rg --files)
	lRecursive                           // it searches the trees below its operands (grep -r)
	lFollow                              // it follows the links in the trees (rg -L, grep -R)
	lHidden                              // it prints the names that start with "." (rg --hidden, ls -A)
	lUnrestricted                        // given twice, it prints the names that start with "." (rg -u)
	lPrint0                              // it ends each name with a NUL
	lPattern                             // its value is the pattern, so the first operand is not (-e, -f)
	lStart                               // its value is one more starting point (fd --search-path)
	lBeyondIndex                         // it prints names the index does not track (git ls-files -o)
)

// patternUse says whether a lister's first operand is its pattern.
type patternUse uint8

const (
	patNone     patternUse = iota // no pattern operand
	patOptional                   // the first operand, if any, is the pattern (fd)
	patRequired                   // the first operand is the pattern; without one it is no lister (rg -l)
)

// opRule says what a lister's operands (after its pattern) are.
type opRule uint8

const (
	opStarts  opRule = 1 << iota // they are its starting points
	opInside                     // each is a relative path that stays below the working directory
	opNoMagic                    // none starts with ":" (a magic pathspec)
	opNoColon                    // none holds ":" (a revision's path)
	opExists                     // each names an existing path (git grep: another word may be a revision)
	opInTop                      // each that exists resolves inside the work tree (git diff: else it compares files)
	opDot                        // there is at most one, and it is "." (ls)
	// opPathStarts: they are pathspecs, and the starting points when
	// each is a plain path that exists (git ls-files src); one with a
	// pattern's characters, or that does not exist, may match anywhere,
	// and the whole tree is the starting point.
	opPathStarts
)

// listOpt is one row of a listing: options of the lister's spec, by their
// spellings there ("-l --files-with-matches"; "--no-X" where the grammar
// negates X), and what they do to what it prints. vals, when set, are the
// only values the options may have, separated by spaces.
type listOpt struct {
	spell string
	eff   listEffect
	vals  string
}

// listModel is what a lister prints: the names below its starting points,
// as its options change them.
type listModel struct {
	opts []listOpt
	// needs: of each set of effects, exactly one must be given (grep:
	// -l, and -r; rg: -l or --files).
	needs      []listEffect
	pattern    patternUse
	operands   opRule
	skipHidden bool // it skips the names that start with "." unless an option says otherwise
	depth      int  // how deep it lists: 0 for the whole tree, 1 for the entries of the directory
	// repo: it prints names the repository holds: it needs one, passes
	// no .git, follows links, and quotes unusual names unless -z.
	repo bool
	// index: it prints only the entries the index tracks, unless an
	// option of lBeyondIndex is given.
	index bool

	// owner is the spec the listing belongs to; byName, built from its
	// tables on first use, has the rows by the name the scanner gives each
	// option.
	owner  *spec
	once   sync.Once
	byName map[string]*listOpt
}

// compile gives l to s, the spec it belongs to. It panics on a listing
// shared by two specs; the spellings are resolved on first use (rows),
// which panics on one s does not have or one named twice: the tables are
// the package's own, and a test builds each.
func (l *listModel) compile(s *spec) {
	if l.owner != nil && l.owner != s {
		panic("bashguard: spec " + s.name + ": its listing belongs to another spec")
	}
	l.owner = s
}

// rows returns the rows of l by the name the scanner gives each option.
func (l *listModel) rows() map[string]*listOpt {
	l.once.Do(func() {
		s := l.owner
		l.byName = map[string]*listOpt{}
		for i := range l.opts {
			for w := range strings.FieldsSeq(l.opts[i].spell) {
				name := s.optionName(w)
				if name == "" || l.byName[name] != nil {
					panic(fmt.Sprintf("bashguard: spec %s: listing spelling %q is unknown or repeated", s.name, w))
				}
				l.byName[name] = &l.opts[i]
			}
		}
	})
	return l.byName
}

// optionName returns the name the scanner gives the option spelt w in s
// (the first spelling of its row, or "--no-X" for a negated X), or "".
func (s *spec) optionName(w string) string {
	if len(w) == 2 && w[0] == '-' && w[1] != '-' {
		if sp := s.tables().short[w[1]]; sp != nil {
			return sp.opt.name
		}
		return ""
	}
	if sp := s.longExact(w); sp != nil {
		return sp.opt.name
	}
	if rest, ok := strings.CutPrefix(w, "--no-"); ok && s.grammar.negate {
		if sp := s.longExact("--" + rest); sp != nil && sp.arg != argRequired {
			return w
		}
	}
	return ""
}

// listRead is what the options of a lister's command line said.
type listRead struct {
	eff          listEffect
	unrestricted int      // how many times an option of lUnrestricted was given
	ops          []string // the operands
	starts       []string // the values of options of lStart
	bad          bool     // an option is not in the listing, or has a value it does not allow
}

// add records what the option or operand e does, by the listing l.
func (r *listRead) add(l *listModel, e *scanned) {
	switch {
	case e.opt == &dashDashOpt:
		return
	case e.opt == nil && e.problem == "":
		r.ops = append(r.ops, e.word)
		return
	case e.opt == nil:
		r.bad = true
		return
	}
	o := l.rows()[e.opt.name]
	if o == nil || o.vals != "" && (!e.hasVal || !slices.Contains(strings.Fields(o.vals), e.val)) {
		r.bad = true
		return
	}
	r.eff |= o.eff
	if o.eff&lUnrestricted != 0 {
		r.unrestricted++
	}
	if o.eff&lStart != 0 {
		r.starts = append(r.starts, e.val)
	}
}

// listerSpec returns the spec of the command name when it is a lister or
// has subcommands that may be (git).
func listerSpec(name string) *spec {
	if name == gitSpec().name {
		return gitSpec()
	}
	for _, tbl := range [...]map[string]*spec{readerSpecs(), toolSpecs()} {
		if s := tbl[name]; s != nil && s.lists != nil {
			return s
		}
	}
	return nil
}

// listerSub follows the subcommands of the command line v from the word
// at from on, by the spec s, while the listing of each names the options
// given before its subcommand; it returns the spec of the last and the
// index of its first word, or nil when that spec is no lister.
func listerSub(s *spec, v *argv, from int) (*spec, int) {
	for s.subs != nil && s.lists != nil {
		var r listRead
		i := scanSpec(s, v, from, true, func(e *scanned) { r.add(s.lists, e) })
		if r.bad || i >= v.len() || s.subs[v.vals[i]] == nil {
			return nil, 0
		}
		s, from = s.subs[v.vals[i]], i+1
	}
	if s.lists == nil || s.subs != nil {
		return nil, 0
	}
	return s, from
}

// listed reads the command line v from the word at from on by the spec s
// (and its subcommands), and returns what it prints, or nil when it is no
// lister.
func (m *cmdCall) listed(s *spec, v *argv, from int) *findInfo {
	if s, from = listerSub(s, v, from); s == nil {
		return nil
	}
	l := s.lists
	top := ""
	if l.repo {
		if m.dir == "" || !filepath.IsAbs(m.dir) {
			return nil
		}
		t, why := m.repoTop()
		if t == "" || why != "" {
			return nil // outside a repository, git diff compares any two paths
		}
		top = t
	}
	var r listRead
	scanSpec(s, v, from, false, func(e *scanned) { r.add(l, e) })
	if r.bad || slices.ContainsFunc(l.needs, func(n listEffect) bool { return bits.OnesCount16(uint16(r.eff&n)) != 1 }) {
		return nil
	}
	ops := r.ops
	if l.pattern != patNone && r.eff&(lPattern|lFiles) == 0 {
		if len(ops) == 0 && l.pattern == patRequired {
			return nil
		}
		if len(ops) > 0 {
			ops = ops[1:]
		}
	}
	if !m.listOperands(l.operands, top, ops) {
		return nil
	}
	return m.listInfo(s, &r, ops)
}

// listInfo is what the lister of spec s prints, its options having said r
// and its operands after the pattern being ops.
func (m *cmdCall) listInfo(s *spec, r *listRead, ops []string) *findInfo {
	l := s.lists
	fi := &findInfo{who: s.name, paths: true, filter: findFilter{maxDepth: -1}, linkStart: true}
	if l.depth > 0 {
		fi.filter.maxDepth = l.depth
	}
	fi.print0 = r.eff&lPrint0 != 0
	fi.follow = l.repo || r.eff&lFollow != 0
	fi.noHidden = l.skipHidden && r.eff&lHidden == 0 && r.unrestricted < 2
	fi.noGit, fi.quoted = l.repo, l.repo && !fi.print0
	if l.index && r.eff&lBeyondIndex == 0 {
		// It prints the index's entries: an untracked .env is not
		// among them.
		fi.index, fi.indexTop = m.trackedScope()
	}
	if l.operands&opStarts != 0 {
		fi.starts = append(ops[:len(ops):len(ops)], r.starts...)
	}
	if l.operands&opPathStarts != 0 && len(ops) > 0 && !slices.ContainsFunc(ops, func(p string) bool {
		_, err := os.Lstat(filepath.Join(m.dir, p))
		return err != nil || strings.ContainsAny(p, "*?[\\")
	}) {
		fi.starts = ops[:len(ops):len(ops)]
	}
	if len(fi.starts) == 0 {
		fi.starts, fi.bare = []string{"."}, true
	}
	return fi
}

// listOperands reports whether ops are operands the rule r lets a lister
// take, top being the top level of its repository. A word after git grep's
// pattern may be a revision, whose matches git prints as "REV:path": only
// existing paths qualify (a word that is both is refused by git). A path
// outside the work tree makes git diff compare files (--no-index),
// printing their names as given.
func (m *cmdCall) listOperands(r opRule, top string, ops []string) bool {
	if r&opDot != 0 && (len(ops) > 1 || len(ops) == 1 && ops[0] != ".") {
		return false
	}
	for _, p := range ops {
		if r&opInside != 0 && !inside(p) || r&opNoMagic != 0 && strings.HasPrefix(p, ":") ||
			r&opNoColon != 0 && strings.Contains(p, ":") {
			return false
		}
		if r&opExists != 0 {
			if _, err := os.Lstat(filepath.Join(m.dir, p)); err != nil {
				return false
			}
		}
		if r&opInTop != 0 {
			real, err := filepath.EvalSymlinks(filepath.Join(m.dir, p))
			if err == nil && real != top && !strings.HasPrefix(real, strings.TrimSuffix(top, "/")+"/") {
				return false
			}
		}
	}
	return true
}

// inside reports a relative path that stays below the directory it is
// taken from: not absolute, no ".." component, no tilde.
func inside(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return false
	}
	for _, e := range strings.Split(p, "/") {
		if e == ".." {
			return false
		}
	}
	return true
}

// gitNamesOnly reports a git ls-files (its spec s, its options from the
// word at from on) that prints names only, with options and pathspecs its
// listing takes: it reads no file, so its pathspecs are probes, and a
// pattern that matches a secret file only prints its name.
func (m *cmdCall) gitNamesOnly(s *spec, v *argv, from int) bool {
	for k := from - 1; k < v.len(); k++ {
		if !v.literal(k) || v.flags[k]&wGlob != 0 {
			return false
		}
	}
	return m.listed(s, v, from) != nil
}

// listerOf returns what the command line args prints, when it is one of
// the listing commands above, and nil otherwise. find is not among them:
// it records its own (scanFind).
func (m *cmdCall) listerOf(args []string) *findInfo {
	sp := listerSpec(args[0])
	if sp == nil {
		return nil
	}
	v := argv{vals: args, flags: make([]wordFlags, len(args))}
	return m.listed(sp, &v, 1)
}
