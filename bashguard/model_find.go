package bashguard

import (
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
)

// A read-only command run on the files find finds, by "find ... -exec CMD
// {} +" (or \;) or by "find ... | xargs CMD" ("find ... -print0 | xargs -0
// CMD"), reads what find lists: every entry below find's starting points
// that its name and type tests may let through. CMD is judged as it
// stands, with a placeholder for the files; then those files are walked,
// within the bound of recursive reads, and each goes through the path
// judge as a read (a link too, which CMD opens although find does not
// follow it). Only a conjunction of -name, -iname, -type and -maxdepth
// narrows the walk; with -o, !, -not or parentheses every entry counts.
//
// xargs splits its input at blanks and reads quotes and backslashes: an
// entry whose name holds them becomes other words (a file named
// "x --pre=sh" gives the option --pre=sh), so without -print0 and -0 such
// a name is asked. The input must come straight from find through a pipe
// (not |&, which adds find's messages), and xargs may use only options
// that do not change what it reads: -0, -r, -t, -x, -n, -L, -P, -s.
//
// -execdir, -ok, -okdir, a {} inside a larger word, -exec after output
// actions, and xargs fed by anything else stay asked.

// findFilter is the part of a find expression that narrows the entries an
// action sees: a conjunction of name patterns, a type and a depth.
type findFilter struct {
	names    []string // path.Match patterns of the base name
	inames   []string // the same, case-insensitive (lower case)
	typ      byte     // 'f', 'd', 'l' or 0 for any
	maxDepth int      // -1 for no limit
}

// findInfo is what one find command lists.
type findInfo struct {
	starts  []string // the starting points, as bash passes them
	follow  bool     // -L: links in the tree are followed
	filter  findFilter
	paths   bool // it prints only the paths it finds (-print, -print0)
	print0  bool // separated by NUL
	unknown bool // a starting point is only known at run time

	// Other listing commands (see model_list.go) print their entries
	// otherwise than find does.
	who       string // the command that prints the list, for reasons ("" is find)
	bare      bool   // below ".", names are printed without "./": one may start with "-"
	noHidden  bool   // names that start with "." are neither listed nor descended
	noGit     bool   // entries named .git are neither listed nor descended
	quoted    bool   // unusual names are printed C-quoted (git without -z)
	linkStart bool   // a starting point that is a link is searched
	// index, when set, holds what git ls-files prints: only the entries
	// it tracks, below the work tree whose top is indexTop.
	index    *gitIndex
	indexTop string
}

// lister names the command that prints the list.
func (fi *findInfo) lister() string {
	if fi.who == "" {
		return "find"
	}
	return fi.who
}

// printed is the text the listing command prints for the entry rel below
// the starting point s.
func (fi *findInfo) printed(s, rel string) string {
	if fi.bare && (s == "." || s == "./") {
		return rel
	}
	return strings.TrimSuffix(s, "/") + "/" + rel
}

// findDoes is what a primary of find's expression does.
type findDoes uint8

const (
	findTest     findDoes = iota // a test or an option that only looks at the entries: harmless
	findOperator                 // -o, !, (: the expression is no conjunction, so it narrows nothing
	findName                     // -name PATTERN: narrows the entries an action sees
	findIName                    // -iname PATTERN, the same without regard to case
	findType                     // -type f, d or l: narrows them
	findMaxDepth                 // -maxdepth N: bounds the walk
	findPrint                    // -print: prints the paths, a newline after each
	findPrint0                   // -print0: prints the paths, a NUL after each
	findOutput                   // prints something other than the paths (-printf, -ls) or stops (-quit)
	findRead                     // its value is a reference file it reads (-newer)
	findList0                    // its value is a file of starting points, each ended by a NUL (-files0-from)
	findWrite                    // its value is a file it writes (-fprint): Ask
	findDelete                   // it removes what it finds: Ask, the starting points written
	findExec                     // it runs its command on the entries (-exec, -execdir): the command is judged
	findAsk                      // it runs its command after asking on the terminal (-ok, -okdir): Ask
	findFollow                   // it follows the links in the tree (-follow, the old spelling of -L)
)

