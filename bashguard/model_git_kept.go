package bashguard

import (
	"errors"
	"path"
	"strconv"
	"strings"
	"syscall"

	"github.com/toolgate/toolgate/permission"
)

// The kept judgement of the files a repository's index or history holds.
//
// git diff, git log -p, git show REV and git archive print the content of
// any tracked file (gitTrackedContent) and of any file of history
// (judgeHistory): every such path goes through the path judge. Judged
// for each command, that is bounded by what the guard judges for one
// command; where the judge is a [KeptJudge], the judgement is made once
// and kept on the Guard, with what it depends on:
//
//   - the judge's state (KeptJudge.ReadState), compared at each use;
//   - the index file (or the history fact) the paths come from;
//   - the file system on the way to each path, as git reads it: git
//     never follows a link inside the work tree for tracked content (a
//     tracked file that is a link is shown as one, its target's name; the
//     files below a directory that is a link count as removed:
//     has_symlink_leading_path in git's diff-lib.c, check_removed), so
//     what it reads of the work tree is the file found at the path's name
//     by names alone. Which file that is (its identity: a hard link to a
//     protected file in its place) changes only with an entry of the
//     directory that holds it, and so do the links on its way: each
//     directory on the way to a path is stamped (device, inode, mode,
//     size, times: a file created, renamed or removed in it changes
//     them), with the directories above the top by identity. The judge
//     follows links where git does not: where a path or a directory on
//     its way is a link today, where it leads is stamped too, so that the
//     judge's answer, which depends on it, is made again when it changes.
//     A git config file (Guard.ConfigCredential reads its keys) is
//     stamped whole, for its content, and so is a file of more than one
//     name (another name may be a secret's: a name made or removed
//     changes its change time). Not seen: a second name made for a
//     tracked file of one name from a directory that already existed and
//     holds no tracked path (the sandbox asks for a file of several
//     names; its link count is not stamped for a file of one, which
//     would take a stat of every tracked file for every command), until
//     anything stamped changes.
//
// A later command in the same repository costs the check of those stamps
// (none while the Guard's watcher has seen no change to them), not a
// judgement per path. What a judgement keeps is the refused paths, the
// first maxKeptRefusals of them, in the order of the index (or of the
// sorted history), with the judge's answer for each: the first below the
// command's pathspecs decides, as the per-command loop's first refusal
// did.

const (
	// maxKeptPaths bounds the paths of one kept judgement: an index of
	// more entries, or a history of more paths, is not judged (the
	// command asks, saying so). A million is about two and a half
	// times the files of a repository of Chromium's size (400,000), and
	// one judgement of that many is seconds, made once per change; the
	// index it comes from is bounded by maxIndexScanBytes.
	maxKeptPaths = 1_000_000
	// maxKeptRefusals bounds the refused paths a judgement keeps.
	maxKeptRefusals = 256
	// maxHistJudged bounds the paths of history judged for one command
	// by a judge whose answers are not kept.
	maxHistJudged = 20_000
)

// keptJudgement is the judgement of the paths of an index or a history,
// under one state of the judge. It is not changed once kept.
type keptJudgement struct {
	state   any    // the judge's ReadState
	src     any    // the *gitHistory judged; nil for an index
	why     string // the paths cannot be read (the command asks, saying so)
	refused []keptRefusal
	more    bool // more paths were refused than kept
}

// keptRefusal is a path the judge did not allow as a read, relative to
// the top ("dir/" for a sparse index's directory), and its answer.
type keptRefusal struct {
	rel string
	r   permission.Result
}

// errKeptTooMany refuses an index or a history of more paths than a
// kept judgement holds.
var errKeptTooMany = errors.New("more than " + strconv.Itoa(maxKeptPaths) + " files, more than the guard judges")

// keptContent judges, by the kept judgement k, a command whose output
// carries the content of its paths (what says so) below the pathspecs
// specs (all when nil; a sparse directory always): the first refused
// path is recorded as the per-command loop records it. It reports false
// when k cannot tell (the refusals kept do not reach that far below the
// pathspecs): the paths are then judged for the command.
func keptContent(c *verdictAcc, what string, k *keptJudgement, specs []string) bool {
	if k.why != "" {
		c.addf(permission.Ask, RuleGitContent, what, ", and "+k.why, "", false)
		return true
	}
	for _, f := range k.refused {
		if strings.HasSuffix(f.rel, "/") || underPathspec(f.rel, specs) {
			recordContent(c, what, f.rel, f.r)
			return true
		}
	}
	return !k.more
}

// keptIndex is the kept judgement of the paths the index of the work
// tree whose top is top tracks, under the judge's state.
func (m *cmdCall) keptIndex(top string, state any) *keptJudgement {
	return m.ws.getKept(factKey{kind: "keptindex", a: top}, func(v any) bool {
		return sameState(v.(*keptJudgement).state, state)
	}, func(r *stampRec) any {
		k := &keptJudgement{state: state}
		m.judgeIndexPaths(top, r, k)
		return k
	}).(*keptJudgement)
}

// keptHistory is the kept judgement of the paths of the history h of
// the repository whose top is top, under the judge's state; it holds
// while the history fact is h.
func (m *cmdCall) keptHistory(top string, h *gitHistory, state any) *keptJudgement {
	return m.ws.getKept(factKey{kind: "kepthistory", a: top}, func(v any) bool {
		k := v.(*keptJudgement)
		return k.src == h && sameState(k.state, state)
	}, func(r *stampRec) any {
		k := &keptJudgement{state: state, src: h}
		if len(h.paths) > maxKeptPaths {
			k.why = "the history holds " + errKeptTooMany.Error()
			return k
		}
		j := m.newPathsJudge(top, r, k)
		for _, rel := range h.paths {
			j.judge(rel)
		}
		return k
	}).(*keptJudgement)
}

