package bashguard

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// A literal "cd DIR" changes the working directory of the commands after
// it, and they are judged there: in "cd src && cat a.go" the read is of
// src/a.go. The guard follows the directory through the parts of a script
// whose order of execution it knows: lists (; and newlines), && and ||,
// brace groups, and the scopes that do not leak (subshells, the elements
// of a pipeline, command and process substitutions, bash -c code). A
// command after a cd that may fail is judged in every directory it may
// run in: after "cd x; ls" both in x and where the script started, after
// "cd x || exit" only in x.
//
// Where the guard does not follow the order (the bodies of if, while,
// for, case and functions, eval, a background job, a cd run by a wrapper
// such as "command cd"), a cd stays an Ask, as does a cd the guard cannot
// resolve: "cd" alone, "cd -", an option other than -L, -P and -e, a
// directory only known at run time, one that does not exist, or one whose
// ".." after a link leads elsewhere than bash's logical reading of it.
//
// A relative directory is found as bash finds it with the CDPATH of
// [Policy.CDPath]: in each entry in turn (an empty one is the working
// directory), the first that holds it as a directory cd can enter, else
// relative to the working directory; a directory starting with "/", "./"
// or "../", or "." or "..", never goes through CDPATH. A relative entry
// or one that cannot be read before the directory is found is asked. An
// assignment to CDPATH in the script is asked, as every upper-case name
// is.

// maxDirs bounds the working directories a point of a script is judged
// in; a script that may be in more asks.
const maxDirs = 8

// outcome is the working directories a statement may leave behind: ok
// after it succeeded, fail after it failed. Both empty: the shell exits.
type outcome struct{ ok, fail []string }

// oneDir returns the set {d}, from the Judge's arena of such sets (one
// allocation for many: every statement walked makes one), capped so that
// adding to it copies it (BenchmarkToolgateCommands in bench).
func (a *analyzer) oneDir(d string) []string {
	ar := &a.sc.dirs
	if len(*ar) == cap(*ar) {
		*ar = make([]string, 0, 16)
	}
	*ar = append(*ar, d)
	n := len(*ar)
	return (*ar)[n-1 : n : n]
}

// unionDirs returns the set s with the directories of d added: d itself,
// capped so that adding to it copies it, when s is empty. Neither s nor d
// is changed where it is seen.
func unionDirs(s, d []string) []string {
	if len(s) == 0 {
		return slices.Clip(d)
	}
	return addDir(s, d...)
}

// addDir adds d to the set s.
func addDir(s []string, d ...string) []string {
	for _, x := range d {
		if !containsDir(s, x) {
			s = append(s, x)
		}
	}
	return s
}

func containsDir(s []string, d string) bool {
	for _, x := range s {
		if x == d {
			return true
		}
	}
	return false
}

// setDir makes d the working directory the commands are judged in.
func (a *analyzer) setDir(d string) {
	if d != a.dir {
		a.dir = d
		a.wsFacts.moved()
	}
}

// list walks a list of statements, each in every directory the ones
// before may have left, and returns what the last one leaves. The working
// directory is as before when it returns.
func (a *analyzer) list(stmts []*syntax.Stmt, x execCtx) outcome {
	cur := a.dir
	dirs := a.oneDir(cur)
	last := outcome{ok: dirs, fail: dirs}
	x = execCtx{fork: x.fork, piped: x.piped}
	for _, s := range stmts {
		if a.abort != "" {
			break
		}
		var next outcome
		// Walked in several directories, the statement may leave its
		// variables differently in each: what they agree on is kept.
		pre := a.vars
		var ends joiner
		for _, d := range dirs {
			if len(dirs) > 1 {
				a.vars = maps.Clone(pre)
			}
			a.setDir(d)
			o := a.flow(s, x)
			next.ok, next.fail = unionDirs(next.ok, o.ok), unionDirs(next.fail, o.fail)
			ends.add(a.vars)
		}
		a.vars = ends.m
		last = next
		dirs = unionDirs(slices.Clip(next.ok), next.fail)
		if len(dirs) == 0 {
			// The shell has exited: what follows never runs; it is judged
			// anyway, where the list started.
			dirs = a.oneDir(cur)
		}
		dirs = a.boundDirs(dirs, s)
	}
	a.setDir(cur)
	return last
}

// boundDirs keeps at most maxDirs directories, and records an Ask if it
// had to drop some.
func (a *analyzer) boundDirs(dirs []string, s *syntax.Stmt) []string {
	if len(dirs) <= maxDirs {
		return dirs
	}
	if a.count() {
		c := newAcc()
		c.add(permission.Ask, "state", "changes the working directory in more ways than can be followed, so later relative paths cannot be checked", false)
		a.emit([]string{"cd"}, s.Pos(), &c, false, false)
	}
	return dirs[:maxDirs]
}

