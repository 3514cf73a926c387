// Package content is the content stage of a tool call (layers 2, 4 and
// 5 on its final input): it reads the fields the tool declares, refuses
// input a tool could read otherwise than the checks do (letter-case keys,
// white space, Unicode forms, URL hosts), sends every path the call
// reaches through the one path judge (the sandbox and the Read and Edit
// rules of every source, on the real and the written path), every shell
// script through the guard and each of its commands against the rules,
// and every host through the domain rules. It takes plain values and
// returns one answer per source, for permission.Combine.
package content

import (
	"context"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/internal/sysread"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// Call is one call as the stage sees it: the tool and what it declares
// about its input (as tool.Traits does).
type Call struct {
	// Tool is the tool's name, as rules name it.
	Tool string
	// Kind says what the tool does; only KindRead reads its path fields,
	// every other kind writes them.
	Kind permission.Kind
	// The declared fields, by role: paths, globs (whose literal leading
	// directories are a path), filters and ripgrep file types that select
	// files beneath the path, shell scripts, URLs, host names (or lists of
	// them), a shell command's working directory, the fields a call must
	// carry, and the member "Tool(specifier)" rules match.
	PathFields     []string
	GlobFields     []string
	FilterFields   []string
	FileTypeFields []string
	CommandFields  []string
	URLFields      []string
	DomainFields   []string
	WorkdirField   string
	RequiredFields []string
	SpecifierField string
	// ServerField is the member that names the MCP server the call
	// reaches (see tool.Traits.ServerField).
	ServerField string
	// Rules are the tool's own answers for this input: each a Deny or an
	// Ask (any other decision is a Deny).
	Rules []Rule
}

// Rule is one answer a tool gives about its own input.
type Rule struct {
	Decision permission.Decision
	Reason   string
	// Rule names the check; empty means "tool:<name>".
	Rule permission.RuleID
}

// Judges are what the stage judges with. A nil Checker denies every call
// (permission.Checker.Check), a nil Sandbox every path, a nil Guard every
// shell command.
type Judges struct {
	// Checker holds the rules of the configuration; Session the
	// session's own (nil for none).
	Checker *permission.Checker
	Session *permission.SessionRules
	Sandbox *sandbox.Sandbox
	Guard   *bashguard.Guard
	// Mode is the session's permission mode: acceptEdits and auto lift
	// the guard's Ask for a shell command's writes inside the roots of
	// the kinds Claude Code runs unasked there (see modeLifts). Every
	// other answer is left to permission.Combine.
	Mode permission.Mode
	// Reads are where a file tool's read outside the roots needs no
	// person (internal/sysread): the system roots and the Go module
	// cache, the ones the shell guard reads. The zero value is the
	// default system roots and no module cache.
	Reads sysread.Places
}

// rulesFor checks the rules with the session's rules.
func (j *Judges) rulesFor(req *permission.Request) permission.Result {
	return j.Checker.Check(req, j.Session)
}

// Command is the verdict on one simple command of a shell call.
type Command struct {
	// Args is the argv as bash would see it.
	Args []string
	// Result is the command's own verdict: the guard's and the rules',
	// combined.
	permission.Result
	// Pos is where the command stands in the script ("line:col").
	Pos string
}

// Findings are what the stage found on one call.
type Findings struct {
	// ans are the answers, one per source.
	ans []permission.Result
	// Commands lists, for a shell call, each simple command with its own
	// verdict.
	Commands []Command
	// InsideRoots reports that every path the call reaches was judged and
	// is inside the allowed roots (permission.Call.InsideRoots): at least
	// one path was judged, and no declared path field was empty or absent
	// (the tool would touch a path of its own choosing).
	InsideRoots bool
	// paths are the real paths the call touches.
	paths []string
	// Domains are the hosts the call reaches, in the form domain rules
	// are written in.
	Domains []string
}

// Paths returns the real paths the call touches, whose rules an "allow
// always" answer would record.
func (f *Findings) Paths() []string {
	return f.paths
}

// stage is the work on one call.
type stage struct {
	Findings
	j    Judges
	call Call
	// workdir is the real working directory a shell command runs in, when
	// the call names one; workdirRefused that it named one the sandbox
	// refused.
	workdir        string
	workdirRefused bool
	// rules is the strictest rules' answer over the call's objects.
	rules    permission.Result
	hasRules bool
}

// Inspect runs the stage on one call whose input has the top-level
// members given (sorted by key, values in canonical form: see
// jsonin.Object): the tool's own rules, the declared fields' hygiene,
// every path, script and host, and the rules for each (or, for a call
// with nothing declared to look at, for the call itself). Give
// [Findings.Answers] to permission.Combine.
func Inspect(ctx context.Context, j Judges, call Call, members []jsonin.Member) Findings {
	c := stage{j: j, call: call}
	c.inspect(ctx, members)
	return c.Findings
}

func (f *Findings) add(r permission.Result) {
	f.ans = append(f.ans, r)
}

// Answers returns the answers collected, one per source, with extra ones
// first.
func (f *Findings) Answers(extra ...permission.Result) []permission.Result {
	if len(extra) == 0 {
		return f.ans
	}
	return append(extra[:len(extra):len(extra)], f.ans...)
}

// addRules merges the rules' answer for one object of the call (a path, a
// domain) into one answer for the call: the strictest wins, since the call
// is allowed only if every object it touches is. (Given to Combine one by
// one, an Allow rule for one path would outrank a default Deny for
// another.)
func (c *stage) addRules(r permission.Result) {
	if !c.hasRules {
		c.rules, c.hasRules = r, true
		return
	}
	lose := r
	if r.Decision < c.rules.Decision {
		lose, c.rules = c.rules, r
	}
	c.rules.Conflicts.Add(permission.Conflict{Decision: lose.Decision, Layer: lose.Layer, Source: lose.Source, Rule: lose.Rule, Reason: lose.Reason})
}

func (c *stage) guardDeny(layer permission.Layer, rule permission.RuleID, reason string) {
	c.add(permission.Result{Decision: permission.Deny, Layer: layer, Source: permission.SourceToolDeny, Rule: rule, Reason: reason})
}

func (c *stage) guardAsk(layer permission.Layer, rule permission.RuleID, reason string, firm bool) {
	c.add(permission.Result{Decision: permission.Ask, Layer: layer, Source: permission.SourceToolAsk, Rule: rule, Reason: reason, Firm: firm})
}

// group is the Claude Code rule family a tool's paths also answer to, or
// for Task and Agent (one tool, renamed) the other name, so that a rule
// for either holds for both.
func (c *stage) group() string {
	switch c.call.Tool {
	case "Task":
		return "Agent"
	case "Agent":
		return "Task"
	}
	switch c.call.Kind {
	case permission.KindRead:
		return "Read"
	case permission.KindEdit:
		return "Edit"
	}
	return ""
}
