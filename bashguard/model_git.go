package bashguard

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The model of git: its command line is read by gitSpec (specs_git.go);
// what is left here is what the kinds alone cannot say: which repository
// git works on, what its operands name (paths, patterns of paths,
// revisions, <rev>:<path>), and what its output carries. What each
// subcommand's output carries is rows of its spec (history, typeOps,
// search, keys, namesProbe), read here by one engine for every
// subcommand.

// git judges a git command line.
func (m *cmdCall) git(c *verdictAcc, v *argv) {
	f := specFacts{dashes: -1}
	i := scanSpec(gitSpec(), v, 1, true, func(e *scanned) { m.specOption(c, "git", gitSpec(), v, e, &f) })
	if i >= v.len() {
		c.allow(RuleSafe, "git without a subcommand prints help")
		return
	}
	if len(f.dirs) > 0 {
		// Another directory may be another repository, whose config
		// (core.fsmonitor, diff.external, core.pager) runs programs.
		dirs, lit := make([]string, len(f.dirs)), true
		for k, at := range f.dirs {
			dirs[k], lit = v.vals[at], lit && v.literal(at)
		}
		m.gitDirOption(c, dirs, lit)
	}
	sub := v.vals[i]
	if why := m.gitRepo(); why != "" {
		c.add(permission.Ask, RuleGitRepository, why, false)
	}
	if gitSubHelp(v.vals[i+1:]) && v.literal(i) && v.literal(i+1) {
		c.allow(RuleSafe, "git "+sub+" --help prints its manual")
		return
	}
	s := gitSpec().subs[sub]
	if s == nil || !v.literal(i) {
		c.addf(permission.Ask, RuleUnlisted, "git ", sub, " is not a read-only git subcommand", true)
		return
	}
	m.gitConfigPrograms(c, s)
	m.runSpec(c, "git", s, v, i+1)
}

// runSpec judges the rest of the command line v, from the word at from
// on, by the spec s of the command cmd: its subcommands, its options, its
// operands and its output.
func (m *cmdCall) runSpec(c *verdictAcc, cmd string, s *spec, v *argv, from int) {
	s, from = m.specSub(c, cmd, s, v, from)
	if s == nil {
		return
	}
	f := m.judgeSpec(c, cmd, s, v, from)
	f.from = from
	if f.has("--help") {
		c.allow(RuleSafe, s.name+" --help prints its manual")
		return
	}
	if f.overMax(s) {
		c.addf(permission.Ask, ArgsRule(cmd), s.name+" ", s.tooMany, "", true)
	}
	if s.ask != "" {
		c.addf(permission.Ask, RuleUnlisted, s.name+" ", s.ask, "", true)
	}
	m.specCheck(c, s, v, from, &f)
	m.gitReads(c, cmd, s, v, &f)
	if s.scans {
		if top, why := m.repoTop(); top != "" && why == "" {
			m.probePath(c, top, 0, cmd)
		}
	}
	m.gitOperands(c, s, v, &f)
	if f.printsContent(s) {
		m.gitObjectsByID(c, s, v, &f)
	}
	if f.printsContent(s) {
		whole := m.gitWholeTree(v, &f) && !gitBlobsOnly(v, &f)
		if whole {
			m.gitTrackedContent(c, s.name+" prints the content of the tracked files", nil)
		}
		m.gitHistoryContent(c, s, v, &f, whole)
	}
	specAllows(c, s)
}

