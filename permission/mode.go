package permission

// Mode is a permission mode, as in Claude Code. It changes what happens to
// an answer after the rules and every other source have been combined; it
// never turns a Deny into anything else.
type Mode uint8

const (
	// ModeDefault applies the rules as they are.
	ModeDefault Mode = iota
	// ModeAcceptEdits allows edit-kind calls that would otherwise Ask when
	// every path they touch was judged inside the allowed roots; an edit
	// that names no path still asks. For a shell command, the content
	// stage lifts the guard's Ask for the writes inside the roots that
	// Claude Code runs unasked in this mode (its filesystem commands and
	// output redirections), and nothing else.
	ModeAcceptEdits
	// ModePlan denies every call that is not read-only, except talking to
	// the person and starting subagents (which inherit plan mode).
	ModePlan
	// ModeDontAsk turns every Ask into a Deny.
	ModeDontAsk
	// ModeBypassPermissions turns every Ask into an Allow, except the firm
	// Asks of protected paths and a hook's Ask. Every Deny stays.
	ModeBypassPermissions
	// ModeAuto is Claude Code's auto mode, in which a classifier of the
	// host reviews what would ask. Here it allows what acceptEdits allows
	// (edits inside the allowed roots), leaves every other Ask an Ask for
	// the host's classifier or the person, and sets aside the broad allow
	// rules Claude Code drops on entering auto mode (a whole shell tool,
	// a script interpreter with any arguments): their calls ask too.
	ModeAuto
)

var modeNames = [...]string{"default", "acceptEdits", "plan", "dontAsk", "bypassPermissions", "auto"}

// String returns the mode's name as Claude Code spells it.
func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return "unknown"
}

// ParseMode parses a mode name as Claude Code spells it ("default",
// "acceptEdits", "plan", "dontAsk", "bypassPermissions", "auto"). The
// empty string and "manual" (Claude Code's alias of default) are
// ModeDefault. Anything else is an error.
func ParseMode(s string) (Mode, error) {
	if s == "" || s == "manual" {
		return ModeDefault, nil
	}
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return ModeDefault, &Error{Index: -1, Input: s, Reason: "unknown permission mode (want default, acceptEdits, plan, dontAsk, bypassPermissions or auto)"}
}

// permissiveness orders modes from strict to permissive, for callers that
// must refuse to widen (subagents).
var permissiveness = [...]int{ModePlan: 0, ModeDontAsk: 1, ModeDefault: 2, ModeAcceptEdits: 3, ModeAuto: 4, ModeBypassPermissions: 5}

// AtMostAsPermissive reports whether m grants nothing that parent does
// not: plan < dontAsk < default < acceptEdits < auto < bypassPermissions.
func (m Mode) AtMostAsPermissive(parent Mode) bool {
	if int(m) >= len(permissiveness) || int(parent) >= len(permissiveness) {
		return false
	}
	return permissiveness[m] <= permissiveness[parent]
}