// findPrim is one row of find's primaries: the spellings, what they do,
// and the words after the primary that the walk acting on it steps over
// (-exec's command runs to its ";" or "+" instead). Every other word of
// the expression is looked at as a primary itself, the value of a test
// too: "find . -name -delete" asks, which keeps every word that could
// be an action in sight. A word that is no primary is a value, or one
// find refuses before it runs anything.
type findPrim struct {
	names string
	does  findDoes
	args  int
}

// findPrimIndex is findPrims by spelling.
var findPrimIndex = sync.OnceValue(func() map[string]*findPrim {
	return func() map[string]*findPrim {
		m := map[string]*findPrim{}
		for k := range findPrims {
			for n := range strings.FieldsSeq(findPrims[k].names) {
				m[n] = &findPrims[k]
			}
		}
		return m
	}()
})

// findPrimary returns the row of the primary s, or nil.
func findPrimary(s string) *findPrim {
	if p := findPrimIndex()[s]; p != nil {
		return p
	}
	if len(s) == 8 && strings.HasPrefix(s, "-newer") && s[7] != 't' {
		return &findNewer
	}
	return nil
}

// findEffects is what find's actions said.
type findEffects struct {
	follow   bool // links in the tree are followed
	del      bool // -delete
	execRead bool // -exec runs a read-only command on the entries, which are judged as its reads
}

// findEffect records what the primary p at v.vals[i] does, and returns
// the index of the last word it took.
func (m *cmdCall) findEffect(c *verdictAcc, v *argv, i int, p *findPrim, x execCtx, fx *findEffects) int {
	has := i+p.args < v.len()
	switch p.does {
	case findExec, findAsk:
		return m.findExec(c, v, i, x, fx)
	case findDelete:
		fx.del = true
	case findFollow:
		// Among the expressions, it applies to the whole search.
		fx.follow = true
	case findRead:
		if has {
			m.readPath(c, v.vals[i+1], v.flags[i+1], "find")
		}
		return i + p.args
	case findList0:
		// The starting points are the names the file holds.
		if has {
			m.listFile(c, v.vals[i+1], v.flags[i+1], "find", 0)
		}
		return i + p.args
	case findWrite:
		if i+1 < v.len() {
			m.writePath(c, v.vals[i+1], v.flags[i+1], "find")
			c.add(permission.Ask, ArgsRule("find"), v.vals[i]+" writes to a file", true)
		}
		return i + p.args
	}
	return i
}

// findExec judges the -exec, -execdir, -ok or -okdir at v.vals[i] and
// the command it runs, to its ";" (or "{} +"), and returns the index of
// that end.
func (m *cmdCall) findExec(c *verdictAcc, v *argv, i int, x execCtx, fx *findEffects) int {
	s := v.vals[i]
	k := i + 1
	for k < v.len() && v.vals[k] != ";" && !(v.vals[k] == "+" && v.vals[k-1] == "{}") {
		k++
	}
	if k == i+1 {
		c.add(permission.Ask, ArgsRule("find"), s+" without a command", false)
		return k
	}
	execArgs := argv{v.vals[i+1 : k], v.flags[i+1 : k]}
	onFound := s == "-exec" && foundArgs(&execArgs)
	var sub verdictAcc
	asFiles := false
	if onFound {
		sub, asFiles = m.judgeOnFound(c, s+" ", &execArgs, "{}", execCtx{fork: x.fork})
	} else {
		sub = m.wrapped(c, s+" ", &execArgs, execCtx{fork: x.fork})
	}
	// Rules hold for the command it runs, as for a process wrapper's;
	// find's own expression does more, so an allow rule for that command
	// does not speak for find.
	c.runsToo("find", &execArgs, &sub)
	if findPrimary(s).does == findAsk {
		c.add(permission.Ask, ArgsRule("find"), s+" asks on the terminal for every file and would hang", false)
	}
	switch {
	case onFound && !sub.decided && !asFiles:
		c.addf(permission.Ask, WrapperRule("find"), "find -exec passes the names it finds to ", v.vals[i+1],
			" as something other than files it reads (a program, a script, a pattern or an option value), and any name may be found", false)
	case onFound && !sub.decided:
		fx.execRead = true // the files it runs on are judged as its reads
	default:
		// -execdir runs its command in each found file's directory, on
		// ./NAME: what a command allowed by itself reads there is not
		// judged, so an allow rule for find does not lift it (find
		// -execdir cat {} ; reads .env).
		c.add(permission.Ask, WrapperRule("find"), "find "+s+" runs "+v.vals[i+1]+" for every file found", !sub.nonOver && (s == "-exec" || sub.decided))
	}
	return k
}

