package runtime

import (
	"encoding/json"
	"testing"

	"github.com/toolgate/toolgate/permission"
)

// TestPipelineSpecifierMembers: each tool's rules are held against the
// member the tool really reads (Skill's skill, SlashCommand's command,
// Task's and Agent's subagent_type, WebSearch's allowed_domains), Task and
// Agent answer to each other's rules, blocked_domains never satisfy an
// allow, and domain entries are read as URL hosts are.
func TestPipelineSpecifierMembers(t *testing.T) {
	w := newWorld(t, permission.Config{
		Default: permission.Ask,
		Allow: []string{"Skill(pdf)", "SlashCommand(/deploy:*)", "Task(explorer)", "Agent(reviewer)",
			"WebSearch(domain:go.dev)", "WebSearch(domain:evil.com)"},
		Deny: []string{"Skill(rm-rf)", "Task(danger)", "Agent(wrecker)", "WebSearch(domain:evil.org)", "SlashCommand(/nuke)"},
	}, nil)
	w.start(t, "s1", permission.ModeDefault)
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	const otherAsk = "no rule matched; the default for other tools is ask"
	runCases(t, w, "s1", []pcase{
		{"skill allowed by its skill", "Skill", raw(`{"skill":"pdf"}`), permission.Allow, permission.LayerRules, "Skill(pdf)", "allowed by allow rule Skill(pdf)"},
		{"skill: a name does not stand in for the skill", "Skill", raw(`{"skill":"evil","name":"pdf"}`), permission.Ask, permission.LayerRules, "default", otherAsk},
		{"skill: an agent member does not either", "Skill", raw(`{"skill":"evil","agent":"pdf","subagent_type":"pdf"}`), permission.Ask, permission.LayerRules, "default", otherAsk},
		{"skill: a denied skill", "Skill", raw(`{"skill":"rm-rf"}`), permission.Deny, permission.LayerRules, "Skill(rm-rf)", "denied by deny rule Skill(rm-rf)"},
		{"skill: a denied name beside an allowed skill narrows", "Skill", raw(`{"skill":"pdf","name":"rm-rf"}`), permission.Deny, permission.LayerRules, "Skill(rm-rf)", "denied by deny rule Skill(rm-rf)"},
		{"skill not a string", "Skill", raw(`{"skill":["pdf"]}`), permission.Deny, permission.LayerTraits, "input:field-type", `input field "skill" must be a string`},
		{"slash command by its command", "SlashCommand", raw(`{"command":"/deploy:prod"}`), permission.Allow, permission.LayerRules, "SlashCommand(/deploy:*)", "allowed by allow rule SlashCommand(/deploy:*)"},
		{"slash command: a name does not stand in", "SlashCommand", raw(`{"command":"/nuke-all","name":"/deploy:x"}`), permission.Ask, permission.LayerRules, "default", otherAsk},
		{"slash command denied", "SlashCommand", raw(`{"command":"/nuke"}`), permission.Deny, permission.LayerRules, "SlashCommand(/nuke)", "denied by deny rule SlashCommand(/nuke)"},
		{"deny Task(x) stops Agent(x)", "Agent", raw(`{"subagent_type":"danger","prompt":"p"}`), permission.Deny, permission.LayerRules, "Task(danger)", "denied by deny rule Task(danger)"},
		{"deny Agent(x) stops Task(x)", "Task", raw(`{"subagent_type":"wrecker","prompt":"p"}`), permission.Deny, permission.LayerRules, "Agent(wrecker)", "denied by deny rule Agent(wrecker)"},
		{"allow Task(x) holds for Agent(x)", "Agent", raw(`{"subagent_type":"explorer","prompt":"p"}`), permission.Allow, permission.LayerRules, "Task(explorer)", "allowed by allow rule Task(explorer)"},
		{"allow Agent(x) holds for Task(x)", "Task", raw(`{"subagent_type":"reviewer","prompt":"p"}`), permission.Allow, permission.LayerRules, "Agent(reviewer)", "allowed by allow rule Agent(reviewer)"},
		{"search: blocked_domains never satisfy an allow", "WebSearch", raw(`{"query":"q","blocked_domains":["evil.com"]}`), permission.Ask, permission.LayerRules, "default",
			"no rule matched; the default for network tools is ask"},
		{"search: blocked domain beside an allowed one", "WebSearch", raw(`{"query":"q","allowed_domains":["go.dev"],"blocked_domains":["evil.org"]}`), permission.Allow, permission.LayerRules, "WebSearch(domain:go.dev)", "allowed by allow rule WebSearch(domain:go.dev)"},
		{"search: a leading space", "WebSearch", raw(`{"query":"q","allowed_domains":[" evil.org"]}`), permission.Deny, permission.LayerRules, "WebSearch(domain:evil.org)", "denied by deny rule WebSearch(domain:evil.org)"},
		{"search: upper case", "WebSearch", raw(`{"query":"q","allowed_domains":["EVIL.ORG"]}`), permission.Deny, permission.LayerRules, "WebSearch(domain:evil.org)", "denied by deny rule WebSearch(domain:evil.org)"},
		{"search: trailing dots", "WebSearch", raw(`{"query":"q","allowed_domains":["evil.org.."]}`), permission.Deny, permission.LayerRules, "WebSearch(domain:evil.org)", "denied by deny rule WebSearch(domain:evil.org)"},
		{"search: a whole URL", "WebSearch", raw(`{"query":"q","allowed_domains":["https://evil.org/path?x"]}`), permission.Deny, permission.LayerRules, "WebSearch(domain:evil.org)", "denied by deny rule WebSearch(domain:evil.org)"},
		{"search: a host with a path", "WebSearch", raw(`{"query":"q","allowed_domains":["evil.org/x"]}`), permission.Deny, permission.LayerRules, "WebSearch(domain:evil.org)", "denied by deny rule WebSearch(domain:evil.org)"},
		{"search: a full-width letter", "WebSearch", raw(`{"query":"q","allowed_domains":["ｅvil.org"]}`), permission.Deny, permission.LayerTraits, "input:domain", "is not ASCII"},
		{"search: one string", "WebSearch", raw(`{"query":"q","allowed_domains":"evil.org"}`), permission.Deny, permission.LayerRules, "WebSearch(domain:evil.org)", "denied by deny rule WebSearch(domain:evil.org)"},
		{"search: an allowed domain among denied", "WebSearch", raw(`{"query":"q","allowed_domains":["go.dev","evil.org"]}`), permission.Deny, permission.LayerRules, "WebSearch(domain:evil.org)", "denied by deny rule WebSearch(domain:evil.org)"},
	})
}

