package bashguard

import (
	"io/fs"
	"maps"
	"os"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"

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

	// Other listing commands (see listers.go) print their entries
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

// scanFind reads the starting points and the expression of find from v:
// starts are the indexes of the starting points, expr the first word of
// the expression.
func (a *analyzer) scanFind(v *argv, starts []int, expr int, follow bool) *findInfo {
	fi := &findInfo{follow: follow, paths: true, filter: findFilter{maxDepth: -1}}
	for _, k := range starts {
		switch {
		case !v.literal(k):
			fi.unknown = true
		case v.flags[k]&wGlob != 0:
			m, err := expandGlob(a.dir, v.vals[k])
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
	narrow, acted := true, false
	printed, printed0 := false, false
	for i := expr; i < v.len(); i++ {
		s := v.vals[i]
		if !v.literal(i) {
			narrow = false
			continue
		}
		val := ""
		if i+1 < v.len() {
			val = v.vals[i+1]
		}
		switch s {
		case "-o", "-or", "!", "-not", "(", ")", ",":
			narrow = false
		case "-name", "-iname":
			if !acted {
				if _, err := goPattern(val); err != nil || !v.literal(i+1) {
					narrow = false
				} else if s == "-name" {
					fi.filter.names = append(fi.filter.names, val)
				} else {
					fi.filter.inames = append(fi.filter.inames, strings.ToLower(val))
				}
			}
			i++
		case "-type":
			if !acted && len(val) == 1 && strings.Contains("fdl", val) && (fi.filter.typ == 0 || fi.filter.typ == val[0]) {
				fi.filter.typ = val[0]
			} else if !acted {
				narrow = false
			}
			i++
		case "-maxdepth":
			if n, err := strconv.Atoi(val); err == nil && n >= 0 && !acted {
				fi.filter.maxDepth = n
			}
			i++
		case "-print":
			printed, acted = true, true
		case "-print0":
			printed0, acted = true, true
		case "-exec", "-execdir", "-ok", "-okdir", "-printf", "-fprintf", "-ls", "-fls", "-fprint", "-fprint0", "-delete", "-quit":
			fi.paths, acted = false, true
		}
	}
	if !narrow {
		fi.filter = findFilter{maxDepth: fi.filter.maxDepth}
	}
	fi.print0 = printed0 && !printed
	if printed && printed0 {
		fi.paths = false
	}
	return fi
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
func (a *analyzer) readFound(c *verdictAcc, fi *findInfo, who string, delim byte) {
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
		a.readPath(c, s, 0, who)
		if !a.walkFound(c, s, fi, who, delim) {
			return
		}
	}
}

// walkFound walks the tree below the starting point s as find does and
// judges every entry the filter lets through as a read. It reports false
// when it recorded an Ask.
func (a *analyzer) walkFound(c *verdictAcc, s string, fi *findInfo, who string, delim byte) bool {
	return a.eachFound(c, s, fi, func(full, rel, name string) bool {
		if why := fi.nameWhy(s, rel, name, delim); why != "" {
			c.addf(permission.Ask, ArgsRule("xargs"), "runs a command on the files below ", s, ", where "+why, false)
			return false
		}
		if r := a.judgePath(full, Read); r.Decision != permission.Allow {
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
func (a *analyzer) eachFound(c *verdictAcc, s string, fi *findInfo, fn func(full, rel, name string) bool) bool {
	dir := s
	if !path.IsAbs(s) {
		if a.dir == "" {
			c.addf(permission.Ask, RulePathWalk, "runs a command on the files below ", s, ": no working directory is configured, so they cannot be checked", false)
			return false
		}
		dir = strings.TrimSuffix(a.dir, "/") + "/" + s
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return true // nothing found there
	}
	if st.Mode()&fs.ModeSymlink != 0 && !fi.follow && !fi.linkStart {
		return true // find -P does not descend a starting point that is a link
	}
	if fi2, err := os.Stat(dir); err != nil || !fi2.IsDir() {
		return true
	}
	type entry struct {
		path  string
		depth int
	}
	var scope *indexScope
	if fi.index != nil {
		scope = newIndexScope(fi.index, fi.indexTop, dir)
	}
	queue := []entry{{dir, 0}}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		if fi.filter.maxDepth >= 0 && d.depth >= fi.filter.maxDepth {
			continue
		}
		entries, err := readDirAtMost(d.path, maxWalkEntries-a.walked+1)
		if err != nil {
			c.addf(permission.Ask, RulePathWalk, "runs a command on the files below ", s, ", part of which cannot be listed: "+err.Error(), false)
			return false
		}
		for _, e := range entries {
			if a.walked++; a.walked > maxWalkEntries {
				c.addf(permission.Ask, RulePathWalk, "runs a command on the files below ", s, ", which holds more than "+
					strconv.Itoa(maxWalkEntries)+" entries, too many to check", false)
				return false
			}
			name := e.Name()
			if fi.noHidden && name[0] == '.' || fi.noGit && name == ".git" {
				continue
			}
			full := d.path + "/" + name
			t := e.Type()
			typ := byte('f')
			isDirEntry := t.IsDir()
			switch {
			case t&fs.ModeSymlink != 0:
				typ = 'l'
				if fi.follow {
					if ts, err := os.Stat(full); err == nil {
						isDirEntry, typ = ts.IsDir(), 'f'
						if ts.IsDir() {
							typ = 'd'
						}
					}
				}
			case isDirEntry:
				typ = 'd'
			}
			if scope != nil && !scope.keeps(strings.TrimPrefix(full, dir+"/"), isDirEntry) {
				continue // not in the index: git does not print it
			}
			if fi.filter.match(name, typ) && !fn(full, strings.TrimPrefix(full, dir+"/"), name) {
				return false
			}
			if isDirEntry {
				queue = append(queue, entry{full, d.depth + 1})
			}
		}
	}
	return true
}

// xargsPlain reports a name that xargs without -0 passes as one word.
func xargsPlain(s string) bool {
	return !strings.ContainsAny(s, " \t\n\v\f\r'\"\\")
}

// pipe walks the two sides of a pipeline with walk. xargs right of a find
// reads the paths find prints.
func (a *analyzer) pipe(cmd *syntax.BinaryCmd, x execCtx, walk func(*syntax.Stmt, execCtx)) {
	a.lastFind = nil
	n := len(a.out)
	// Every element runs in a subshell: what it assigns stays there, but
	// for the last one, which lastpipe runs in this shell: after the
	// pipeline only what it and the values before agree on is kept.
	before := a.saveVars()
	walk(cmd.X, execCtx{fork: true, piped: x.piped, afterPipe: x.afterPipe})
	a.vars = maps.Clone(before)
	var found *findInfo
	if cmd.Op == syntax.Pipe && a.lastFind != nil && len(a.out) > n && a.lastFind.paths {
		last := &a.out[len(a.out)-1]
		if ce, ok := cmd.X.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == "find" &&
			!cmd.X.Negated && len(cmd.X.Redirs) == 0 &&
			last.Decision == permission.Allow && len(last.Args) > 0 && last.Args[0] == "find" {
			found = a.lastFind
		}
	}
	if found == nil && cmd.Op == syntax.Pipe {
		// Another listing command: git ls-files, rg -l, fd, ... (listers.go),
		// known from its words; it is judged on its own as well.
		found = a.lister(cmd.X)
	}
	if inner, ok := cmd.X.Cmd.(*syntax.BinaryCmd); ok && cmd.Op == syntax.Pipe && inner.Op == syntax.Pipe &&
		len(cmd.X.Redirs) == 0 && !cmd.X.Negated && a.pipeOut != nil {
		found = a.pipeOut // find | grep x | ...: lines find printed
	}
	a.lastFind, a.pipeOut = nil, nil
	walk(cmd.Y, execCtx{fork: true, piped: true, afterPipe: true, found: found})
	a.vars = joinVars(before, a.vars)
	if found != nil && !found.print0 && lineFilter(cmd.Y) {
		a.pipeOut = found
	} else {
		a.pipeOut = nil
	}
}

// lineFilter reports a command that prints some of the lines it reads,
// unchanged: grep (-v -i -E -F -G -w -x, one pattern, no file), head and
// tail -n, sort (-u -r -f -V -n -b -d) and uniq (-u -d -i), all without
// files or redirections. Behind find it passes on paths find printed.
func lineFilter(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return false
	}
	var args []string
	for _, w := range ce.Args {
		t, ok := literalText(w)
		if !ok || strings.ContainsAny(t, "*?[") && w.Lit() == t {
			return false // unquoted glob characters, or an expansion
		}
		args = append(args, t)
	}
	opts := func(letters string, rest []string) ([]string, bool) {
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") && rest[0] != "-" {
			if strings.Trim(rest[0][1:], letters) != "" {
				return nil, false
			}
			rest = rest[1:]
		}
		return rest, true
	}
	switch args[0] {
	case "grep":
		rest := args[1:]
		pattern := false
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			if rest[0] == "-e" && len(rest) > 1 && !pattern {
				pattern, rest = true, rest[2:]
				continue
			}
			if strings.Trim(rest[0][1:], "viEFGwx") != "" || rest[0] == "-" {
				return false
			}
			rest = rest[1:]
		}
		return pattern && len(rest) == 0 || !pattern && len(rest) == 1
	case "head", "tail":
		rest := args[1:]
		for len(rest) > 0 {
			switch {
			case rest[0] == "-n" && len(rest) > 1 && isDecimal(strings.TrimPrefix(rest[1], "+")):
				rest = rest[2:]
			case len(rest[0]) > 1 && rest[0][0] == '-' && isDecimal(strings.TrimPrefix(rest[0][1:], "n")):
				rest = rest[1:]
			default:
				return false
			}
		}
		return true
	case "sort":
		rest, ok := opts("urfVnbd", args[1:])
		return ok && len(rest) == 0
	case "uniq":
		rest, ok := opts("udi", args[1:])
		return ok && len(rest) == 0
	}
	return false
}

// stdinRedirect reports a redirection of standard input.
func stdinRedirect(redirs []*syntax.Redirect) bool {
	for _, r := range redirs {
		switch r.Op {
		case syntax.RdrIn, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc, syntax.DplIn, syntax.RdrInOut:
			if r.N == nil || r.N.Value == "0" {
				return true
			}
		}
	}
	return false
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
func (a *analyzer) judgeOnFound(c *verdictAcc, via string, v *argv, hole string, x execCtx) (verdictAcc, bool) {
	var w argv
	a.newArgv(&w, v.len())
	copy(w.vals, v.vals)
	copy(w.flags, v.flags)
	saved := a.holes
	a.holes = map[string]bool{}
	n := 0
	for i := range w.vals {
		if w.vals[i] != hole || w.flags[i] != 0 {
			continue
		}
		if n > 0 {
			w.vals[i] = hole + "#" + strconv.Itoa(n+1)
		}
		a.holes[w.vals[i]] = false
		n++
	}
	sub := a.wrapped(c, via, &w, x)
	all := n > 0
	for _, read := range a.holes {
		all = all && read
	}
	a.holes = saved
	return sub, all
}
