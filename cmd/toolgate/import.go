package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// toolgate import codex|gemini FILE…: another coding agent's policy
// files as toolgate rules, in Claude Code's syntax. The rules go to
// standard output as a settings fragment ({"permissions": {"allow",
// "ask", "deny"}}) to merge into a settings file; every construct that
// does not translate exactly is a warning on standard error, with the
// file and line it comes from. The readers are in import_codex.go and
// import_gemini.go; each produces an importResult, printed here.

// importedRule is one toolgate rule an import produced.
type importedRule struct {
	// Decision is the list the rule goes in.
	Decision permission.Decision
	// Rule is the rule in Claude Code's syntax.
	Rule string
	// File and Line say where the construct it came from begins.
	File string
	Line int
}

// importWarning is a construct that did not translate exactly.
type importWarning struct {
	File string
	Line int
	Msg  string
}

func (w importWarning) String() string {
	if w.Line == 0 {
		return fmt.Sprintf("%s: %s", w.File, w.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", w.File, w.Line, w.Msg)
}

// importResult is what one import of one or more files produced.
type importResult struct {
	Rules    []importedRule
	Warnings []importWarning
	// Sources lists, per file, the line of every rule-like construct the
	// file holds (a call, a [[rule]] table), so that a test can show that
	// each one either translated or was named in a warning.
	Sources map[string][]int
	// priorities is, for Gemini CLI, the priority of each of Rules.
	priorities []int64
}

func (r *importResult) warn(file string, line int, format string, args ...any) {
	r.Warnings = append(r.Warnings, importWarning{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (r *importResult) add(d permission.Decision, rule, file string, line int) {
	r.Rules = append(r.Rules, importedRule{Decision: d, Rule: rule, File: file, Line: line})
}

func (r *importResult) source(file string, line int) {
	if r.Sources == nil {
		r.Sources = map[string][]int{}
	}
	r.Sources[file] = append(r.Sources[file], line)
}

// importers are the policy languages toolgate import reads: one row each.
var importers = map[string]func(file string, data []byte, r *importResult) error{
	"codex":  importCodex,
	"gemini": importGemini,
}

// settingsFragment is what toolgate import prints.
type settingsFragment struct {
	Permissions struct {
		Allow []string `json:"allow,omitempty"`
		Ask   []string `json:"ask,omitempty"`
		Deny  []string `json:"deny,omitempty"`
	} `json:"permissions"`
}

// fragment collects r's rules into a settings fragment, each rule once,
// in the order the files gave them.
func (r *importResult) fragment() settingsFragment {
	var f settingsFragment
	seen := map[string]bool{}
	for _, ir := range r.Rules {
		key := ir.Decision.String() + "\x00" + ir.Rule
		if seen[key] {
			continue
		}
		seen[key] = true
		switch ir.Decision {
		case permission.Allow:
			f.Permissions.Allow = append(f.Permissions.Allow, ir.Rule)
		case permission.Ask:
			f.Permissions.Ask = append(f.Permissions.Ask, ir.Rule)
		default:
			f.Permissions.Deny = append(f.Permissions.Deny, ir.Rule)
		}
	}
	return f
}

// runImport is "toolgate import codex|gemini FILE…".
func runImport(args []string, e env) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if helpRequested(fs, err, e) {
			return 0
		}
		fmt.Fprintf(e.stderr, "toolgate import: %v\nusage: %s\n", err, synopses["import"])
		return 2
	}
	if fs.NArg() < 2 || importers[fs.Arg(0)] == nil {
		fmt.Fprintf(e.stderr, "toolgate import: name the policy language (codex or gemini) and at least one file\nusage: %s\n", synopses["import"])
		return 2
	}
	res, failed := importFiles(fs.Arg(0), fs.Args()[1:], func(name string) ([]byte, error) { return os.ReadFile(name) })
	for _, msg := range failed {
		fmt.Fprintln(e.stderr, msg)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(e.stderr, w)
	}
	out, _ := json.MarshalIndent(res.fragment(), "", "  ")
	fmt.Fprintf(e.stdout, "%s\n", out)
	if len(failed) > 0 {
		return 1
	}
	return 0
}

// importFiles reads files in the language named lang. A file that cannot
// be read or parsed contributes no rule; its error is in failed.
func importFiles(lang string, files []string, read func(string) ([]byte, error)) (res importResult, failed []string) {
	imp := importers[lang]
	for _, name := range files {
		data, err := read(name)
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s: cannot read: %s", name, readError(err)))
			continue
		}
		var one importResult
		if err := imp(name, data, &one); err != nil {
			failed = append(failed, fmt.Sprintf("%s: %v (no rule of the file imported)", name, err))
			res.Warnings = append(res.Warnings, one.Warnings...)
			continue
		}
		res.Rules = append(res.Rules, one.Rules...)
		res.priorities = append(res.priorities, one.priorities...)
		res.Warnings = append(res.Warnings, one.Warnings...)
		for f, lines := range one.Sources {
			for _, l := range lines {
				res.source(f, l)
			}
		}
	}
	if lang == "gemini" {
		geminiPriorityWarnings(&res)
	}
	sort.SliceStable(res.Warnings, func(i, j int) bool {
		a, b := res.Warnings[i], res.Warnings[j]
		if a.File != b.File {
			return indexOf(files, a.File) < indexOf(files, b.File)
		}
		return a.Line < b.Line
	})
	return res, failed
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return len(list)
}

// shellRule is the Bash rule for a command whose words begin with words:
// Bash(w1 w2:*), each word quoted as bash would need it. It returns ""
// and why where toolgate's rule syntax cannot say it exactly.
func shellRule(words []string) (string, string) {
	quoted := make([]string, len(words))
	for i, w := range words {
		switch {
		case w == "":
			return "", "an empty word"
		case strings.Contains(w, "*"):
			return "", fmt.Sprintf("the word %q holds '*', which a toolgate rule reads as a wildcard", w)
		case strings.ContainsAny(w, "\x00\n\r"):
			return "", fmt.Sprintf("the word %q holds a control character", w)
		case plainWord(w):
			quoted[i] = w
		default:
			quoted[i] = "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
		}
	}
	rule := "Bash(" + strings.Join(quoted, " ") + ":*)"
	if _, err := permission.New(permission.Config{Rules: []permission.RuleSpec{{Rule: rule, Decision: permission.Allow}}}); err != nil {
		return "", err.Error()
	}
	return rule, ""
}

func plainWord(w string) bool {
	for i := 0; i < len(w); i++ {
		c := w[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-_./=+,@%^:", c) >= 0) {
			return false
		}
	}
	return true
}

// rulesMatchCommand reports whether any of rules matches the simple command
// argv, as toolgate's rule matcher (package permission) decides it.
func rulesMatchCommand(rules []string, argv []string) bool {
	specs := make([]permission.RuleSpec, len(rules))
	for i, r := range rules {
		specs[i] = permission.RuleSpec{Rule: r, Decision: permission.Allow}
	}
	c, err := permission.New(permission.Config{Rules: specs})
	if err != nil {
		return false
	}
	res := c.Check(&permission.Request{Tool: "Bash", Kind: permission.KindExec, Command: argv}, nil)
	return res.Source != permission.SourceDefault
}
