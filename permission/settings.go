package permission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
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
	// Toolgate holds the raw "toolgate" object, for the command-line tool.
	Toolgate json.RawMessage
	// Warnings lists unknown keys and other things worth a look.
	Warnings []string
}

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
}

var knownPermissionKeys = []string{"allow", "ask", "deny", "defaultMode", "additionalDirectories", "disableBypassPermissionsMode"}

// ParseSettings parses one settings file's content. path names it in
// errors and reasons, and its folder anchors "/path" rules. Malformed JSON,
// a wrongly typed field, a malformed rule or an unknown mode is an error
// naming the file and the position; unknown keys are warnings.
func ParseSettings(data []byte, path string, scope Scope) (*Settings, error) {
	s := &Settings{Scope: scope, Path: path}
	fail := func(off int64, reason string) error {
		return &Error{Source: s.origin(), Index: -1, Offset: int(off), Input: excerpt(data, off), Reason: reason}
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, jsonError(err, fail)
	}
	if top == nil {
		return nil, fail(0, "settings must be a JSON object")
	}
	for _, k := range sortedKeys(top) {
		if !slices.Contains(knownTopKeys, k) {
			s.Warnings = append(s.Warnings, s.origin()+": unknown key "+strconv.Quote(k))
		}
	}
	s.Toolgate = top["toolgate"]
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
			s.Warnings = append(s.Warnings, s.origin()+": unknown key \"permissions."+k+"\"")
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
			return nil, fail(offsetOf(data, v), "unknown permission mode "+strconv.Quote(s.DefaultMode))
		}
	}
	if v, ok := perms["disableBypassPermissionsMode"]; ok {
		var d string
		if err := json.Unmarshal(v, &d); err != nil || (d != "disable" && d != "") {
			return nil, fail(offsetOf(data, v), `permissions.disableBypassPermissionsMode must be "disable"`)
		}
		s.DisableBypass = d == "disable"
	}
	return s, nil
}

// LoadSettings reads and parses a settings file. A file that does not
// exist gives (nil, nil): a missing settings file is not an error, an
// unreadable one is.
func LoadSettings(path string, scope Scope) (*Settings, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &Error{Source: scope.String() + " " + path, Index: -1, Input: path, Reason: "cannot read: " + err.Error()}
	}
	return ParseSettings(data, path, scope)
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
// anywhere disables bypass, and a bypass mode that is disabled falls back
// to the default mode with a warning. Nil entries are skipped. It returns
// the warnings of every file.
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
	var warnings []string
	modeSet := false
	for _, f := range fs {
		warnings = append(warnings, f.Warnings...)
		dir := ""
		if f.Path != "environment" && f.Path != "" {
			dir = filepath.Dir(f.Path)
		} else {
			dir = base.WorkDir
		}
		for _, l := range []struct {
			rules []string
			d     Decision
		}{{f.Deny, Deny}, {f.Ask, Ask}, {f.Allow, Allow}} {
			for _, r := range l.rules {
				cfg.Rules = append(cfg.Rules, RuleSpec{Rule: r, Decision: l.d, Origin: f.origin(), Dir: dir})
			}
		}
		for _, d := range f.AdditionalDirectories {
			if !slices.Contains(cfg.AdditionalDirectories, d) {
				cfg.AdditionalDirectories = append(cfg.AdditionalDirectories, d)
			}
		}
		if f.DisableBypass {
			cfg.DisableBypass = true
		}
		if f.DefaultMode != "" && !modeSet {
			m, _ := ParseMode(f.DefaultMode) // validated when parsed
			cfg.Mode, modeSet = m, true
		}
	}
	if cfg.DisableBypass && cfg.Mode == ModeBypassPermissions {
		cfg.Mode = ModeDefault
		warnings = append(warnings, "bypassPermissions mode is disabled by disableBypassPermissionsMode; using default mode")
	}
	return cfg, warnings
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

func excerpt(data []byte, off int64) string {
	if off < 0 || off > int64(len(data)) {
		off = 0
	}
	end := min(int(off)+40, len(data))
	return string(data[off:end])
}

func jsonError(err error, fail func(int64, string) error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fail(se.Offset, "invalid JSON: "+se.Error())
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fail(te.Offset, "wrong JSON type: "+te.Error())
	}
	return fail(0, "invalid JSON: "+err.Error())
}