// scanFind reads the starting points and the expression of find from v:
// starts are the indexes of the starting points, expr the first word of
// the expression.
func (m *cmdCall) scanFind(v *argv, starts []int, expr int, follow bool) *findInfo {
	fi := &findInfo{follow: follow, paths: true, filter: findFilter{maxDepth: -1}}
	m.findStartNames(fi, v, starts)
	var e findListing
	for i := expr; i < v.len(); i++ {
		if !v.literal(i) {
			e.broad = true
			continue
		}
		if p := findPrimary(v.vals[i]); p != nil {
			i = e.primary(fi, v, i, p)
		}
	}
	if e.broad {
		fi.filter = findFilter{maxDepth: fi.filter.maxDepth}
	}
	fi.print0 = e.printed0 && !e.printed
	if e.printed && e.printed0 {
		fi.paths = false
	}
	return fi
}

// findStartNames records the starting points in fi, a glob as the names
// bash gives for it.
func (m *cmdCall) findStartNames(fi *findInfo, v *argv, starts []int) {
	for _, k := range starts {
		switch {
		case !v.literal(k):
			fi.unknown = true
		case v.flags[k]&wGlob != 0:
			m, err := expandGlob(m.dir, v.vals[k])
			if err != nil {
				fi.unknown = true
			}
			if len(m) == 0 {
				m = []string{v.vals[k]}
			}
			fi.starts = append(fi.starts, m...)
		default:
			fi.starts = append(fi.starts, v.vals[k])
		}
	}
	if len(starts) == 0 {
		fi.starts = []string{"."}
	}
}

// findListing is what find's expression says of what it prints.
type findListing struct {
	broad    bool // the filter does not narrow: an operator, or a word only known at run time
	acted    bool // an action came: the tests after it filter nothing it did
	printed  bool // -print
	printed0 bool // -print0
}

// primary reads the primary p at v.vals[i] into fi and returns the index
// of the last word it took: only a test before any action narrows.
func (e *findListing) primary(fi *findInfo, v *argv, i int, p *findPrim) int {
	val := ""
	if i+1 < v.len() {
		val = v.vals[i+1]
	}
	switch p.does {
	case findOperator:
		e.broad = true
	case findName, findIName:
		e.name(fi, i+1 < v.len() && v.literal(i+1), val, p.does == findIName)
		return i + 1
	case findType:
		switch {
		case e.acted:
		case len(val) == 1 && strings.Contains("fdl", val) && (fi.filter.typ == 0 || fi.filter.typ == val[0]):
			fi.filter.typ = val[0]
		default:
			e.broad = true
		}
		return i + 1
	case findMaxDepth:
		if n, err := strconv.Atoi(val); err == nil && n >= 0 && !e.acted {
			fi.filter.maxDepth = n
		}
		return i + 1
	case findPrint:
		e.printed, e.acted = true, true
	case findPrint0:
		e.printed0, e.acted = true, true
	case findWrite, findDelete, findExec, findAsk, findOutput:
		fi.paths, e.acted = false, true
	}
	return i
}

