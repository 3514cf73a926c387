package permission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/internal/safefile"
)

// Scope is where a settings file sits in Claude Code's precedence, from
// lowest to highest: user, project, local project, command line, managed.
type Scope uint8

const (
	// ScopeUser is ~/.claude/settings.json.
	ScopeUser Scope = iota
	// ScopeProject is <project>/.claude/settings.json.
	ScopeProject
	// ScopeLocal is <project>/.claude/settings.local.json.
	ScopeLocal
	// ScopeCommandLine is a file named on the command line, or the
	// AGENT_PERMISSIONS_* environment variables.
	ScopeCommandLine
	// ScopeManaged is the managed settings file (/etc/claude-code/managed-settings.json).
	ScopeManaged
)

var scopeNames = [...]string{"user settings", "project settings", "local project settings", "command-line settings", "managed settings"}

// String returns the scope's name, such as "project settings".
func (s Scope) String() string {
	if int(s) < len(scopeNames) {
		return scopeNames[s]
	}
	return "unknown settings"
}

// Settings is the permission part of one Claude Code settings file (or of
// the environment), plus toolgate's own options under the "toolgate" key.
type Settings struct {
	// Scope is the file's place in the precedence.
	Scope Scope
	// Path is the file's path, or the environment's name.
	Path string
	// Allow, Ask and Deny are the file's rule lists.
	Allow, Ask, Deny []string
	// DefaultMode is the "defaultMode" value, or empty.
	DefaultMode string
	// AdditionalDirectories are further allowed roots.
	AdditionalDirectories []string
	// DisableBypass reports "disableBypassPermissionsMode": "disable".
	DisableBypass bool
	// DisableAuto reports "disableAutoMode": "disable".
	DisableAuto bool
	// DisableAllHooks reports "disableAllHooks": true. Which hooks it
	// turns off depends on the file's scope; see SECURITY.md.
	DisableAllHooks bool
	// AllowManagedHooksOnly and AllowManagedPermissionRulesOnly report
	// the managed-only keys of those names. They count only in managed
	// settings: elsewhere they are ignored with a warning.
	AllowManagedHooksOnly, AllowManagedPermissionRulesOnly bool
	// Trusted reports that the person trusted the workspace this file
	// belongs to, as Claude Code records it. It matters for project and
	// local scope only: without it, [Merge] keeps only what narrows
	// (deny and ask rules, a stricter mode) from those files. The loader
	// sets it; ParseSettings and LoadSettings leave it false.
	Trusted bool
	// Toolgate holds the raw "toolgate" object, for the command-line tool.
	Toolgate json.RawMessage
	// Warnings lists unknown keys and other things worth a look.
	Warnings []string
}

// Workspace reports whether the file comes from the workspace (project or
// local scope): what a cloned repository can ship.
func (s *Settings) Workspace() bool { return s.Scope == ScopeProject || s.Scope == ScopeLocal }

// MayWiden reports whether the file may grant rights: every scope but the
// workspace's, and the workspace's once it is trusted.
func (s *Settings) MayWiden() bool { return !s.Workspace() || s.Trusted }

// origin names the file for reasons and errors.
func (s *Settings) origin() string { return s.Scope.String() + " " + s.Path }

// Keys Claude Code's settings files may hold besides "permissions"; other
// top-level keys come back as warnings.
var knownTopKeys = []string{
	"$schema", "apiKeyHelper", "awsAuthRefresh", "awsCredentialExport", "cleanupPeriodDays",
	"companyAnnouncements", "disableAllHooks", "enableAllProjectMcpServers", "enabledMcpjsonServers",
	"disabledMcpjsonServers", "env", "forceLoginMethod", "forceLoginOrgUUID", "hooks",
	"includeCoAuthoredBy", "model", "outputStyle", "permissions", "sandbox", "spinnerTipsEnabled",
	"statusLine", "alwaysThinkingEnabled", "toolgate", "otelHeadersHelper", "allowedMcpServers",
	"deniedMcpServers", "feedbackSurveyState", "theme", "enabledPlugins", "extraKnownMarketplaces",
	"allowManagedHooksOnly", "allowManagedPermissionRulesOnly", "allowManagedMcpServersOnly",
	"strictKnownMarketplaces", "autoMode", "language", "plansDirectory", "respectGitignore",
	"disableSkillShellExecution", "attribution",
}