// specSub follows the subcommands of the line v from the word at from on,
// judging the options of each level of s, and returns the spec of the
// last with the index of its first word; nil where a level decided (git
// stash without a subcommand, git remote -v, an unknown subcommand).
func (m *cmdCall) specSub(c *verdictAcc, cmd string, s *spec, v *argv, from int) (*spec, int) {
	for s.subs != nil {
		if s.other != nil && (from >= v.len() || s.subs[v.vals[from]] == nil) {
			if from >= v.len() {
				specAllows(c, s)
				return nil, 0
			}
			s = s.other // git reflog -5 is git reflog show -5
			continue
		}
		var bare *specFacts // what the options say, kept only where s prints keys without a subcommand
		if s.keys != nil {
			bare = &specFacts{dashes: -1}
		}
		i := scanSpec(s, v, from, true, func(e *scanned) { m.specOption(c, cmd, s, v, e, bare) })
		if i >= v.len() {
			switch {
			case s.bareWhy != "":
				c.addf(permission.Ask, ArgsRule(cmd), s.name+" ", s.bareWhy, "", true)
				return nil, 0
			case bare != nil:
				m.gitPrintsKeys(c, s, v, bare) // git remote -v prints the remotes' URLs
			}
			specAllows(c, s)
			return nil, 0
		}
		if sub := s.subs[v.vals[i]]; sub != nil && v.literal(i) {
			s, from = sub, i+1
			continue
		}
		c.addf(permission.Ask, ArgsRule(cmd), s.name+" "+v.vals[i]+" ", s.otherWhy, "", true)
		return nil, 0
	}
	return s, from
}

// specAllows records why the spec s allows a command line, when it does:
// a spec that says neither why it allows nor why it asks is unfinished,
// and asks.
func specAllows(c *verdictAcc, s *spec) {
	switch {
	case s.allow != "":
		c.allow(RuleSafe, s.allow)
	case s.ask == "":
		c.addf(permission.Ask, RuleUnlisted, s.name, " has no reason to be allowed", "", true)
	}
}

// gitOperands judges the operands of a git command line by what its spec
// says they are. Any pathspec may name a file git prints, from history or
// the working tree (git log -p .env, git blame .env, git diff HEAD .env),
// and git diff compares two files without an index when one is outside
// the working tree: every such operand goes through the path judge as a
// read (a revision names no file, and passes). A pattern git expands
// itself (a glob bash passes on as it is when it matches nothing, or
// pathspec magic) may name any file, and asks. A <rev>:<path> operand
// names a file in history or the index, which git show and git cat-file
// print: the path goes through the judge, so that a secret is not read
// from history.
func (m *cmdCall) gitOperands(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for k, at := range f.ops {
		if f.handled(at) {
			continue
		}
		w, fl := v.vals[at], v.flags[at]
		afterDashes := f.dashes >= 0 && k >= f.dashes
		if s.operands == kWord {
			continue // names: of refs, remotes, keys; URLs
		}
		if fl&wObjectIDs != 0 && !afterDashes && s.history != histNone && s.history != histNamed && s.operands == kPathspec {
			// Object names (objectIDs), taken as revisions: from here on
			// as good as literal words (the history they print is
			// judged by gitHistoryContent, as for any revision).
			v.flags[at] &^= wDynamic | wData | wUnquoted
			continue
		}
		if p, ok := gitBlobPath(w); ok && !afterDashes {
			m.readPath(c, p, fl, "git")
			continue
		}
		switch {
		case s.operands == kProbe || f.probeOps:
			m.probePath(c, w, fl, "git")
		case v.literal(at) && gitPattern(w, fl, m.dir):
			c.addf(permission.Ask, RuleGitPathspec, "pathspec ", w, " is a pattern git matches itself, which can name secret files", false)
		default:
			m.readPath(c, w, fl, "git")
		}
	}
}

// gitWholeTree reports a command line whose output covers the whole tree:
// no pathspec after "--", and no operand that names a path of the working
// tree (git takes such an operand as a pathspec) or is a pattern.
func (m *cmdCall) gitWholeTree(v *argv, f *specFacts) bool {
	if len(f.afterDashes()) > 0 {
		return false
	}
	for _, at := range f.ops {
		w := v.vals[at]
		if _, ok := gitBlobPath(w); ok || f.handled(at) {
			continue
		}
		if !v.literal(at) || gitPattern(w, v.flags[at], m.dir) {
			return false // asked, or judged as a pattern
		}
		p := w
		if !path.IsAbs(p) {
			if m.dir == "" {
				return false
			}
			p = m.dir + "/" + p
		}
		if m.ws.lexists(p) {
			return false
		}
	}
	return true
}

