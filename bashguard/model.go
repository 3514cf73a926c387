package bashguard

import (
	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// The boundary between the walker and the command models.
//
// The walker (analyze.go, call.go, word.go, subst.go, vars.go,
// cdtrack.go, loops.go, listloops.go, pipe.go, background.go, nested.go,
// differ.go, shcode.go) owns the bash semantics: what each word of a command line is after expansion,
// where the command runs, what the shell's state is. It hands each simple
// command to the dispatcher (dispatch.go) as a command line, argv: the
// values of its words and what each holds (literal, known, data, only
// known at run time). The dispatcher and the command models behind it
// (model_*.go, by family; a class's model has the signature cmdModel) are
// methods or functions of cmdCall and see only that: the command line, the working
// directory it runs in, the path judge, the host judge and the workspace
// facts. They return their findings in the verdictAcc they are given.
// The models whose input is itself a program (a wrapper's command line,
// shell code, find -exec, xargs) hand it back to the walker through the
// walker interface, never by reaching its state.

// cmdCall is what a command model sees of one Judge call: the policy,
// the workspace facts, the working directory, the judges; not the
// Guard's parsers or scratch buffers, which are the walker's. The walker
// embeds it and keeps its fields current (dir follows cd, cmdEnv is the
// command's own environment); a model reads them and writes only its
// findings, in the verdictAcc it is given (which also carries whether the
// command ends on its own and what a find lists, for the walker). A
// model that judges part of its line under other conditions sets hj or
// cmdEnv for that judgement alone and restores them (loopbackOnly, env),
// fills the workspace facts on first use, and spends the walk budget.
type cmdCall struct {
	pol    *Policy         // the guard's policy, read-only
	extra  map[string]bool // the names the policy adds to the safe list (Policy.ExtraSafe), read-only
	ws     *wsCache        // the workspace facts kept between calls (wscache.go)
	dir    string          // the working directory, or "" when unknown
	paths  PathJudge       // judges every path a command reaches
	hj     HostJudge       // judges the hosts network commands reach, or nil
	walked int             // entries looked at in the trees of recursive reads (bounds the cost)
	cmdEnv []envVar        // the assignments in the environment of the command being judged

	strs  []string    // arena for the words of command lines (see newArgv)
	flags []wordFlags // arena for what those words hold

	// wsFacts are the workspace's facts (its repository, index,
	// configuration), read on first use and kept for the call.
	wsFacts

	holes map[string]bool // placeholders of found names in the find -exec command judged, and whether it read each as a file (model_find.go)

	row cmdRowMemo // the command index's row of the name looked up last (cmdindex.go)

	w walker // the walker, for the models whose input is a program
}

// wsFacts are what the workspace's repository is, read once per Judge
// call the first time a model asks (gitrepo.go, model_git_index.go,
// model_git_config.go, model_hosts_git.go).
type wsFacts struct {
	topDone    bool             // topFact is known for topFor
	gitChecked bool             // gitWhy is known
	indexRead  bool             // index and indexTop are known
	gitCfgDone bool             // gitCfg is read
	topFor     string           // the working directory topFact is of
	topFact    topFact          // what git finds from topFor
	gitWhy     string           // why git would use another repository, or ""
	index      *gitIndex        // what the repository's index tracks, or nil
	indexTop   string           // the top of its work tree
	indexWhy   string           // why a repository's index cannot be read, or ""
	gitKeys    *gitConfigKeys   // the keys of the repository's config, once read (shared: not changed)
	gitKeysFor string           // the working directory gitKeys is of
	gitCfg     *gitRemoteConfig // the remotes of the workspace's repository
	gitCfgWhy  string           // why gitCfg cannot be read, or ""
}

// moved forgets the facts found from the working directory, which the
// walker has changed (a followed cd): the repository is found from it, and
// so are its index and remotes. The facts kept by directory (topFact,
// gitKeys) stay.
func (f *wsFacts) moved() {
	f.gitChecked, f.indexRead = false, false
	f.gitCfgDone = false
}

// walker is what a command model may ask of the walker: to judge a
// command line or shell code that the command it judges runs.
type walker interface {
	// nestedCode judges literal shell code the command runs (bash -c, eval,
	// watch, a wrapper's -c) as a script nested in the one being
	// walked, and merges its judgement into c (nested.go).
	nestedCode(c *verdictAcc, text string, rule permission.RuleID, what string, judged, here bool)
	// parse parses shell code with the call's parser, for a model that
	// asks how another shell reads it (model_code.go: shellPlain).
	parse(text string) (*syntax.File, error)
	// judgeLine judges a command line the command runs (a wrapper's,
	// find -exec's, xargs's) as the walker judges its own: through the
	// dispatcher, within the call's limits.
	judgeLine(c *verdictAcc, v *argv, x execCtx)
	// scriptEnd returns the words of the simple command shell code ends
	// with, or false where they are not known before it runs
	// (scriptend.go).
	scriptEnd(text string) ([]string, bool)
}

// newArgv sets v to n words, cut from the call's arenas so that a
// command line costs no allocation of its own. The words become the Args
// of an emitted command and are never reused. (v is set in place rather
// than returned: a returned argv is copied through memory in a way the
// processor cannot forward.)
func (m *cmdCall) newArgv(v *argv, n int) {
	if cap(m.strs)-len(m.strs) < n {
		m.strs = make([]string, 0, max(n, 2*cap(m.strs), 16))
	}
	if cap(m.flags)-len(m.flags) < n {
		m.flags = make([]wordFlags, 0, max(n, 2*cap(m.flags), 64))
	}
	s, f := len(m.strs), len(m.flags)
	m.strs, m.flags = m.strs[:s+n], m.flags[:f+n]
	v.vals, v.flags = m.strs[s:s+n:s+n], m.flags[f:f+n:f+n]
}

// cmdModel is the model of a class of commands: it judges the command
// line l, recording its findings in c. It sees the call m and nothing of
// the walker.
type cmdModel func(m *cmdCall, c *verdictAcc, l cmdLine)

// lineReader reads one concern of a command line, past the dispatcher,
// where the command's spec cannot say it: the hosts it reaches
// (hostReaders), the programs its operands run (netProgramReaders). It
// sees the words alone.
type lineReader func(m *cmdCall, c *verdictAcc, v *argv)

// cmdLine is one command line as the dispatcher hands it to a model.
type cmdLine struct {
	raw, name string   // the command as written, and its base name
	std       bool     // raw is a bare name or a path in a standard directory
	v         *argv    // the words, with what each holds
	x         execCtx  // where its input comes from, whether it runs in a process of its own
	entry     cmdEntry // what the lists say of the name
}

// classRow is what the dispatcher does with a command of one class: the
// class's own finding, or its model (classModels).
type classRow struct {
	dec   permission.Decision
	rule  permission.RuleID
	why   string
	lifts bool // an allow rule may lift the Ask
	model cmdModel
}
