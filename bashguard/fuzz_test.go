package bashguard

import (
	"context"
	"path"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// FuzzJudge checks that Judge never panics, always explains itself, and
// that whenever it allows a script, an independent walk of the syntax tree
// finds only literal simple commands whose names are on the safe list and
// no shell function calls.
func FuzzJudge(f *testing.F) {
	for _, s := range []string{
		"ls -la && pwd", "cat README.md | head -n 5", `grep "ssh_config" *.rs`,
		":(){ :|:& };:", "echo x > >(tee f)", `echo "${var1=aa\140 env| ls -l\140}${var1@P}"`,
		"git -c core.pager=x log", "xargs sudo rm -rf /", "sed 'w ~/.zshenv'", "find . -exec rm {} \\;",
		"true && rm important_file.txt", "echo $((a[$(id)]))", "ls() { rm -rf /; }; ls",
		"bash -c 'ls; echo hi'", "eval 'ls'", "env -i ls", "timeout 5 cat a", "'l's", "l\\s", "$'\\x6c's",
		"{ls,-la}", "echo {a,b}", "cat <<EOF\n$(id)\nEOF\n", "a=1 ls", "LANG=C ls", "echo ~", "ls ~root",
		"awk '{print $1}' f", "sed -n 1p f", "for x in a; do echo $x; done", "[[ -f x ]] && cat x", "eval", "nohup ls",
		"case !((0)) in 0);&esac", "case x in @($(id))) ;; esac", "for a in $0;do :&done", "for a in \"$0\";do cat&done", "git diff $(git merge-base 0)",
	} {
		f.Add(s)
	}
	for _, c := range loadCases(f) {
		f.Add(c.Script)
	}
	pol, paths := casePolicy("")
	g := New(pol)
	safe := map[string]bool{}
	for _, n := range SafeCommands() {
		safe[n] = true
	}
	// cd is judged where it leads (cdtrack.go): into a world-readable
	// system directory it is allowed, as it is into the roots.
	safe["cd"] = true
	f.Fuzz(func(t *testing.T, script string) {
		v := g.Judge(context.Background(), testWork, paths, script)
		if !v.Decision.Valid() || v.Reason == "" || v.Rule == "" {
			t.Fatalf("verdict without explanation for %q: %+v", script, v)
		}
		for _, c := range v.Commands {
			if c.Reason == "" || c.Rule == "" || !c.Decision.Valid() {
				t.Fatalf("command without explanation in %q: %+v", script, c)
			}
			if c.Overridable && c.Decision != permission.Ask {
				t.Fatalf("overridable %v in %q: %+v", c.Decision, script, c)
			}
			if c.Decision < v.Decision {
				t.Fatalf("combined %v is laxer than command %+v in %q", v.Decision, c, script)
			}
		}
		if v.Decision != permission.Allow {
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
		if err != nil {
			t.Fatalf("allowed a script that does not parse: %q: %v", script, err)
		}
		if why := notLiteralSafe(file, safe); why != "" {
			t.Fatalf("allowed %q, but %s", script, why)
		}
	})
}

// notLiteralSafe walks the tree on its own and explains the first node
// that an allowed script must not contain, or returns "".
func notLiteralSafe(f *syntax.File, safe map[string]bool) string {
	k := literalKnown{safe: safe, funcs: map[string]bool{}, loopVars: map[string]bool{}, listParams: map[*syntax.ParamExp]bool{}}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			if n.Name != nil {
				k.funcs[n.Name.Value] = true
			}
		case *syntax.WordIter:
			k.loopVars[n.Name.Value] = true
			// A plain $name in the list is data: the values it splits
			// into are the loop variable's, judged where it is used.
			for _, w := range n.Items {
				parts := w.Parts
				for i := 0; i < len(parts); i++ {
					switch part := parts[i].(type) {
					case *syntax.ParamExp:
						if plainExpansion(part) {
							k.listParams[part] = true
						}
					case *syntax.DblQuoted:
						parts = append(parts[:len(parts):len(parts)], part.Parts...) // "$0" too
					}
				}
			}
		}
		return true
	})
	// The lower-case variables the script assigns itself; those assigned
	// the output of a command substitution (or another such variable)
	// hold data, taken only by the commands that take any word.
	k.assigned, k.outVars = assignedVars(f)
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if why == "" {
			why = k.notSafe(n)
		}
		return why == ""
	})
	return why
}

// literalKnown is what notLiteralSafe knows of a script: the safe list,
// its functions, loop variables and assigned variables, and those holding
// a command's output.
type literalKnown struct {
	safe, funcs, loopVars, assigned, outVars map[string]bool
	listParams                               map[*syntax.ParamExp]bool // plain expansions in a for loop's list
}

// notSafe explains why the node n may not be in an allowed script, or
// returns "".
func (k *literalKnown) notSafe(n syntax.Node) string {
	switch n := n.(type) {
	case *syntax.ParamExp:
		// Only the variables whose value the guard knows: $PWD, $HOME
		// and loop variables, plainly expanded; and any variable plainly
		// expanded in a loop's list.
		if !k.knownParam(n) && !k.listParams[n] {
			return "it holds a run-time expansion of a variable whose value is not known"
		}
	case *syntax.ProcSubst:
		if n.Op != syntax.CmdIn {
			return "it holds an output process substitution"
		}
	case *syntax.ArithmExp:
		if !constArith(n.X) {
			return "it holds a run-time expansion or command"
		}
	case *syntax.ExtGlob:
		// A pattern of literal text (case x in !(a|b))) matches; one
		// with an expansion inside runs it where extglob is on.
		if strings.ContainsAny(n.Pattern.Value, "$`<>") {
			return "it holds a run-time expansion or command" // written apart from the guard's extGlobExpands
		}
	case *syntax.ArithmCmd, *syntax.LetClause, *syntax.CoprocClause:
		return "it holds a run-time expansion or command"
	case *syntax.SglQuoted:
		if n.Dollar {
			return "it holds ANSI-C quoting"
		}
	case *syntax.DblQuoted:
		if n.Dollar {
			return "it holds locale quoting"
		}
	case *syntax.CallExpr:
		return k.notSafeCall(n)
	}
	return ""
}