// gitTrackedContent judges a git command line whose output carries the
// content of any tracked file (git diff, git log -p, git show REV, git
// archive): every path the index tracks goes through the path judge as a
// read, so that a secret git tracks is not printed from the working tree
// or from history; with specs, those below them only (a directory of a
// sparse index whatever they are). Where the path judge's answers may be
// kept (KeptJudge), the judgement of every tracked path is made once per
// state of the judge and of the files, and kept (keptIndex); else for the
// command, within its bound. Where the index cannot be read, what the
// command prints cannot be told, and it asks.
func (m *cmdCall) gitTrackedContent(c *verdictAcc, what string, specs []string) {
	if state, ok := m.keptState(); ok && m.dir != "" && filepath.IsAbs(m.dir) {
		// Judged once per state of the judge and of the files, and
		// kept: no bound of one command's (model_git_kept.go).
		if top, why := m.repoTop(); top != "" && why == "" && keptContent(c, what, m.keptIndex(top, state), specs) {
			return
		}
	}
	x, top := m.trackedScope()
	if x == nil && m.dir != "" && filepath.IsAbs(m.dir) {
		if fi, err := os.Stat(m.dir); err != nil || !fi.IsDir() {
			return // a working directory that does not exist runs nothing
		}
		if top, why := m.repoTop(); top == "" && why == "" {
			return // no repository: git prints nothing
		}
	}
	if x == nil {
		why := m.indexWhy
		if why == "" {
			why = "the repository's index, which says which files those are, cannot be read here"
		}
		c.addf(permission.Ask, RuleGitContent, what, ", and "+why, "", false)
		return
	}
	for _, rel := range x.paths {
		if !strings.HasSuffix(rel, "/") && !underPathspec(rel, specs) {
			continue
		}
		if m.contentPath(c, what, top+"/"+strings.TrimSuffix(rel, "/"), rel) {
			return
		}
	}
}

// contentPath judges the path p, a file whose content the output of a
// command carries (what says so), as a read: one the path judge does not
// allow is recorded, naming it as rel (its name in the tree), and
// contentPath reports true.
func (m *cmdCall) contentPath(c *verdictAcc, what, p, rel string) bool {
	r := m.judgePath(p, Read)
	if r.Decision == permission.Allow {
		return false
	}
	recordContent(c, what, rel, r)
	return true
}

// gitBlobsOnly reports a command line whose operands are all
// <rev>:<path> (git show HEAD:README.md): git prints those files, which
// the operand loop judges, and no patch.
func gitBlobsOnly(v *argv, f *specFacts) bool {
	if len(f.ops) == 0 || len(f.afterDashes()) > 0 {
		return false
	}
	for _, at := range f.ops {
		if _, ok := gitBlobPath(v.vals[at]); !ok && !f.handled(at) {
			return false
		}
	}
	return true
}

// gitHistoryContent judges a git command line whose output carries the
// content of files of history (git log -p, git show REV, git diff REV,
// git archive REV): every path a commit of the repository's history
// holds, below the pathspecs the line gives, goes through the path judge
// as a read, as gitTrackedContent does for the index, so that a secret
// committed once and no longer tracked is not printed from an old commit.
// indexDone says the index's paths were judged already. What the spec's
// history says decides whether the line reads history at all: git diff
// does only with a revision, or --cached (against HEAD). A history that
// cannot be read, or is larger than the guard reads, asks.
func (m *cmdCall) gitHistoryContent(c *verdictAcc, s *spec, v *argv, f *specFacts, indexDone bool) {
	if s.history == histNone || gitBlobsOnly(v, f) {
		return
	}
	specs, revs := m.gitPathspecs(v, f)
	if s.history == histRevs && !revs && !f.hasKind(kCommit) {
		return // the work tree against the index: the tracked files only
	}
	m.judgeHistory(c, s.name+" prints the content of files in history", specs, indexDone)
}