var knownPermissionKeys = []string{"allow", "ask", "deny", "defaultMode", "additionalDirectories",
	"disableBypassPermissionsMode", "disableAutoMode"}

// flagKeys are the top-level true-or-false keys ParseSettings reads.
var flagKeys = [...]string{"disableAllHooks", "allowManagedHooksOnly", "allowManagedPermissionRulesOnly"}

// SchemaKeys returns the keys of a settings file that ParseSettings reads,
// as dotted paths ("permissions.allow", "disableAllHooks"), and
// "toolgate", whose members the command-line tool reads. Each call returns
// a new slice. It is the list a test of what each scope may set is
// generated from.
func SchemaKeys() []string {
	keys := []string{"toolgate"}
	for _, k := range knownPermissionKeys {
		keys = append(keys, "permissions."+k)
	}
	return append(keys, flagKeys[:]...)
}

// toolgateKeys are the members of the "toolgate" object.
var toolgateKeys = []string{"network", "safeCommands", "hookTimeout", "hooks"}

// managedOnlyKeys count only in managed settings, as in Claude Code.
var managedOnlyKeys = []string{"allowManagedHooksOnly", "allowManagedPermissionRulesOnly", "allowManagedMcpServersOnly", "strictKnownMarketplaces"}

// maxSettingsBytes bounds a settings file. Real settings files are a few
// kilobytes.
const maxSettingsBytes = 1 << 20

// maxWarnings bounds the warnings of one file.
const maxWarnings = 20

// ParseSettings parses one settings file's content. path names it in
// errors and reasons, and its folder anchors "/path" rules. Malformed JSON,
// a wrongly typed field, a malformed rule or an unknown mode is an error
// naming the file and the position; so is a key that appears twice in one
// object (the last would win and could erase a deny list) and nesting
// deeper than 64 levels. Errors name the file and the offset and never
// quote the content, which may be a secret behind a link. Unknown keys
// are warnings.
func ParseSettings(data []byte, path string, scope Scope) (*Settings, error) {
	s := &Settings{Scope: scope, Path: path}
	fail := func(off int64, reason string) error {
		return &Error{Source: s.origin(), Index: -1, Offset: int(off), Reason: reason}
	}
	if len(data) > maxSettingsBytes {
		return nil, fail(0, "settings file larger than 1 MiB")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, jsonError(err, fail)
	}
	if top == nil {
		return nil, fail(0, "settings must be a JSON object")
	}
	if off, why := checkKeys(data); off >= 0 {
		return nil, fail(off, why)
	}
	for _, k := range sortedKeys(top) {
		if !slices.Contains(knownTopKeys, k) {
			s.warn("unknown key " + describeKey("", k, true))
		}
	}
	s.Toolgate = top["toolgate"]
	for _, b := range []struct {
		key string
		dst *bool
	}{{flagKeys[0], &s.DisableAllHooks}, {flagKeys[1], &s.AllowManagedHooksOnly},
		{flagKeys[2], &s.AllowManagedPermissionRulesOnly}} {
		v, ok := top[b.key]
		if !ok {
			continue
		}
		if err := json.Unmarshal(v, b.dst); err != nil {
			return nil, fail(offsetOf(data, v), b.key+" must be true or false")
		}
	}
	for _, k := range managedOnlyKeys {
		if _, ok := top[k]; ok && scope != ScopeManaged {
			s.warn(k + " is read from managed settings only; ignored here")
		}
	}
	if scope != ScopeManaged {
		s.AllowManagedHooksOnly, s.AllowManagedPermissionRulesOnly = false, false
	}
	raw, ok := top["permissions"]
	if !ok {
		return s, nil
	}
	var perms map[string]json.RawMessage
	if err := json.Unmarshal(raw, &perms); err != nil {
		return nil, jsonError(err, func(off int64, r string) error { return fail(offsetOf(data, raw)+off, "permissions: "+r) })
	}
	for _, k := range sortedKeys(perms) {
		if !slices.Contains(knownPermissionKeys, k) {
			s.warn("unknown key " + describeKey("permissions", k, true))
		}
	}
	lists := []struct {
		key string
		dst *[]string
	}{{"allow", &s.Allow}, {"ask", &s.Ask}, {"deny", &s.Deny}, {"additionalDirectories", &s.AdditionalDirectories}}
	for _, l := range lists {
		v, ok := perms[l.key]
		if !ok {
			continue
		}
		if err := json.Unmarshal(v, l.dst); err != nil {
			return nil, fail(offsetOf(data, v), "permissions."+l.key+" must be an array of strings")
		}
	}
	for i, list := range [][]string{s.Deny, s.Ask, s.Allow} {
		for j, r := range list {
			if _, err := ParseRule(r); err != nil {
				e := err.(*Error)
				e.Source, e.Index = s.origin()+" permissions."+[]string{"deny", "ask", "allow"}[i], j
				return nil, e
			}
		}
	}
	if v, ok := perms["defaultMode"]; ok {
		if err := json.Unmarshal(v, &s.DefaultMode); err != nil {
			return nil, fail(offsetOf(data, v), "permissions.defaultMode must be a string")
		}
		if _, err := ParseMode(s.DefaultMode); err != nil {
			// A mode of a later Claude Code: ignored, so the next source's
			// mode (or the default mode) applies.
			s.warn("permissions.defaultMode: unknown permission mode " + strconv.Quote(s.DefaultMode) + "; ignored")
			s.DefaultMode = ""
		}
	}
	for _, d := range []struct {
		key string
		dst *bool
	}{{"disableBypassPermissionsMode", &s.DisableBypass}, {"disableAutoMode", &s.DisableAuto}} {
		v, ok := perms[d.key]
		if !ok {
			continue
		}
		var val string
		if err := json.Unmarshal(v, &val); err != nil || (val != "disable" && val != "") {
			return nil, fail(offsetOf(data, v), "permissions."+d.key+` must be "disable"`)
		}
		*d.dst = val == "disable"
	}
	return s, nil
}