// name records the pattern of -name (or, fold, -iname) in the filter.
func (e *findListing) name(fi *findInfo, literal bool, val string, fold bool) {
	if e.acted {
		return
	}
	_, err := goPattern(val)
	switch {
	case err != nil || !literal:
		e.broad = true
	case fold:
		fi.filter.inames = append(fi.filter.inames, strings.ToLower(val))
	default:
		fi.filter.names = append(fi.filter.names, val)
	}
}

// match reports whether an entry passes the filter.
func (f *findFilter) match(name string, typ byte) bool {
	if f.typ != 0 && f.typ != typ {
		return false
	}
	for _, p := range f.names {
		if ok, _ := path.Match(strings.ReplaceAll(p, "[!", "[^"), name); !ok {
			return false
		}
	}
	for _, p := range f.inames {
		if ok, _ := path.Match(strings.ReplaceAll(p, "[!", "[^"), strings.ToLower(name)); !ok {
			return false
		}
	}
	return true
}

// foundArgs reports whether the words a command run by -exec gets hold
// "{}" only as whole words: find puts a file name in place of "{}"
// anywhere in a word, and "{}/../x" leads elsewhere.
func foundArgs(v *argv) bool {
	for i := 0; i < v.len(); i++ {
		if v.vals[i] != "{}" && strings.Contains(v.vals[i], "{}") {
			return false
		}
	}
	return v.len() > 0 && v.vals[0] != "{}"
}

// readFound judges the files find lists as reads of the command run on
// them. delim says where xargs splits them: at blanks, reading quotes
// (' '), at newlines only (xargs -d '\n'), or nowhere (0: -0, or -exec).
func (m *cmdCall) readFound(c *verdictAcc, fi *findInfo, who string, delim byte) {
	if fi.unknown {
		c.add(permission.Ask, RuleDynamicArg, "runs a command on the files below a starting point only known at run time", false)
		return
	}
	for _, s := range fi.starts {
		if delim == ' ' && !xargsPlain(s) || delim == '\n' && strings.Contains(s, "\n") {
			c.addf(permission.Ask, ArgsRule("xargs"), "starting point ", s, " holds blanks or quotes, which xargs splits (use -print0 and xargs -0)", false)
			return
		}
		if strings.HasPrefix(s, "-") {
			c.addf(permission.Ask, ArgsRule(who), "starting point ", s, " starts with -, so the names found would be read as options", false)
			return
		}
		m.readPath(c, s, 0, who)
		if !m.walkFound(c, s, fi, who, delim) {
			return
		}
	}
}

// walkFound walks the tree below the starting point s as find does and
// judges every entry the filter lets through as a read. It reports false
// when it recorded an Ask.
func (m *cmdCall) walkFound(c *verdictAcc, s string, fi *findInfo, who string, delim byte) bool {
	return m.eachFound(c, s, fi, func(full, rel, name string) bool {
		if why := fi.nameWhy(s, rel, name, delim); why != "" {
			c.addf(permission.Ask, ArgsRule("xargs"), "runs a command on the files below ", s, ", where "+why, false)
			return false
		}
		if r := m.judgePath(full, Read); r.Decision != permission.Allow {
			c.addl(r.Decision, r.Layer, RulePathWalk, "runs a command on the files below ", s, ", which holds "+rel+sep(r.Reason), false)
			return false
		}
		return true
	})
}

// nameWhy explains why the entry rel (base name name) below s does not
// reach the command as the one word it names, or returns "". delim is as
// for readFound.
func (fi *findInfo) nameWhy(s, rel, name string, delim byte) string {
	switch {
	case delim == ' ' && !xargsPlain(name):
		return rel + " holds blanks or quotes, which xargs splits into other words (use -print0 and xargs -0)"
	case delim == '\n' && strings.Contains(name, "\n"):
		return rel + " holds a newline, where xargs -d '\\n' splits it"
	case fi.quoted && !fi.print0 && gitQuotes(name):
		return rel + " holds characters that " + fi.lister() + " prints quoted, as another name"
	case strings.HasPrefix(fi.printed(s, rel), "-"):
		return fi.lister() + " prints " + rel + ", which starts with - and would be read as an option"
	}
	return ""
}