// judgeHistory judges the paths of the history below the pathspecs specs
// (all of them when nil) as reads, for a command whose output carries
// their content (what says so); those the index tracks are left out when
// indexDone, as gitTrackedContent judged them.
func (m *cmdCall) judgeHistory(c *verdictAcc, what string, specs []string, indexDone bool) {
	top, why := m.repoTop()
	if top == "" || why != "" {
		return // no repository: git prints nothing; another one: asked (gitRepo)
	}
	h := m.ws.history(top)
	if h.why != "" {
		c.addf(permission.Ask, RuleGitContent, what, ", and "+h.why, "", false)
		return
	}
	if state, ok := m.keptState(); ok && keptContent(c, what, m.keptHistory(top, h, state), specs) {
		return // judged once per state of the judge and of the files, and kept
	}
	if len(h.paths) > maxHistJudged {
		c.addf(permission.Ask, RuleGitContent, what, ", and "+errHistBudget.Error(), "", false)
		return
	}
	var x *gitIndex
	if indexDone {
		x, _ = m.trackedScope()
	}
	for _, rel := range h.paths {
		if !underPathspec(rel, specs) || x != nil && x.tracked(rel) {
			continue
		}
		if m.contentPath(c, what, top+"/"+rel, rel) {
			return
		}
	}
}

// gitPathspecs returns the pathspecs of a git command line that limit
// what it prints, relative to the top of the work tree (nil for the whole
// history), and whether it names a revision. The operands after "--" are
// pathspecs; one before it is a pathspec when it names a path of the work
// tree (git takes it so), else a revision. An operand whose value is not
// known, or a pathspec that cannot be placed in the work tree, leaves the
// whole history; a pattern asks (gitOperands), and so does too.
func (m *cmdCall) gitPathspecs(v *argv, f *specFacts) (specs []string, revs bool) {
	whole := false
	top, _ := m.repoTop()
	// The working directory resolved, kept with the repository's top
	// (BenchmarkToolgateCommands in bench: git diff HEAD).
	cwd := m.repoFact().real
	if cwd == "" || top == "" || f.hasKind(kRenames) {
		return nil, true // --follow prints the file under its earlier names too
	}
	for k, at := range f.ops {
		w := v.vals[at]
		if f.handled(at) {
			continue
		}
		if !v.literal(at) || gitPattern(w, v.flags[at], m.dir) {
			return nil, true
		}
		after := f.dashes >= 0 && k >= f.dashes
		if !after {
			if _, ok := gitBlobPath(w); ok {
				continue
			}
		}
		p := w
		if !path.IsAbs(p) {
			p = cwd + "/" + p
		}
		if !after {
			if !m.ws.lexists(p) {
				revs = true
				continue
			}
		}
		rel, err := filepath.Rel(top, filepath.Clean(p))
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			return nil, true
		}
		if rel == "." {
			whole = true
		}
		specs = append(specs, rel)
	}
	if whole {
		specs = nil
	}
	return specs, revs
}

// underPathspec reports whether the path rel lies at or below one of the
// pathspecs specs (all of them when there is none).
func underPathspec(rel string, specs []string) bool {
	if specs == nil {
		return true
	}
	for _, s := range specs {
		if rel == s || strings.HasPrefix(rel, s+"/") {
			return true
		}
	}
	return false
}

// gitReads judges what a git command line reads, writes and prints
// that its options' kinds do not say, by the rows of its spec s, where
// the line meets the query rows of s (specCheck): the keys of the
// configs it prints, the files of kind kStore it writes, the objects it
// names alone, the tree it searches, and whether its operands are only
// looked at.
func (m *cmdCall) gitReads(c *verdictAcc, cmd string, s *spec, v *argv, f *specFacts) {
	if f.unmet {
		return
	}
	if s.keys != nil {
		m.gitPrintsKeys(c, s, v, f)
	}
	m.writeStores(c, cmd, s, v, f)
	if s.history == histNamed {
		m.gitNamedObjects(c, s, v, f)
	}
	if s.search != nil {
		m.gitSearch(c, s, v, f)
	}
	if s.namesProbe {
		f.probeOps = m.gitNamesOnly(s, v, f.from)
	}
}

// treeSearch is what a command that searches the content of the files
// of a tree searches (git grep; gitSearch): the files the index tracks
// below the working directory, or below the pathspecs after "--", unless
// an option of beyond is given (as the index holds them, with an option
// of index); those of a revision its operands name;
// and the first operand is the pattern, unless an option of pattern
// gives it.
type treeSearch struct {
	beyond  string // the options that make it search the files the index does not track too, by spelling (negated too)
	pattern string // the options that give the pattern, by spelling
	index   string // the options that make it search the content the index holds, not the working tree's, by spelling
}