// flow walks one statement in the current directory and returns where it
// may leave the shell.
func (a *analyzer) flow(s *syntax.Stmt, x execCtx) outcome {
	cur := a.dir
	one := a.oneDir(cur)
	here := outcome{ok: one, fail: one}
	if s == nil {
		return here
	}
	if s.Background || s.Coprocess || s.Disown {
		vars := a.saveVars() // a job of its own: its assignments stay there
		a.untracked(s, x)
		a.vars = vars
		return here
	}
	switch cmd := s.Cmd.(type) {
	case *syntax.CallExpr:
		a.cdWant = a.cdOff == 0
		a.stmt(s, x)
		a.cdWant = false
		if to, ok := a.cdTo, a.cdDone; ok {
			a.cdTo, a.cdDone = "", false
			return outcome{ok: a.oneDir(to), fail: one}
		}
		if len(cmd.Args) > 0 && cmd.Args[0].Lit() == "exit" && len(cmd.Assigns) == 0 {
			return outcome{}
		}
		return here
	case *syntax.BinaryCmd:
		switch cmd.Op {
		case syntax.AndStmt, syntax.OrStmt:
			ox := a.flow(cmd.X, x)
			var out outcome
			run, pass := ox.ok, ox.fail // && runs Y after success
			if cmd.Op == syntax.OrStmt {
				run, pass = ox.fail, ox.ok
			}
			if cmd.Op == syntax.AndStmt {
				out.fail = slices.Clip(pass)
			} else {
				out.ok = slices.Clip(pass)
			}
			// What Y assigns holds after it only if Y surely ran: the
			// values are those every way through agrees on.
			afterX := a.vars
			var ends joiner
			if len(pass) > 0 || len(run) == 0 {
				ends.add(maps.Clone(afterX))
			}
			for _, d := range run {
				a.vars = maps.Clone(afterX)
				a.setDir(d)
				oy := a.flow(cmd.Y, x)
				out.ok, out.fail = unionDirs(out.ok, oy.ok), unionDirs(out.fail, oy.fail)
				ends.add(a.vars)
			}
			a.vars = ends.m
			a.setDir(cur)
			a.stmtRedirs(s, x)
			return out
		case syntax.Pipe, syntax.PipeAll:
			// Every element runs in a subshell of its own: a cd there
			// changes nothing after the pipeline.
			a.pipe(cmd, x, a.scoped)
			a.stmtRedirs(s, x)
			return here
		}
	case *syntax.Block:
		o := a.list(cmd.Stmts, execCtx{fork: x.fork, piped: x.piped})
		a.stmtRedirs(s, x)
		return o
	case *syntax.Subshell:
		saved, vars := a.cdOff, a.saveVars()
		a.cdOff = 0
		a.list(cmd.Stmts, execCtx{fork: x.fork, piped: x.piped})
		a.cdOff, a.vars = saved, vars
		a.stmtRedirs(s, x)
		return here
	case *syntax.FuncDecl:
		if b := bashFuncDecl(s); b != s {
			return a.flow(b, x) // f() { ...; } && y: the definition, then y
		}
	}
	a.untracked(s, x)
	return here
}

// scoped walks a statement whose changes of directory do not outlive it.
func (a *analyzer) scoped(s *syntax.Stmt, x execCtx) {
	saved := a.cdOff
	a.cdOff = 0
	a.flow(s, x)
	a.cdOff = saved
}

// untracked walks a statement whose order of execution the guard does not
// follow: a cd inside it is asked.
func (a *analyzer) untracked(s *syntax.Stmt, x execCtx) {
	a.cdOff++
	a.stmt(s, x)
	a.cdOff--
}

// stmtRedirs judges the redirections of a statement flow walked itself.
func (a *analyzer) stmtRedirs(s *syntax.Stmt, x execCtx) {
	if len(s.Redirs) > 0 {
		a.bareRedirects(s, x)
	}
}