// judgeIndexPaths judges every path the index of the work tree whose top
// is top tracks into k, streaming the index through a bounded buffer, and
// stamps what the judgement depends on; k.why says why it cannot.
func (m *cmdCall) judgeIndexPaths(top string, r *stampRec, k *keptJudgement) {
	const unread = "the repository's index, which says which files those are, cannot be read here"
	p, hashLen, _, err := indexFile(top, r)
	if err != nil {
		k.why = unread
		return
	}
	r.add(p, true, false)
	if r.missing(p) != nil {
		return // a fresh repository tracks nothing
	}
	f, size, err := openRegular(p)
	if err != nil {
		k.why = unread
		return
	}
	defer f.Close()
	if size > maxIndexScanBytes {
		k.why = "the index is larger than " + strconv.Itoa(maxIndexScanBytes) + " bytes, more than the guard reads"
		return
	}
	ir, err := newIndexReader(f, size, hashLen)
	if err != nil {
		k.why = unread
		return
	}
	if ir.entries > maxKeptPaths {
		k.why = "the index tracks " + errKeptTooMany.Error()
		return
	}
	j := m.newPathsJudge(top, r, k)
	for range ir.entries {
		name, _, err := ir.next()
		if err != nil || !cleanIndexName(name) {
			// git itself never writes an unclean name; a planted index
			// that does could print a path the judgement would not see.
			k.why, k.refused, k.more = unread, nil, false
			return
		}
		j.judge(string(name))
	}
	if shared, err := ir.link(); err != nil || shared != "" {
		// A split index's other entries are in the shared index.
		k.why, k.refused, k.more = unread, nil, false
	}
}

// pathsJudge judges the paths of one kept judgement, stamping the
// directories on their way once each.
type pathsJudge struct {
	m    *cmdCall
	top  string
	r    *stampRec
	k    *keptJudgement
	dirs map[string]bool // relative to the top; "" for the top
}

// newPathsJudge starts the judgement of paths below top into k, stamping
// the directories above top by identity (a link put in place of one
// moves every path below it).
func (m *cmdCall) newPathsJudge(top string, r *stampRec, k *keptJudgement) *pathsJudge {
	for d := path.Dir(top); d != "/" && d != "." && d != ""; d = path.Dir(d) {
		r.add(d, false, true)
	}
	return &pathsJudge{m: m, top: top, r: r, k: k, dirs: map[string]bool{}}
}

// judge judges the path rel (relative to the top; "dir/" for a sparse
// directory) as a read.
func (j *pathsJudge) judge(rel string) {
	name := strings.TrimSuffix(rel, "/")
	for d := path.Dir(name); !j.dirs[d]; d = path.Dir(d) {
		j.dirs[d] = true
		j.stamp(j.abs(d))
		if d == "." {
			break
		}
	}
	p := j.abs(name)
	var st syscall.Stat_t
	if err := syscall.Lstat(p, &st); err == nil {
		switch {
		case st.Mode&syscall.S_IFMT == syscall.S_IFLNK || gitConfigFile(p):
			j.r.add(p, true, false) // where the judge's answer leads, or what a config holds
		case st.Nlink > 1:
			// A file of several names, which the judge may find to be a
			// secret's: a name more or less changes its change time.
			j.r.add(p, false, false)
		}
	}
	r := j.m.judgePath(p, Read)
	if r.Decision == permission.Allow {
		return
	}
	if len(j.k.refused) == maxKeptRefusals {
		j.k.more = true
		return
	}
	j.k.refused = append(j.k.refused, keptRefusal{rel: rel, r: r})
}

// abs is the path of rel (relative to the top, "." for the top itself).
func (j *pathsJudge) abs(rel string) string {
	if rel == "." {
		return j.top
	}
	return j.top + "/" + rel
}

// stamp stamps the directory d whole (its entries: which files its names
// reach), and where it leads when it is a link.
func (j *pathsJudge) stamp(d string) {
	j.r.add(d, false, false)
	if s := j.r.stamps[len(j.r.stamps)-1]; s.ok && s.mode&syscall.S_IFMT == syscall.S_IFLNK {
		j.r.add(d, true, false)
	}
}

// getKept is get for a fact kept for some callers only: keep says
// whether a value serves this one. A kept value that does not is dropped
// and computed afresh, and one another caller kept meanwhile is not
// returned: the value computed for this one is.
func (c *wsCache) getKept(key factKey, keep func(any) bool, fill func(*stampRec) any) any {
	if c == nil {
		return fill(nil)
	}
	c.mu.Lock()
	if f := c.facts[key]; f != nil && !keep(f.val) {
		delete(c.facts, key)
	}
	c.mu.Unlock()
	if v := c.get(key, fill); keep(v) {
		return v
	}
	return fill(newStampRec())
}

// keptState returns the state of the command's path judge under which its
// answers for reads may be kept, and whether they may.
func (m *cmdCall) keptState() (any, bool) {
	if m.paths == nil {
		return nil, false
	}
	return judgeState(m.paths)
}

// recordContent records the answer r, not an Allow, for the path rel
// whose content the output of a command carries (what says so).
func recordContent(c *verdictAcc, what, rel string, r permission.Result) {
	d := permission.Deny
	if r.Decision == permission.Ask {
		d = permission.Ask
	}
	c.addc(d, r.Layer, ruleOr(r.Rule, RulePathRead), r.Cause, what+", among them ", rel, sep(r.Reason), false)
}