// warn records a warning, up to maxWarnings per file.
func (s *Settings) warn(w string) {
	switch n := len(s.Warnings); {
	case n < maxWarnings:
		s.Warnings = append(s.Warnings, s.origin()+": "+w)
	case n == maxWarnings:
		s.Warnings = append(s.Warnings, s.origin()+": further warnings left out")
	}
}

// LoadSettings reads and parses a settings file. A file that does not
// exist gives (nil, nil): a missing settings file is not an error, an
// unreadable one is. Only a regular file is read (links are followed to
// one): a FIFO, a device or a directory is an error, and so is a file
// larger than 1 MiB. The file is opened without blocking and checked on
// the open descriptor, so nothing waits on it.
func LoadSettings(path string, scope Scope) (*Settings, error) {
	data, err := safefile.Read(path, maxSettingsBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Source: scope.String() + " " + path, Index: -1, Offset: -1, Reason: "cannot read: " + readReason(err)}
	}
	return ParseSettings(data, path, scope)
}

// readReason says why a file could not be read without repeating the
// path, which the error's source names.
func readReason(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// Environment variables read by [FromEnv].
const (
	EnvAllow = "AGENT_PERMISSIONS_ALLOW"
	EnvAsk   = "AGENT_PERMISSIONS_ASK"
	EnvDeny  = "AGENT_PERMISSIONS_DENY"
	EnvMode  = "AGENT_PERMISSIONS_MODE"
)

// FromEnv reads the AGENT_PERMISSIONS_ALLOW, _ASK, _DENY (one rule per
// line, or a JSON array of strings) and AGENT_PERMISSIONS_MODE variables
// through getenv (pass os.Getenv; nothing is read implicitly). It returns
// nil when none is set. The result has command-line scope.
func FromEnv(getenv func(string) string) (*Settings, error) {
	s := &Settings{Scope: ScopeCommandLine, Path: "environment"}
	set := false
	for _, v := range []struct {
		name string
		dst  *[]string
	}{{EnvDeny, &s.Deny}, {EnvAsk, &s.Ask}, {EnvAllow, &s.Allow}} {
		val := getenv(v.name)
		if strings.TrimSpace(val) == "" {
			continue
		}
		set = true
		rules, err := envRules(val)
		if err != nil {
			return nil, &Error{Source: v.name, Index: -1, Input: val, Reason: err.Error()}
		}
		for i, r := range rules {
			if _, err := ParseRule(r); err != nil {
				e := err.(*Error)
				e.Source, e.Index = v.name, i
				return nil, e
			}
		}
		*v.dst = rules
	}
	if m := getenv(EnvMode); m != "" {
		set = true
		if _, err := ParseMode(m); err != nil {
			e := err.(*Error)
			e.Source = EnvMode
			return nil, e
		}
		s.DefaultMode = m
	}
	if !set {
		return nil, nil
	}
	return s, nil
}

func envRules(val string) ([]string, error) {
	t := strings.TrimSpace(val)
	if strings.HasPrefix(t, "[") {
		var rules []string
		if err := json.Unmarshal([]byte(t), &rules); err != nil {
			return nil, fmt.Errorf("not a JSON array of strings: %v", err)
		}
		return rules, nil
	}
	var rules []string
	for _, line := range strings.Split(val, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			rules = append(rules, line)
		}
	}
	return rules, nil
}