// gitSearch judges the trees a search of s reads (git grep). It prints
// matching lines of the files in the tree below the working directory,
// or below the pathspecs after "--" where it gives some: a recursive
// read. Without "--" the operands may be the pattern, revisions or
// paths, which cannot be told apart here, so the whole working tree is
// walked (as well as each operand). Only the files the index tracks are
// searched, unless an option or a revision says otherwise.
func (m *cmdCall) gitSearch(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	pattern := !f.hasSpell(s.search.pattern) // the first operand is the pattern
	if pattern && f.dashes == 0 && len(f.ops) > 0 {
		// git grep -- PATTERN REV: git skips a "--" before the
		// pattern, which then separates nothing.
		f.dashes = -1
	}
	tree := walkOpts{recursive: true, content: true, hidden: true}
	revision := m.gitMaySearchRevision(v, f, pattern)
	if !f.hasSpell(s.search.beyond) && !revision {
		// An untracked .env is not searched.
		tree.index, tree.indexTop = m.trackedScope()
	}
	if revision {
		// A revision's tree may hold a secret the working tree no
		// longer does.
		m.gitTrackedContent(c, s.name+" searches the files of a revision", nil)
		m.judgeHistory(c, s.name+" searches the files of a revision in history", nil, true)
	}
	walked := len(f.afterDashes()) == 0 // no pathspec: the whole tree (git grep -e TOKEN -- too)
	if walked {
		m.walkRoot(c, ".", 0, s.name, tree)
	}
	ops := f.ops
	if pattern && len(ops) > 0 {
		f.handle(ops[0]) // the pattern
		ops = ops[1:]
	}
	var specs []string // what the index holds below these, read with an option of index
	index := f.hasSpell(s.search.index) && !revision
	if index {
		specs, _ = m.gitPathspecs(v, f)
	}
	for _, at := range ops {
		w := v.vals[at]
		f.handle(at)
		if tree.index != nil && v.literal(at) && gitPattern(w, v.flags[at], m.dir) && gitPlainPattern(w) {
			// A pattern git matches itself against the tracked files
			// below the working directory: every one of them is
			// judged, whichever the pattern names.
			if !walked {
				walked = true
				m.walkRoot(c, ".", 0, s.name, tree)
			}
			continue
		}
		if _, ok := gitBlobPath(w); ok {
			f.unhandle(at) // <rev>:<path>: the path is read
			continue
		}
		m.walkRoot(c, w, v.flags[at], s.name, tree)
		f.unhandle(at) // and judged as a read, as any operand
	}
	if index {
		// The content the index holds: a secret staged and gone from
		// the working tree since is printed too.
		m.gitTrackedContent(c, s.name+" searches the files the index holds", specs)
	}
}

// gitMaySearchRevision reports a search that may search a revision's
// tree: a word before "--", other than the pattern (when the first
// operand is it), that names no existing path may be a revision (git
// grep TOKEN HEAD), whose files are those of the commit, not of the
// index.
func (m *cmdCall) gitMaySearchRevision(v *argv, f *specFacts, pattern bool) bool {
	words := f.ops
	if f.dashes >= 0 {
		words = f.ops[:f.dashes]
	}
	if pattern && len(words) > 0 {
		words = words[1:]
	}
	for _, at := range words {
		if !v.literal(at) || m.dir == "" {
			return true
		}
		p := v.vals[at]
		if !path.IsAbs(p) {
			p = m.dir + "/" + p
		}
		if _, err := os.Lstat(p); err != nil {
			return true
		}
	}
	return false
}