// cd judges a cd that flow follows: it records the directory the commands
// after it run in, or asks when it cannot tell.
func (a *analyzer) cd(c *verdictAcc, v *argv) {
	physical := false
	i := 1
	for ; i < v.len() && v.literal(i); i++ {
		s := v.vals[i]
		if s == "--" {
			i++
			break
		}
		if len(s) < 2 || s[0] != '-' {
			break
		}
		if strings.Trim(s[1:], "LPe") != "" {
			c.addf(permission.Ask, "state", "changes the working directory with the option ", s, ", so later relative paths cannot be checked", false)
			return
		}
		if p, l := strings.LastIndexByte(s, 'P'), strings.LastIndexByte(s, 'L'); p > l {
			physical = true
		} else if l > p {
			physical = false
		}
	}
	switch {
	case i == v.len():
		c.add(permission.Ask, "state", "changes the working directory to the home directory, so later relative paths cannot be checked", false)
		return
	case i+1 < v.len():
		c.add(permission.Ask, "state", "changes the working directory with more than one operand, so later relative paths cannot be checked", false)
		return
	case !v.literal(i):
		c.addf(permission.Ask, "state", "changes the working directory to ", v.vals[i], ", which is only known at run time, so later relative paths cannot be checked", false)
		return
	}
	t := v.vals[i]
	if t == "" || t == "-" {
		c.add(permission.Ask, "state", "changes the working directory to the previous one, so later relative paths cannot be checked", false)
		return
	}
	if a.dir == "" && !path.IsAbs(t) {
		c.add(permission.Ask, "state", "changes the working directory, so later relative paths cannot be checked (the starting directory is not known)", false)
		return
	}
	to, found, why := cdResolve(a.dir, a.g.pol.CDPath, t, physical)
	if why != "" {
		c.addf(permission.Ask, "state", "changes the working directory to ", t, ", which "+why+", so later relative paths cannot be checked", false)
		return
	}
	name := t
	if found {
		name = t + " (" + to + " through CDPATH)"
	}
	r := a.judgePath(to, Probe)
	switch r.Decision {
	case permission.Allow:
		c.allow(RuleSafe, "changes the working directory inside the allowed roots")
	case permission.Ask:
		why := sep(r.Reason)
		if strings.HasPrefix(r.Reason, "outside ") {
			why += cdOutsideByDesign
		}
		c.addc(permission.Ask, r.Layer, ruleOr(r.Rule, RulePathRead), r.Cause, "enters ", name, why, false)
	default:
		c.addc(permission.Deny, r.Layer, ruleOr(r.Rule, RulePathRead), r.Cause, "enters ", name, sep(r.Reason), false)
	}
	a.cdTo, a.cdDone = to, true
}

// cdOutsideByDesign ends the reason of a cd out of the roots (into /tmp,
// a sibling checkout): the Ask is the design, not a gap. The roots are
// what commands may read and change unasked; the commands after the cd
// read and write relative to a directory outside them, so a person says
// whether that directory is part of the work (or adds it as a root).
const cdOutsideByDesign = "; asked by design: the commands after it work outside the roots, which a person confirms (add the directory as a root to work there unasked)"

// maxCDPath bounds the CDPATH entries a cd is looked up in; a longer
// CDPATH asks.
const maxCDPath = 64

// cdResolve returns the directory "cd t" enters from the absolute working
// directory dir (empty when unknown, for an absolute t only) with cdpath
// the value of CDPATH, and whether a CDPATH entry other than the working
// directory found it. It explains why it cannot tell otherwise.
func cdResolve(dir, cdpath, t string, physical bool) (string, bool, string) {
	if path.IsAbs(t) {
		to, why := cdTarget(t, physical)
		return to, false, why
	}
	if cdpath != "" && !cdNoSearch(t) {
		entries := strings.Split(cdpath, ":")
		if len(entries) > maxCDPath {
			return "", false, "is looked up in a CDPATH of more than " + strconv.Itoa(maxCDPath) + " entries"
		}
		for _, e := range entries {
			if e == "" {
				e = dir
			}
			if !path.IsAbs(e) {
				return "", false, "is looked up in CDPATH through its relative entry " + e
			}
			cand := strings.TrimSuffix(e, "/") + "/" + t
			fi, err := os.Stat(cand)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
					continue
				}
				return "", false, "is looked up in CDPATH, and " + cand + " cannot be read"
			}
			if !fi.IsDir() {
				continue
			}
			to, why := cdTarget(cand, physical)
			if why != "" {
				return "", false, "is found through CDPATH at " + cand + ", which " + why
			}
			// bash tries the next entry when it cannot enter this one.
			if syscall.Access(to, accessSearch) != nil {
				continue
			}
			return to, e != dir, ""
		}
	}
	to, why := cdTarget(strings.TrimSuffix(dir, "/")+"/"+t, physical)
	return to, false, why
}

// accessSearch is access(2)'s X_OK: the right to enter a directory.
const accessSearch = 0x1

// cdNoSearch reports whether bash takes the cd operand t as it is,
// without looking it up in CDPATH.
func cdNoSearch(t string) bool {
	return t == "." || t == ".." || strings.HasPrefix(t, "./") || strings.HasPrefix(t, "../")
}

// cdTarget returns the directory "cd" enters for the absolute, uncleaned
// path p, as bash finds it: by default logically (".." removes the name
// before it, and the result must be a directory), with -P by resolving
// links. It explains why it cannot tell otherwise.
func cdTarget(p string, physical bool) (string, string) {
	fi, err := os.Stat(p)
	if err != nil || !fi.IsDir() {
		return "", "is not an existing directory"
	}
	if physical {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			return "", "cannot be resolved"
		}
		return r, ""
	}
	logical := path.Clean(p)
	if logical == p {
		return logical, ""
	}
	// bash falls back to the physical directory when the logical one is
	// not a directory: take the path only when both are the same.
	li, err := os.Stat(logical)
	if err != nil || !li.IsDir() || !os.SameFile(li, fi) {
		return "", "leads elsewhere through a link than bash's logical reading of \"..\""
	}
	return logical, ""
}