// Merge folds settings into base in Claude Code's precedence: managed,
// command line, local project, project, user. Rule lists are merged (a
// Deny anywhere wins, since Deny outranks every Allow); the mode is the
// one set by the highest-precedence source; "disableBypassPermissionsMode"
// and "disableAutoMode" anywhere disable those modes, and a disabled mode
// falls back to the default mode with a warning. Nil entries are skipped.
// It returns the warnings of every file.
//
// What the workspace ships only narrows unless the person trusted it
// ([Settings.Trusted]): from project and local scope, Merge keeps deny and
// ask rules and a mode no more permissive than default (plan, dontAsk),
// and sets aside, with a warning, allow rules, additional directories and
// laxer modes. A trusted workspace may also allow, add directories and
// choose acceptEdits; auto and bypassPermissions are never taken from the
// workspace (Claude Code ignores auto there too), and no workspace mode
// more permissive than the one the person's own files (user, command
// line, managed, environment) set is taken. With
// "allowManagedPermissionRulesOnly" in managed settings, only the managed
// files' rules apply, as in Claude Code.
func Merge(base Config, files ...*Settings) (Config, []string) {
	fs := make([]*Settings, 0, len(files))
	for _, f := range files {
		if f != nil {
			fs = append(fs, f)
		}
	}
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Scope > fs[j].Scope })
	cfg := base
	cfg.Rules = slices.Clone(base.Rules)
	cfg.AdditionalDirectories = slices.Clone(base.AdditionalDirectories)
	var warnings []string
	managedRulesOnly := false
	for _, f := range fs {
		if f.Scope == ScopeManaged && f.AllowManagedPermissionRulesOnly {
			managedRulesOnly = true
		}
	}
	// The person's mode: the first one a file the workspace does not
	// ship sets. A workspace may narrow it, never widen it.
	var personMode Mode
	personSet := false
	for _, f := range fs {
		if m, err := ParseMode(f.DefaultMode); f.DefaultMode != "" && err == nil && !f.Workspace() {
			personMode, personSet = m, true
			break
		}
	}
	modeSet := false
	for _, f := range fs {
		warnings = append(warnings, f.Warnings...)
		dir := ""
		if f.Path != "environment" && f.Path != "" {
			dir = filepath.Dir(f.Path)
		} else {
			dir = base.WorkDir
		}
		untrusted := ": this workspace has not been trusted"
		rulesOK := !managedRulesOnly || f.Scope == ScopeManaged
		if !rulesOK && len(f.Deny)+len(f.Ask)+len(f.Allow) > 0 {
			warnings = append(warnings, fmt.Sprintf("ignoring the permission rules of %s: managed settings set allowManagedPermissionRulesOnly", f.origin()))
		}
		for _, l := range []struct {
			key   string
			rules []string
			d     Decision
		}{{"deny", f.Deny, Deny}, {"ask", f.Ask, Ask}, {"allow", f.Allow, Allow}} {
			if !rulesOK {
				break
			}
			if l.d == Allow && !f.MayWiden() && len(l.rules) > 0 {
				warnings = append(warnings, fmt.Sprintf("ignoring %s from %s%s", count(len(l.rules), "permissions.allow entry", "permissions.allow entries"), f.origin(), untrusted))
				continue
			}
			for _, r := range l.rules {
				cfg.Rules = append(cfg.Rules, RuleSpec{Rule: r, Decision: l.d, Origin: f.origin(), Dir: dir})
			}
		}
		if len(f.AdditionalDirectories) > 0 && !f.MayWiden() {
			warnings = append(warnings, fmt.Sprintf("ignoring %s from %s%s", count(len(f.AdditionalDirectories), "permissions.additionalDirectories entry", "permissions.additionalDirectories entries"), f.origin(), untrusted))
		} else {
			for _, d := range f.AdditionalDirectories {
				if !slices.Contains(cfg.AdditionalDirectories, d) {
					cfg.AdditionalDirectories = append(cfg.AdditionalDirectories, d)
				}
			}
		}
		if f.DisableBypass {
			cfg.DisableBypass = true
		}
		if f.DisableAuto {
			cfg.DisableAuto = true
		}
		if f.DefaultMode != "" && !modeSet {
			m, err := ParseMode(f.DefaultMode)
			switch {
			case err != nil:
				// ParseSettings drops unknown modes; one set in Go is
				// ignored too.
			case f.Workspace() && !workspaceMode(m, f.Trusted):
				why := untrusted
				if f.Trusted || m == ModeAuto || m == ModeBypassPermissions {
					why = ": the workspace may not choose a mode more permissive than acceptEdits"
				}
				warnings = append(warnings, fmt.Sprintf("ignoring permissions.defaultMode %q from %s%s", f.DefaultMode, f.origin(), why))
			case f.Workspace() && personSet && !m.AtMostAsPermissive(personMode):
				warnings = append(warnings, fmt.Sprintf("ignoring permissions.defaultMode %q from %s: the workspace may not choose a mode more permissive than the person's (%s)", f.DefaultMode, f.origin(), personMode))
			default:
				cfg.Mode, modeSet = m, true
			}
		}
	}
	if cfg.DisableBypass && cfg.Mode == ModeBypassPermissions {
		cfg.Mode = ModeDefault
		warnings = append(warnings, "bypassPermissions mode is disabled by disableBypassPermissionsMode; using default mode")
	}
	if cfg.DisableAuto && cfg.Mode == ModeAuto {
		cfg.Mode = ModeDefault
		warnings = append(warnings, "auto mode is disabled by disableAutoMode; using default mode")
	}
	return cfg, warnings
}

// workspaceMode reports whether project or local settings may choose m:
// one no more permissive than default, and acceptEdits once trusted.
func workspaceMode(m Mode, trusted bool) bool {
	if m == ModeAcceptEdits {
		return trusted
	}
	return m.AtMostAsPermissive(ModeDefault)
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// offsetOf finds sub's offset within data (sub is a slice of data's bytes
// after json.Unmarshal into RawMessage, which copies, so search for it).
func offsetOf(data, sub []byte) int64 {
	if i := bytes.Index(data, sub); i >= 0 {
		return int64(i)
	}
	return 0
}

// jsonError reports a JSON error by its offset only: encoding/json's
// messages quote characters of the input.
func jsonError(err error, fail func(int64, string) error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fail(se.Offset, "invalid JSON")
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fail(te.Offset, "wrong JSON type: a "+te.Value+" where "+te.Type.String()+" belongs")
	}
	return fail(0, "invalid JSON")
}