// gitQuotes reports a name that git prints between double quotes, with
// escapes (core.quotePath): control characters, bytes above 0x7e, the
// double quote and the backslash.
func gitQuotes(s string) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b > 0x7e || b == '"' || b == '\\' {
			return true
		}
	}
	return false
}

// eachFound walks the tree below the starting point s as the listing
// command does, within the bound of recursive reads, and calls fn with
// every entry it may list: the path to open, the path below s and the
// base name. fn returns false when it recorded an Ask, which ends the
// walk; eachFound reports false then, or when it recorded one itself.
func (m *cmdCall) eachFound(c *verdictAcc, s string, fi *findInfo, fn func(full, rel, name string) bool) bool {
	dir, ok := m.foundDir(c, s, fi)
	if dir == "" {
		return ok
	}
	w := foundWalk{a: m, c: c, s: s, fi: fi, dir: dir, fn: fn}
	if fi.index != nil {
		w.scope = newIndexScope(fi.index, fi.indexTop, dir)
	}
	queue := []foundDirEntry{{dir, 0}}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if fi.filter.maxDepth >= 0 && d.depth >= fi.filter.maxDepth {
			continue
		}
		var more bool
		if queue, more = w.list(d, queue); !more {
			return false
		}
	}
	return true
}

// foundDir returns the directory to walk for the starting point s, or ""
// with what eachFound reports: true where nothing is found there (no
// such entry, a file, a link find does not descend), false where it
// recorded an Ask.
func (m *cmdCall) foundDir(c *verdictAcc, s string, fi *findInfo) (string, bool) {
	dir := s
	if !path.IsAbs(s) {
		if m.dir == "" {
			c.addf(permission.Ask, RulePathWalk, "runs a command on the files below ", s, ": no working directory is configured, so they cannot be checked", false)
			return "", false
		}
		dir = strings.TrimSuffix(m.dir, "/") + "/" + s
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return "", true // nothing found there
	}
	if st.Mode()&fs.ModeSymlink != 0 && !fi.follow && !fi.linkStart {
		return "", true // find -P does not descend a starting point that is a link
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", true
	}
	return dir, true
}

// foundDirEntry is a directory of the walk and its depth below the
// starting point.
type foundDirEntry struct {
	path  string
	depth int
}

// foundWalk is one walk of eachFound.
type foundWalk struct {
	a     *cmdCall
	c     *verdictAcc
	s     string // the starting point, for reasons
	fi    *findInfo
	dir   string // the directory of s
	scope *indexScope
	fn    func(full, rel, name string) bool
}

// list reads the directory d, calls fn with each entry the listing
// command prints, and returns the queue with the directories it
// descends added; false when the walk ends with an Ask.
func (w *foundWalk) list(d foundDirEntry, queue []foundDirEntry) ([]foundDirEntry, bool) {
	a, c, fi := w.a, w.c, w.fi
	entries, err := readDirAtMost(d.path, maxWalkEntries-a.walked+1)
	if err != nil {
		c.addf(permission.Ask, RulePathWalk, "runs a command on the files below ", w.s, ", part of which cannot be listed: "+err.Error(), false)
		return queue, false
	}
	for _, e := range entries {
		if a.walked++; a.walked > maxWalkEntries {
			c.addf(permission.Ask, RulePathWalk, "runs a command on the files below ", w.s, ", which holds more than "+
				strconv.Itoa(maxWalkEntries)+" entries, too many to check", false)
			return queue, false
		}
		name := e.Name()
		if fi.noHidden && name[0] == '.' || fi.noGit && name == ".git" {
			continue
		}
		full := d.path + "/" + name
		typ, isDir := foundType(full, e.Type(), fi.follow)
		rel := strings.TrimPrefix(full, w.dir+"/")
		if w.scope != nil && !w.scope.keeps(rel, isDir) {
			continue // not in the index: git does not print it
		}
		if fi.filter.match(name, typ) && !w.fn(full, rel, name) {
			return queue, false
		}
		if isDir {
			queue = append(queue, foundDirEntry{full, d.depth + 1})
		}
	}
	return queue, true
}

