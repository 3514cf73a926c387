package permission

// Kind says what a tool does, so that modes can treat tools by their effect
// rather than by their name. The zero value, KindOther, is the most
// conservative: no mode relaxes it.
type Kind uint8

const (
	// KindOther is a tool whose effect is not declared.
	KindOther Kind = iota
	// KindRead only reads (files, search results, metadata).
	KindRead
	// KindEdit creates or changes files.
	KindEdit
	// KindExec runs commands.
	KindExec
	// KindNetwork reaches the network.
	KindNetwork
	// KindInteraction talks to the person (ask_user and the like).
	KindInteraction
	// KindSubagent starts a subagent.
	KindSubagent
)

var kindNames = [...]string{"other", "read", "edit", "exec", "network", "interaction", "subagent"}

// String returns the kind's lower-case name.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "other"
}

// ParseKind parses a kind's name as printed by [Kind.String].
func ParseKind(s string) (Kind, error) {
	for i, n := range kindNames {
		if n == s {
			return Kind(i), nil
		}
	}
	return KindOther, &Error{Input: s, Reason: "unknown tool kind"}
}