// knownParam reports whether n is a plain expansion of a variable whose
// value the guard knows.
func (k *literalKnown) knownParam(n *syntax.ParamExp) bool {
	if n.Param == nil {
		return false
	}
	v := n.Param.Value
	known := v == "PWD" || v == "HOME" || k.loopVars[v] || harmlessParams()[v] || k.assigned[v]
	return known && plainExpansion(n)
}

// plainExpansion reports whether n expands a variable as it is: no
// operator, index, slice, replacement or modifier (written apart from the
// package's plainParam, which the walk checks).
func plainExpansion(n *syntax.ParamExp) bool {
	return n.Param != nil && !n.Excl && !n.Length && !n.Width && !n.IsSet && n.Index == nil && n.Slice == nil && n.Repl == nil &&
		n.Exp == nil && n.Names == 0 && n.NestedParam == nil && n.Flags == nil && len(n.Modifiers) == 0
}

// notSafeCall explains why the simple command n may not be in an allowed
// script, or returns "".
func (k *literalKnown) notSafeCall(n *syntax.CallExpr) string {
	if len(n.Args) == 0 {
		return ""
	}
	name, ok := plainWord(n.Args[0])
	if !ok {
		return "its command name is not literal"
	}
	if k.funcs[name] {
		return "it calls the shell function " + name
	}
	why := ""
	if !k.safe[path.Base(name)] {
		why = "it runs " + name + ", which is not on the safe list"
	}
	// The output of a command substitution is an argument only of the
	// commands that take any word as data.
	for _, a := range n.Args[1:] {
		if _, listing := wordSubst(a); listing && listedArgReaders()[path.Base(name)] {
			continue // the paths a listing prints, each judged as a read (listloops.go)
		}
		if holdsOutput(a, k.outVars) && !dataCmds[path.Base(name)] {
			why = "it passes the output of a command substitution to " + name
		}
	}
	return why
}

// plainWord removes quotes from a word made only of literal parts.
func plainWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(p.Value, `\`, ""))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// dataCmds take any word as data: printed, compared or refused.
var dataCmds = map[string]bool{"echo": true, "printf": true, "test": true, "[": true, ":": true, "true": true,
	"false": true, "exit": true, "basename": true, "dirname": true, "expr": true, "tr": true, "seq": true, "numfmt": true}

// assignedVars returns the lower-case variables the script assigns, and
// those of them that may hold the output of a command substitution.
func assignedVars(f *syntax.File) (assigned, out map[string]bool) {
	assigned, out = map[string]bool{}, map[string]bool{}
	var values []*syntax.Assign
	syntax.Walk(f, func(n syntax.Node) bool {
		if as, ok := n.(*syntax.Assign); ok && as.Name != nil && strings.ToLower(as.Name.Value) == as.Name.Value {
			assigned[as.Name.Value] = true
			values = append(values, as)
		}
		return true
	})
	for changed := true; changed; {
		changed = false
		for _, as := range values {
			if !out[as.Name.Value] && as.Value != nil && holdsOutput(as.Value, out) {
				out[as.Name.Value] = true
				changed = true
			}
		}
	}
	return assigned, out
}

// holdsOutput reports a word with a command substitution other than
// $(pwd) and $(git rev-parse --show-toplevel), or a variable whose value
// is data ($?, $USER, or one of outVars), outside a process substitution
// of its own.
func holdsOutput(w *syntax.Word, outVars map[string]bool) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.ProcSubst:
			return false
		case *syntax.ParamExp:
			if n.Param != nil && (harmlessParams()[n.Param.Value] || outVars[n.Param.Value]) {
				found = true
			}
		case *syntax.CmdSubst:
			if len(n.Stmts) == 1 {
				if ce, ok := n.Stmts[0].Cmd.(*syntax.CallExpr); ok && (len(ce.Args) == 1 && ce.Args[0].Lit() == "pwd" ||
					len(ce.Args) == 3 && ce.Args[0].Lit() == "git" && ce.Args[1].Lit() == "rev-parse" && ce.Args[2].Lit() == "--show-toplevel") {
					return false
				}
				if ce, ok := n.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
					if _, known := echoValue(ce); known {
						return false // $(echo WORDS) of literal words: the words
					}
					if printsObjectIDs(ce) {
						return false // $(git merge-base A B): hexadecimal object names
					}
				}
			}
			found = true
			return false
		}
		return !found
	})
	return found
}

// printsObjectIDs reports a git command that prints object names alone,
// in hexadecimal (git merge-base; git rev-parse --verify), written apart
// from the package's objectIDPrinters, which the walk checks.
func printsObjectIDs(ce *syntax.CallExpr) bool {
	if len(ce.Args) < 2 || ce.Args[0].Lit() != "git" {
		return false
	}
	switch ce.Args[1].Lit() {
	case "merge-base":
		return true
	case "rev-parse":
		for _, a := range ce.Args[2:] {
			if a.Lit() == "--verify" {
				return true
			}
		}
	}
	return false
}
