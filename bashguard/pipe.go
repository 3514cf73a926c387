package bashguard

import (
	"maps"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

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
		if ce, ok := cmd.X.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 && cmdNamed()[ce.Args[0].Lit()] == clsFind &&
			!cmd.X.Negated && len(cmd.X.Redirs) == 0 &&
			last.Decision == permission.Allow && len(last.Args) > 0 && cmdNamed()[last.Args[0]] == clsFind {
			found = a.lastFind
		}
	}
	if found == nil && cmd.Op == syntax.Pipe {
		// Another listing command: git ls-files, rg -l, fd, ... (model_list.go),
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
// unchanged (lineFilterArgs), without files or redirections. Behind find
// it passes on paths find printed.
func lineFilter(s *syntax.Stmt) bool {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return false
	}
	args := make([]string, 0, len(ce.Args))
	for _, w := range ce.Args {
		t, ok := literalText(w)
		if !ok || strings.ContainsAny(t, "*?[") && w.Lit() == t {
			return false // unquoted glob characters, or an expansion
		}
		args = append(args, t)
	}
	return lineFilterArgs(args)
}
