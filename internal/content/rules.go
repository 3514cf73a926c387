package content

import "github.com/toolgate/toolgate/permission"

// The rule IDs of the stage's own checks (package runtime exports them).
// A path's or a command's answer names the sandbox's, the guard's or a
// user's rule instead.
const (
	RuleMissingField    permission.RuleID = "input:missing-field" // a declared field is missing or empty
	RuleFieldCase       permission.RuleID = "input:field-case"    // a key differs from a declared field only in letter case
	RuleFieldType       permission.RuleID = "input:field-type"    // a declared field of the wrong JSON type
	RulePathSpace       permission.RuleID = "input:path-space"    // a path with white space at its start or end
	RulePathNFC         permission.RuleID = "input:path-nfc"      // a path not in Unicode NFC
	RuleURL             permission.RuleID = "input:url"           // not a URL, or one without a host
	RuleURLScheme       permission.RuleID = "input:url-scheme"    // a URL other than http or https
	RuleURLHost         permission.RuleID = "input:url-host"      // a host name that cannot be one
	RuleDomain          permission.RuleID = "input:domain"        // a domain entry that cannot be one
	RuleNetworkInternal permission.RuleID = "network:internal"    // a URL that reaches an internal address
	RuleShellNone       permission.RuleID = "shell:none"          // a shell command with no guard configured
)

// ToolRule is the rule ID of a tool's own rule that names none: "tool:"
// and the tool's name.
func ToolRule(tool string) permission.RuleID { return "tool:" + permission.RuleID(tool) }
