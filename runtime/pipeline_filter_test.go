package runtime

import (
	"testing"

	"github.com/toolgate/toolgate/permission"
)

// TestPipelineSearchFilters: Grep's glob and type select which files the
// search reads; one that could select a secret file is asked, ordinary
// ones keep the search allowed, and the rules' default still decides the
// rest.
func TestPipelineSearchFilters(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow}, nil)
	w.start(t, "s", permission.ModeDefault)
	runCases(t, w, "s", []pcase{
		{"glob .env", "Grep", in("pattern", "TOKEN", "glob", ".env"), permission.Ask, permission.LayerSandbox, "sandbox:secret", `glob ".env" could select a secret file (.env)`},
		{"glob doublestar", "Grep", in("pattern", "TOKEN", "glob", "**/.env*"), permission.Ask, permission.LayerSandbox, "sandbox:secret", "could select a secret file"},
		{"glob braces", "Grep", in("pattern", "TOKEN", "glob", "{.env,*.go}"), permission.Ask, permission.LayerSandbox, "sandbox:secret", "could select a secret file"},
		{"glob beside another", "Grep", in("pattern", "TOKEN", "glob", "*.go .env"), permission.Ask, permission.LayerSandbox, "sandbox:secret", "could select a secret file"},
		{"glob star", "Grep", in("pattern", "TOKEN", "glob", "*", "path", "src"), permission.Ask, permission.LayerSandbox, "sandbox:secret", "could select a secret file"},
		{"type sh", "Grep", in("pattern", "TOKEN", "type", "sh"), permission.Ask, permission.LayerSandbox, "sandbox:secret", `type "sh" selects ".env", which could be a secret file (.env)`},
		{"type unknown", "Grep", in("pattern", "TOKEN", "type", "secrets"), permission.Ask, permission.LayerSandbox, "sandbox:secret", "not a file type ripgrep defines"},
		{"glob go", "Grep", in("pattern", "func", "glob", "*.go"), permission.Allow, permission.LayerRules, "default", "default"},
		{"glob ts braces", "Grep", in("pattern", "func", "glob", "**/*.{ts,tsx}", "path", "src"), permission.Allow, permission.LayerRules, "default", "default"},
		{"glob exclusion", "Grep", in("pattern", "func", "glob", "!.env"), permission.Allow, permission.LayerRules, "default", "default"},
		{"type go", "Grep", in("pattern", "func", "type", "go"), permission.Allow, permission.LayerRules, "default", "default"},
		{"type json", "Grep", in("pattern", "name", "type", "json"), permission.Allow, permission.LayerRules, "default", "default"},
		{"glob with a trimmed space", "Grep", in("pattern", "x", "glob", " .env"), permission.Deny, permission.LayerTraits, "input:path-space", "white space"},
	})
}
