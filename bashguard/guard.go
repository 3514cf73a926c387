package bashguard

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// Guard judges shell scripts against a [Policy]. It is safe for concurrent
// use by many goroutines; build one with [New] and share it.
//
// The zero Guard is not usable: its Judge denies everything.
type Guard struct {
	pol     Policy
	extra   map[string]bool
	scratch *sync.Pool // of *scratch
	ws      wsCache    // the workspace facts git reads, shared by every Judge call (its own use)
	parses  *parses    // the trees of the scripts parsed last
}

// scratch is what one Judge call borrows and gives back: a parser (which
// is not safe for concurrent use) and buffers that do not outlive the call.
type scratch struct {
	parser *syntax.Parser
	parses *parses // the Guard's
	reader strings.Reader
	direct []bool
	flags  []wordFlags
	ws     wsCache     // the Judge's use of the workspace facts
	dirs   []string    // the arena of the Judge's sets of one directory (analyzer.oneDir)
	an     analyzer    // the analyzer of the Judge that holds the scratch
	calls  []*callSlot // the slots of the simple commands being judged (analyzer.enterCall)
}

// maxScratch bounds the buffers a scratch keeps between calls, so that one
// huge script does not pin its memory in the pool.
const maxScratch = 4096

// New returns a Guard for a copy of p. Zero limits in p take their defaults.
func New(p Policy) *Guard {
	p.fill()
	kept := &parses{}
	g := &Guard{pol: p, ws: wsCache{wsStore: &wsStore{}}, parses: kept, scratch: &sync.Pool{New: func() any {
		return &scratch{parser: syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true)), parses: kept}
	}}}
	if len(p.ExtraSafe) > 0 {
		g.extra = make(map[string]bool, len(p.ExtraSafe))
		for _, n := range p.ExtraSafe {
			g.extra[n] = true
		}
	}
	p.ExtraSafe = append([]string(nil), p.ExtraSafe...)
	return g
}

// Close releases what the Guard holds to check its workspace facts
// cheaply (an inotify instance, where it made one). The Guard stays
// usable: it then checks its facts by their stamps. A Guard dropped
// without Close releases it when it is collected.
func (g *Guard) Close() error {
	if g == nil || g.ws.wsStore == nil {
		return nil
	}
	return g.ws.close()
}

// Policy returns a copy of the policy the Guard was built from, with
// defaults filled in.
func (g *Guard) Policy() Policy {
	p := g.pol
	p.ExtraSafe = append([]string(nil), p.ExtraSafe...)
	return p
}

// Judge parses script as bash, to be run in the directory dir, and judges
// every simple command in it; every path a command reaches goes through
// paths.
//
// dir is the absolute working directory the script runs in; relative
// paths are joined to it before paths sees them, and it tells the
// removal of the working directory or a parent. Empty means unknown:
// relative paths go to paths as written, and globs in relative words are
// not auto-allowed. A nil paths fails closed: every write and every read
// of an absolute path is Ask.
//
// It never panics and never returns an error: a script that cannot be
// parsed, is larger than the policy's bound or holds too many commands is
// denied with the reason "cannot be analysed: ...". A cancelled ctx gives
// a Deny. Judge does not run anything; it only calls paths, and lists
// directories to expand globs and walk the roots of recursive reads.
func (g *Guard) Judge(ctx context.Context, dir string, paths PathJudge, script string) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Decision: permission.Deny, Rule: RuleInternal,
				Reason: "cannot be analysed: internal error: " + panicText(r)}
		}
	}()
	if g == nil || g.scratch == nil {
		return Verdict{Decision: permission.Deny, Rule: RuleInternal, Reason: "no guard configured"}
	}
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return Verdict{Decision: permission.Deny, Rule: RuleCancelled, Reason: "judgement cancelled: " + err.Error()}
		}
	}
	if len(script) > g.pol.MaxScriptBytes {
		return Verdict{Decision: permission.Deny, Rule: RuleLimitSize,
			Reason: "cannot be analysed: script is " + strconv.Itoa(len(script)) +
				" bytes, over the limit of " + strconv.Itoa(g.pol.MaxScriptBytes)}
	}
	sc := g.scratch.Get().(*scratch)
	sc.ws = g.ws.judgeUse()
	f, err := sc.parse(script)
	if err != nil {
		g.scratch.Put(sc)
		return Verdict{Decision: permission.Deny, Rule: RuleParse, Reason: "cannot be analysed: " + err.Error(), Cause: parseError(err)}
	}
	// The analyzer lives in the scratch, so that a Judge does not allocate
	// one (BenchmarkToolgateCommands in bench); nothing keeps it past the
	// Judge.
	a := &sc.an
	*a = analyzer{cmdCall: cmdCall{pol: &g.pol, extra: g.extra, ws: &sc.ws, dir: dir, paths: paths}, g: g, sc: sc, src: script, file: f, ifs: strings.Contains(script, "IFS")}
	a.hj, _ = paths.(HostJudge)
	a.w = a
	// Size the buffers from a guess at the number of commands and words;
	// they grow if the guess is short.
	n, words := sizeGuess(script)
	a.out = make([]Command, 0, n)
	a.strs = make([]string, 0, min(words, 1024))
	a.direct, a.flags = sc.direct[:0], sc.flags[:0]
	a.ambiguous(script, f)
	a.stmts(f.Stmts, false, false)
	if a.abort == "" {
		a.finish()
	}
	// Give the buffers back. After a panic nothing is given back.
	if cap(a.direct) <= maxScratch {
		sc.direct = a.direct[:0]
	}
	if cap(a.flags) <= maxScratch {
		sc.flags = a.flags[:0]
	}
	if len(sc.calls) > maxCallSlots {
		clear(sc.calls[maxCallSlots:])
		sc.calls = sc.calls[:maxCallSlots]
	}
	out, abort, abortRule := a.out, a.abort, a.abortRule
	*a = analyzer{} // nothing of this call stays reachable from the pool
	sc.ws = wsCache{}
	clear(sc.dirs[:cap(sc.dirs)])
	sc.dirs = sc.dirs[:0]
	g.scratch.Put(sc)
	if abort != "" {
		return Verdict{Decision: permission.Deny, Rule: abortRule, Reason: "cannot be analysed: " + abort,
			Commands: out}
	}
	return combine(out)
}

