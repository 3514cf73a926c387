package bashguard

import (
	"strconv"

	"github.com/toolgate/toolgate/permission"
)

// Verdict is the judgement of a whole shell script.
//
// Decision is Deny if any command is denied (or the script cannot be
// analysed), Allow only if every command is allowed, and Ask otherwise.
// Reason and Rule come from the first command that has the combined
// decision. The zero Verdict is a Deny.
type Verdict struct {
	Decision permission.Decision
	// Reason is a human-readable explanation of Decision.
	Reason string
	// Rule names the check that decided, e.g. [RuleSafe], [RuleParse],
	// [RuleDangerousRmCritical], "network:curl" ([NetworkRule]).
	Rule permission.RuleID
	// Cause is the error behind a Deny, when one is: a *[ParseError] for a
	// script that does not parse, or the [Command.Cause] of the command
	// that decided.
	Cause error
	// Commands lists every simple command found anywhere in the script, in
	// the order bash would start them, including those inside command and
	// process substitutions, function bodies and literal "bash -c" or
	// "eval" text.
	Commands []Command
}

// Command is the judgement of one simple command.
type Command struct {
	// Args is the argv as bash would see it after quote removal. A word
	// that is only known at run time (an expansion or substitution) is
	// given as its source text.
	Args []string
	// Decision is this command's own decision.
	Decision permission.Decision
	// Reason explains Decision. Unless the command is allowed, it starts
	// with the command name, so that it reads well as the reason of the
	// whole Verdict.
	Reason string
	// Rule names the check that decided: one of the guard's, or the rule
	// or check the [PathJudge] named for a path the command reaches.
	Rule permission.RuleID
	// Cause is the error behind the decision, when one is: the Cause of
	// the [PathJudge]'s Result for the path that decided (such as the
	// sandbox's *PathError).
	Cause error
	// Layer is the layer that decided: [permission.LayerShell] for the
	// guard's own checks, or the layer the PathJudge named (a Deny rule
	// for a path is [permission.LayerRules]).
	Layer permission.Layer
	// Pos is where the command starts in the script.
	Pos Pos
	// Overridable is true only when the command is fully literal and its
	// Ask is the plain kind (not on the safe list, or a write that the path
	// checker placed inside the roots) that an explicit allow rule for this
	// exact command may lift. It is never true for a Deny.
	Overridable bool
	// LiftedBy, when set, are options of the command that run a program
	// (git fetch --upload-pack): an allow rule lifts the Ask only when it
	// names every one of them (Bash(git fetch --upload-pack:*)); a rule
	// for the command alone (Bash(git fetch:*)) does not. Empty where
	// Overridable says it all, or no rule lifts the Ask.
	LiftedBy []string
	// Runs is, for a process wrapper (nice, nohup, timeout, stdbuf, time,
	// env, command, exec, ...) and for a command whose arguments name one
	// it runs (xargs, find -exec), the argv of the command it runs, after
	// every wrapper: ["rm", "x"] for "nohup nice rm x", ["rm", "{}"] for
	// "find . -exec rm {} +". Nil for a command that runs none. Via names
	// the wrappers, outermost first.
	Runs, Via []string
	// ViaActs says that a wrapper's own options do something besides
	// running the command (time -o FILE writes FILE): an allow rule for
	// the command it runs does not speak for them.
	ViaActs bool
	// Asks are the factors that made the command ask, in the order they
	// were found (Rule names the one that decided), with those of the
	// command a process wrapper runs. Empty unless Decision is Ask. A
	// permission mode that lifts some kinds of Ask (acceptEdits lifts
	// writes inside the roots) lifts the command's Ask only when it lifts
	// every one of them.
	Asks []Finding
	// RunsMore are the argvs of the further commands the command runs
	// when it runs more than one: "find . -exec grep -l x {} + -exec rm
	// {} +" runs grep (its Runs) and rm. Each is, like Runs, the command
	// after every process wrapper; an allow rule for one of them never
	// speaks for the whole command.
	RunsMore [][]string
}

// Finding is one factor that made a command ask.
type Finding struct {
	// Rule names the check, as [Command.Rule] does: [WriteRule] of the
	// command for a write inside the roots, [RuleWriteRedirect] for a
	// redirection's.
	Rule permission.RuleID
	// ByRule says that an explicit allow rule for the command may lift
	// this factor (as [Command.Overridable] says of the whole).
	ByRule bool
	// Plain says, of a write inside the roots, that its path is written
	// out: no expansion (not even one the guard knows, such as $PWD), no
	// glob, brace or tilde, and no ".." after a directory, so the file
	// bash writes is the one the path judge was shown by name.
	Plain bool
}

// Pos is a position in a script. Line and Col count from 1; Offset counts
// bytes from 0. A command found inside literal "bash -c" or "eval" text
// carries the position of that outer command.
type Pos struct {
	Offset, Line, Col int
}

// String returns "line:col".
func (p Pos) String() string {
	if p.Line == 1 && p.Col == 1 {
		return "1:1" // the first command of a script, most often the only one: no string built
	}
	return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}