// TestPipelineMissingRequiredField: a declared path, pattern or URL field
// that is missing, null or empty is bad input, a Deny in every mode; the
// fields a tool can go without (Glob's and Grep's path) are not.
func TestPipelineMissingRequiredField(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow, Allow: []string{"WebFetch", "Edit"}}, nil)
	raw := func(s string) json.RawMessage { return json.RawMessage(s) }
	cases := []pcase{
		{"NotebookEdit without notebook_path", "NotebookEdit", raw(`{"new_source":"x"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "notebook_path" is missing: NotebookEdit needs it`},
		{"NotebookEdit with a null path", "NotebookEdit", raw(`{"notebook_path":null,"new_source":"x"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "notebook_path" is missing: NotebookEdit needs it`},
		{"Read without file_path", "Read", raw(`{}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "file_path" is missing: Read needs it`},
		{"Read with an empty file_path", "Read", raw(`{"file_path":""}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "file_path" is empty: Read needs it`},
		{"Write without file_path", "Write", raw(`{"content":"x"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "file_path" is missing: Write needs it`},
		{"Edit with a path in another member", "Edit", raw(`{"path":"src/main.go","old_string":"a","new_string":"b"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "file_path" is missing: Edit needs it`},
		{"MultiEdit without file_path", "MultiEdit", raw(`{"edits":[]}`), permission.Deny, permission.LayerTraits, "input:missing-field", `"file_path" is missing: MultiEdit needs it`},
		{"LS without path", "LS", raw(`{}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "path" is missing: LS needs it`},
		{"Glob without pattern", "Glob", raw(`{"path":"src"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "pattern" is missing: Glob needs it`},
		{"WebFetch without url", "WebFetch", raw(`{"prompt":"x"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "url" is missing: WebFetch needs it`},
		{"WebFetch with an empty url", "WebFetch", raw(`{"url":"","prompt":"x"}`), permission.Deny, permission.LayerTraits, "input:missing-field", `input field "url" is empty: WebFetch needs it`},
		// What a tool can go without.
		{"Glob without path", "Glob", raw(`{"pattern":"src/*.go"}`), permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
		{"Grep without path", "Grep", raw(`{"pattern":"x"}`), permission.Allow, permission.LayerRules, "default", "no rule matched; the default for read tools is allow"},
	}
	for _, mode := range []permission.Mode{permission.ModeDefault, permission.ModeAcceptEdits, permission.ModeBypassPermissions, permission.ModeAuto} {
		id := "s-" + mode.String()
		w.start(t, id, mode)
		runCases(t, w, id, cases)
	}
}
