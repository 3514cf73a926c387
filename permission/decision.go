package permission

import "strconv"

// Decision is the answer for one tool call: Deny, Ask or Allow.
//
// The zero value is Deny, so a Decision that was never set fails closed.
// Decisions are ordered by permissiveness: Deny < Ask < Allow.
type Decision uint8

const (
	// Deny means the call must not run.
	Deny Decision = iota
	// Ask means a person must confirm the call before it runs.
	Ask
	// Allow means the call may run.
	Allow
)

// String returns "deny", "ask" or "allow"; an out-of-range value prints as
// "deny(N)" so that it is never mistaken for a permissive answer.
func (d Decision) String() string {
	switch d {
	case Deny:
		return "deny"
	case Ask:
		return "ask"
	case Allow:
		return "allow"
	}
	return "deny(" + strconv.Itoa(int(d)) + ")"
}

// Valid reports whether d is one of Deny, Ask and Allow.
func (d Decision) Valid() bool { return d <= Allow }

// Stricter returns the less permissive of d and o. An invalid value counts
// as Deny.
func (d Decision) Stricter(o Decision) Decision {
	if !d.Valid() || !o.Valid() {
		return Deny
	}
	if o < d {
		return o
	}
	return d
}

// ParseDecision parses "allow", "ask" or "deny".
func ParseDecision(s string) (Decision, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "ask":
		return Ask, nil
	case "deny":
		return Deny, nil
	}
	return Deny, &Error{Input: s, Reason: "unknown decision (want allow, ask or deny)"}
}