// gitNamedObjects judges what a command line whose output carries the
// objects its operands name alone prints (histNamed: git cat-file): the
// content of an object (an option of kind kContent, or a word of the
// spec's typeOps of that kind) named as <rev>:<path> is the file's,
// which the operand loop judges; one named by its id is judged by its
// type (gitObjectByID), and must be found.
func (m *cmdCall) gitNamedObjects(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	content := f.content
	f.content = false // never the whole tree
	ops := f.ops
	if len(ops) == 2 {
		if k, ok := s.typeOps[v.vals[ops[0]]]; ok {
			content = content || k == kContent
			f.handle(ops[0])
			ops = ops[1:]
		}
	}
	if !content {
		return
	}
	for _, at := range ops {
		if w := v.vals[at]; isHexID(w) {
			m.gitObjectByID(c, w, true)
			f.handle(at)
		}
	}
}

// gitObjectsByID judges the operands of a command line that prints the
// content of what they name and that look like object ids (git show
// 1a2b3c, git diff 1a2b 3c4d): a commit's patch is judged with the tracked
// paths; a blob, whose file no name tells, asks.
func (m *cmdCall) gitObjectsByID(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for k, at := range f.ops {
		if f.handled(at) || f.dashes >= 0 && k >= f.dashes {
			continue
		}
		w := v.vals[at]
		if !v.literal(at) {
			continue
		}
		if isHexID(w) {
			if m.gitObjectByID(c, w, false) == objBlob {
				f.handle(at) // asked for; and a blob is no revision (gitBlobsOnly)
			}
			continue
		}
		for _, id := range gitRevIDs(w) {
			m.gitObjectByID(c, id, false) // 1a2b3c^3, 1a2b..3c4d
		}
	}
}

// gitObjectByID judges the object named by the id w, and returns its
// type: a blob asks, as does an object that cannot be read; one that is
// not in the object store is, unless must, taken for a ref of that name.
func (m *cmdCall) gitObjectByID(c *verdictAcc, w string, must bool) gitObjType {
	top, why := m.repoTop()
	if top == "" || why != "" {
		return objUnknown // no repository here: git prints nothing
	}
	gitDir, why := gitCommonDirRec(top, newStampRec()) // read once, for this command: nothing is kept
	if why != "" {
		c.addf(permission.Ask, RuleGitContent, "git prints the object ", w, ", named by its id, whose content cannot be judged here", false)
		return objUnknown
	}
	t, found := gitObjectType(gitDir, w)
	switch {
	case t == objBlob:
		c.addf(permission.Ask, RuleGitContent, "git prints the object ", w, ", a blob named by its id, whose file no name tells", false)
	case t == objCommit && !must:
		// Its patch is judged with the paths of the index and of the
		// history, which hold its files if a ref, a reflog or the stash
		// reaches it. One that none does (a stash dropped, a commit
		// reset away and expired) holds files the guard did not read.
		if h := m.ws.history(top); h.why == "" && !h.reaches(strings.ToLower(w)) {
			c.addf(permission.Ask, RuleGitContent, "git prints the commit ", w, ", named by its id, which no ref, reflog or stash reaches: the guard did not read its files", false)
		}
	case t != objUnknown:
		// A commit printed whole (git cat-file -p: its header), a tree
		// (its names) or a tag.
	case found || must:
		c.addf(permission.Ask, RuleGitContent, "git prints the object ", w, ", named by its id, whose type cannot be read here", false)
	}
	return t
}

// gitRevIDs returns the object ids a revision expression starts from
// (1a2b3c^3, 1a2b3c~2, ^1a2b3c, 1a2b..3c4d, 1a2b...3c4d), when it is not
// an id alone nor <rev>:<path> (whose path is judged by its name).
func gitRevIDs(w string) []string {
	if _, ok := gitBlobPath(w); ok {
		return nil
	}
	var out []string
	for part := range strings.SplitSeq(strings.ReplaceAll(w, "...", ".."), "..") {
		part = strings.TrimPrefix(part, "^")
		if i := strings.IndexAny(part, "^~@{"); i >= 0 {
			part = part[:i]
		}
		if isHexID(part) {
			out = append(out, part)
		}
	}
	return out
}

// isHexID reports a word that may be an object id, whole or abbreviated.
func isHexID(w string) bool {
	if len(w) < 4 || len(w) > 64 {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !strings.ContainsRune("0123456789abcdefABCDEF", rune(w[i])) {
			return false
		}
	}
	return true
}