// foundType is the type find's -type tests in the entry full of mode t
// ('f', 'd' or 'l'; a link is what it leads to where links are
// followed), and whether the walk descends it.
func foundType(full string, t fs.FileMode, follow bool) (byte, bool) {
	switch {
	case t&fs.ModeSymlink != 0:
		if !follow {
			return 'l', false
		}
		ts, err := os.Stat(full)
		switch {
		case err != nil:
			return 'l', false
		case ts.IsDir():
			return 'd', true
		}
		return 'f', false
	case t.IsDir():
		return 'd', true
	}
	return 'f', false
}

// xargsPlain reports a name that xargs without -0 passes as one word.
func xargsPlain(s string) bool {
	return !strings.ContainsAny(s, " \t\n\v\f\r'\"\\")
}

// lineFilterArgs reports a command line that prints some of the lines
// it reads, unchanged: one of lineFilters, with the options its row lets
// through.
func lineFilterArgs(args []string) bool {
	for k := range lineFilters {
		if lineFilters[k].name == args[0] {
			return lineFilters[k].passes(args[1:])
		}
	}
	return false
}

// lineFilterRow is one command that prints some of its input lines as
// they are, and the options by which it stays one.
type lineFilterRow struct {
	name    string
	flags   string            // the letters of the options without a value, clustered ("-vi")
	valOpt  string            // the one option that takes the next word as its value, or ""
	value   func(string) bool // which values valOpt takes (nil: any)
	digits  bool              // -NUM and -nNUM give a count
	pattern bool              // the command needs one pattern: valOpt's value, once, or else its one operand
}

// passes reports whether the arguments args keep the command a filter:
// options of the row only, and a pattern where the row needs one.
func (r *lineFilterRow) passes(args []string) bool {
	pattern := false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		w := args[0]
		switch {
		case w == "-":
			return false
		case w == r.valOpt && len(args) > 1 && !(r.pattern && pattern) && (r.value == nil || r.value(args[1])):
			pattern = r.pattern
			args = args[2:]
			continue
		case r.digits && isDecimal(strings.TrimPrefix(w[1:], "n")):
		case r.flags != "" && strings.Trim(w[1:], r.flags) == "":
		default:
			return false
		}
		args = args[1:]
	}
	if r.pattern && !pattern {
		return len(args) == 1
	}
	return len(args) == 0
}

// judgeOnFound judges the command v that find -exec or xargs runs on the
// names find lists, where every word equal to hole stands for one of
// them, and reports whether the command takes each such word as a file
// it reads or probes (an operand that goes to the path judge). A name
// that lands anywhere else, as an awk program, a sed script, a jq filter,
// a pattern or the value of an option, is code or data the guard never
// sees: a planted file named 'x;BEGIN{system("...")}' makes "find d
// -type f -exec awk {} +" run a program. Each hole gets a placeholder of
// its own, so that a command reading one of them as a file and taking
// another as code ("sed {} {}") is caught.
func (m *cmdCall) judgeOnFound(c *verdictAcc, via string, v *argv, hole string, x execCtx) (verdictAcc, bool) {
	var w argv
	m.newArgv(&w, v.len())
	copy(w.vals, v.vals)
	copy(w.flags, v.flags)
	saved := m.holes
	m.holes = map[string]bool{}
	n := 0
	for i := range w.vals {
		if w.vals[i] != hole || w.flags[i] != 0 {
			continue
		}
		if n > 0 {
			w.vals[i] = hole + "#" + strconv.Itoa(n+1)
		}
		m.holes[w.vals[i]] = false
		n++
	}
	sub := m.wrapped(c, via, &w, x)
	all := n > 0
	for _, read := range m.holes {
		all = all && read
	}
	m.holes = saved
	return sub, all
}