// sizeGuess estimates the number of simple commands and words in script:
// one command per separator ("&&" and "||" count once) and one word per
// blank, at most one more. It only sizes buffers (a short guess costs one
// more allocation, a long one wasted memory), and counts bytes with
// strings.Count, which is much faster than a loop over the script.
func sizeGuess(script string) (n, words int) {
	n = 1 + strings.Count(script, "\n") + strings.Count(script, ";") +
		strings.Count(script, "|") + strings.Count(script, "&") -
		strings.Count(script, "&&") - strings.Count(script, "||")
	return n, 1 + strings.Count(script, " ") + strings.Count(script, "\t")
}

// parse parses script with the scratch's parser, or returns the tree
// kept from an earlier parse of the same text (parses), which the caller
// only reads.
func (sc *scratch) parse(script string) (*syntax.File, error) {
	if f := sc.parses.get(script); f != nil {
		return f, nil
	}
	sc.reader.Reset(script)
	f, err := sc.parser.Parse(&sc.reader, "")
	sc.reader.Reset("")
	if err == nil {
		sc.parses.put(script, f)
	}
	return f, err
}

func combine(cmds []Command) Verdict {
	if len(cmds) == 0 {
		// Comments and white space only: bash runs nothing.
		return Verdict{Decision: permission.Allow, Rule: RuleEmpty, Reason: "the script holds no command: nothing runs"}
	}
	v := Verdict{Decision: permission.Allow, Commands: cmds}
	first := -1
	for i := range cmds {
		d := cmds[i].Decision
		if !d.Valid() {
			d = permission.Deny
		}
		if d < v.Decision || first < 0 && d != permission.Allow {
			v.Decision = d
			first = i
		}
	}
	if first < 0 {
		v.Rule = RuleSafe
		v.Reason = "every command is read-only and on the safe list"
		return v
	}
	v.Rule = cmds[first].Rule
	v.Reason = cmds[first].Reason
	v.Cause = cmds[first].Cause
	return v
}

func panicText(r any) string {
	switch x := r.(type) {
	case error:
		return x.Error()
	case string:
		return x
	}
	return "panic"
}

// ConfigCredential reports why the file at path, a resolved path a tool
// is about to read, holds a credential, when it is a config file of a git
// repository (config or config.worktree in a directory named .git or
// NAME.git, or below one: a worktree's, a submodule's) and one of its keys
// looks like a credential by the rules git config's reading forms are
// judged by. A config that cannot be read here (too large, a line git's
// parser would read otherwise) counts as one that holds a credential; a
// missing file holds none. Any other path holds none and costs no system
// call. The answer is kept on g, as the other workspace facts are, and
// read again when the file changes. A nil Guard finds none.
func (g *Guard) ConfigCredential(path string) (why string, found bool) {
	if g == nil || !gitConfigFile(path) {
		return "", false
	}
	ws := g.ws.judgeUse()
	why = ws.get(factKey{kind: "configcredential", a: path}, func(r *stampRec) any {
		return configFileCredential(r, path)
	}).(string)
	return why, why != ""
}
