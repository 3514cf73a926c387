package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/output"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
)

// defaultManagedSettings is where Claude Code reads managed settings.
func defaultManagedSettings() string {
	if goruntime.GOOS == "darwin" {
		return "/Library/Application Support/ClaudeCode/managed-settings.json"
	}
	return "/etc/claude-code/managed-settings.json"
}

// defaultHookTimeout bounds a command hook whose settings name no timeout.
const defaultHookTimeout = 30 * time.Second

// source says where to look for settings.
type source struct {
	// cwd is the event's working directory (or --cwd): where relative
	// paths of a call resolve and its commands run. After "cd src" it is
	// a folder of the project.
	cwd string
	// project is the project directory: CLAUDE_PROJECT_DIR, which Claude
	// Code gives its hooks, else cwd. Settings, roots and trust are the
	// project's.
	project string
	// home is $HOME, or empty when unset.
	home string
	// managed is the managed settings file.
	managed string
	// extra are the --settings files, in command-line scope.
	extra []string
	// getenv reads the AGENT_PERMISSIONS_* variables.
	getenv func(string) string
	// session is the event's session_id, for the hook snapshot; stateDir
	// is where snapshots are kept ("" keeps none).
	session, stateDir string
	// notes are warnings about the source itself.
	notes []string
	// others are the further directories that may be the project (see
	// sources.go): their settings' deny and ask rules apply.
	others []string
	// judgedOnly is set for a host that runs commands where toolgate's
	// confining launcher cannot work (Codex CLI's own sandbox): commands
	// are judged in full, never wrapped, whatever toolgate.confine says.
	judgedOnly bool
	// tryAllow are allow rules taken as the user's own, on top of the
	// settings: the rules a block suggests, tried before it names them.
	tryAllow []string
	// warm, in a warm process, keeps what the next call may reuse
	// (warmcache.go); nil builds everything afresh.
	warm *warmCache
}

// projectDir is the project directory: src.project when set, else cwd.
func (src source) projectDir() string {
	if src.project != "" {
		return src.project
	}
	return src.cwd
}

// projectFrom returns the project directory named by CLAUDE_PROJECT_DIR,
// or "" with a warning when it is unset or unusable (then the event's cwd
// serves).
func projectFrom(getenv func(string) string) (string, string) {
	if getenv == nil {
		return "", ""
	}
	d := getenv("CLAUDE_PROJECT_DIR")
	switch {
	case d == "":
		return "", ""
	case !filepath.IsAbs(d):
		return "", fmt.Sprintf("CLAUDE_PROJECT_DIR %q is not an absolute path; using the event's cwd as the project", d)
	}
	if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
		return "", fmt.Sprintf("CLAUDE_PROJECT_DIR %q is not a directory; using the event's cwd as the project", d)
	}
	return filepath.Clean(d), ""
}

// settingsFiles lists the settings files of src in Claude Code's order of
// discovery, each with its scope (see sources.go).
func (src source) settingsFiles() []fileRef {
	var files []fileRef
	if src.managed != "" {
		files = append(files, fileRef{src.managed, permission.ScopeManaged, false, false})
		for _, d := range managedDropIns(src.managed) {
			files = append(files, fileRef{d, permission.ScopeManaged, false, false})
		}
	}
	if dir := userConfigDir(src.home, src.getenv); dir != "" {
		files = append(files, fileRef{filepath.Join(dir, "settings.json"), permission.ScopeUser, false, false})
	}
	if dir := src.projectDir(); dir != "" {
		files = append(files,
			fileRef{filepath.Join(dir, ".claude", "settings.json"), permission.ScopeProject, false, false},
			fileRef{filepath.Join(dir, ".claude", "settings.local.json"), permission.ScopeLocal, false, false})
		if _, root := ancestorsOf(dir, src.home); root != "" && root != dir {
			// Claude Code keeps local settings at the repository's root
			// when the project is a folder of it.
			files = append(files, fileRef{filepath.Join(root, ".claude", "settings.local.json"), permission.ScopeLocal, false, false})
		}
	}
	files = append(files, candidateSettings(src.others)...)
	for _, f := range src.extra {
		files = append(files, fileRef{f, permission.ScopeCommandLine, true, false})
	}
	return files
}

type fileRef struct {
	path     string
	scope    permission.Scope
	required bool // named on the command line: missing is an error
	narrow   bool // a candidate's: read as untrusted, whatever the trust
}

// options are toolgate's own settings, the "toolgate" key of a settings
// file.
type options struct {
	// Network lets network commands in the shell through to an Ask
	// instead of a Deny (bashguard.Policy.AllowNetwork): true (or "on")
	// opens the network to a confined command, "loopback" only
	// 127.0.0.1 and ::1 in a network namespace of its own, false (or
	// "off") none. Anything but off weakens the confinement: only user,
	// managed and command-line settings may set it.
	Network *networkSetting `json:"network"`
	// PassEnv names further variables a confined command receives from
	// the environment (beside the allow-list of confineEnvNames). Only
	// user, managed and command-line settings may set it.
	PassEnv []string `json:"passEnv"`
	// SafeCommands are further commands auto-allowed with literal
	// arguments (bashguard.Policy.ExtraSafe).
	SafeCommands []string `json:"safeCommands"`
	// Confine runs every Bash command toolgate check allows under
	// toolgate's own launcher, confined by the kernel (see confine.go).
	// Unset: on. A workspace that is not trusted may turn it on, never
	// off.
	Confine *bool `json:"confine"`
	// HookTimeout is the default timeout of a command hook, in seconds.
	HookTimeout float64 `json:"hookTimeout"`
	// Hooks are command hooks in Claude Code's hook settings shape,
	// for the events PreToolUse and PostToolUse.
	Hooks map[string][]hookMatcher `json:"hooks"`
}

// networkSetting is toolgate.network: off, loopback or on.
type networkSetting string

// The values of toolgate.network.
const (
	networkOff      networkSetting = "off"
	networkLoopback networkSetting = "loopback"
	networkOn       networkSetting = "on"
)

// word is the setting as a person would have written it.
func (n networkSetting) word() string {
	switch n {
	case networkOn:
		return "true"
	case networkOff:
		return "false"
	}
	return strconv.Quote(string(n))
}

// UnmarshalJSON reads true, false, "on", "off" or "loopback".
func (n *networkSetting) UnmarshalJSON(b []byte) error {
	var on bool
	if err := json.Unmarshal(b, &on); err == nil {
		*n = map[bool]networkSetting{true: networkOn, false: networkOff}[on]
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("network: want true, false, \"on\", \"off\" or \"loopback\"")
	}
	switch v := networkSetting(s); v {
	case networkOff, networkLoopback, networkOn:
		*n = v
		return nil
	}
	return fmt.Errorf("network: %q is not \"on\", \"off\" or \"loopback\"", s)
}

type hookMatcher struct {
	Matcher string     `json:"matcher"`
	Hooks   []hookSpec `json:"hooks"`
}

type hookSpec struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout"`
}

// policy is everything loaded from the settings for one project.
type policy struct {
	src      source
	files    []*permission.Settings
	cfg      permission.Config
	warnings []string
	network  bool
	// kernelNet is the network a confined command gets, from user,
	// managed or command-line settings only: a workspace's
	// toolgate.network opens the shell guard, never the kernel.
	kernelNet networkSetting
	// passEnv are further variables a confined command receives.
	passEnv []string
	// confine wraps allowed Bash commands in the confining launcher.
	confine bool
	safe    []string
	hooks   []hooks.Command
	// roots are the sandbox roots; skipped are additional directories
	// that do not exist or may not be roots (left out, which only
	// narrows).
	roots, skipped []string
	// trusted reports that the person trusted the workspace (see
	// workspaceTrusted); project and local settings may then widen.
	trusted bool
	// refused are rules that can never match in a deny or ask list: the
	// check denies while there are any (see neverMatches).
	refused []string
}

// defaultsOrigin names toolgate's built-in defaults in reasons.
const defaultsOrigin = "toolgate defaults"

// baseConfig is the permission configuration before any settings file:
// never more permissive than Claude Code's own defaults.
//
//	kind         default  why
//	read         allow    Claude Code reads inside the project without asking; the sandbox confines reads to the roots and asks for secrets
//	edit         ask      Claude Code asks before edits (acceptEdits allows them inside the roots)
//	exec         ask      unknown commands ask; the shell guard allows its read-only safe list and denies its hard-deny list and network commands
//	network      ask      WebFetch and WebSearch ask without a domain rule
//	subagent     allow    Task and Agent run without asking in Claude Code; every call a subagent makes comes through this hook again
//	interaction  ask
//	other        ask      MCP tools and anything else ask, except the tools that touch only Claude Code's own session state (TodoWrite, the Task* and Cron* tools, ToolSearch, ExitWorktree, …: tool.ClaudeCodeSessionTools; their inputs that reach past the session ask), which Claude Code never asks about (built-in allow rules)
func baseConfig(cwd, home string) permission.Config {
	return permission.Config{
		Default: permission.Ask,
		DefaultFor: map[permission.Kind]permission.Decision{
			permission.KindRead:        permission.Allow,
			permission.KindEdit:        permission.Ask,
			permission.KindExec:        permission.Ask,
			permission.KindNetwork:     permission.Ask,
			permission.KindSubagent:    permission.Allow,
			permission.KindInteraction: permission.Ask,
			permission.KindOther:       permission.Ask,
		},
		Rules:   sessionToolRules(),
		WorkDir: cwd,
		Home:    home,
	}
}

// sessionToolRules allow the tools that touch only Claude Code's own
// session state, as Claude Code does without asking.
func sessionToolRules() []permission.RuleSpec {
	var rules []permission.RuleSpec
	for _, name := range tool.ClaudeCodeSessionTools() {
		rules = append(rules, permission.RuleSpec{Rule: name, Decision: permission.Allow, Origin: defaultsOrigin})
	}
	return rules
}

// loadPolicy reads every settings file of src and merges them. Any file
// that cannot be read or parsed is an error: the caller denies.
//
// What the workspace ships (project and local settings) only narrows until
// the person trusts the workspace as Claude Code records it: see
// permission.Merge for rules, modes and directories, loadOptions for
// toolgate's own options and hooks. Even trusted, no settings file makes a
// root of /, the home directory as a whole, a system location or a
// credential folder.
func loadPolicy(src source) (*policy, error) {
	if src.cwd == "" || !filepath.IsAbs(src.cwd) {
		return nil, fmt.Errorf("the working directory %q is not an absolute path", src.cwd)
	}
	project := src.projectDir()
	if isFilesystemRoot(project) {
		// As a root, / would make every path part of the workspace.
		return nil, fmt.Errorf("the working directory %q is the file system's root: every path would be inside the workspace; start in a project directory", project)
	}
	p := &policy{src: src, warnings: slices.Clone(src.notes)}
	record, load := readTrustRecord, permission.LoadSettings
	if src.warm != nil {
		record, load = src.warm.trustRecord, src.warm.loadSettings
	}
	p.trusted, _ = workspaceTrustedBy(claudeJSONPath(src.home, src.getenv), project, record)
	for _, f := range src.settingsFiles() {
		if f.required {
			if _, err := os.Stat(f.path); errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("settings file %s does not exist", f.path)
			}
		}
		s, err := load(f.path, f.scope)
		if err != nil {
			return nil, fmt.Errorf("cannot use settings: %w", err)
		}
		if s != nil {
			s.Trusted = p.trusted && !f.narrow
			p.files = append(p.files, s)
		}
	}
	if src.getenv != nil {
		s, err := permission.FromEnv(src.getenv)
		if err != nil {
			return nil, fmt.Errorf("cannot use settings: %w", err)
		}
		if s != nil {
			p.files = append(p.files, s)
		}
	}
	if len(src.tryAllow) > 0 {
		p.files = append(p.files, &permission.Settings{Scope: permission.ScopeUser, Path: "(rules toolgate suggests)", Allow: src.tryAllow})
	}
	var merged []string
	p.cfg, merged = permission.Merge(baseConfig(project, src.home), p.files...)
	p.warnings = append(p.warnings, merged...)
	if err := p.loadOptions(); err != nil {
		return nil, err
	}
	for _, r := range p.cfg.Rules {
		why := neverMatches(r.Rule)
		if why == "" {
			continue
		}
		msg := fmt.Sprintf("%s rule %q (%s) can never match: %s", r.Decision, r.Rule, r.Origin, why)
		if r.Decision == permission.Allow {
			p.warnings = append(p.warnings, msg)
		} else {
			p.refused = append(p.refused, msg)
		}
	}
	p.roots = []string{project}
	for _, d := range p.cfg.AdditionalDirectories {
		switch {
		case d == "~" || strings.HasPrefix(d, "~/"):
			if src.home == "" {
				p.skipped = append(p.skipped, d)
				continue
			}
			d = filepath.Join(src.home, strings.TrimPrefix(d, "~"))
		case !filepath.IsAbs(d):
			d = filepath.Join(project, d)
		}
		d = filepath.Clean(d)
		fi, err := os.Stat(d)
		if err != nil || !fi.IsDir() {
			p.skipped = append(p.skipped, d) // missing or not a directory
			continue
		}
		why := forbiddenRoot(d, src.home)
		if why != "" {
			p.skipped = append(p.skipped, d)
			p.warnings = append(p.warnings, fmt.Sprintf("additional directory %s is not a root: %s", d, why))
			continue
		}
		p.roots = append(p.roots, d)
	}
	return p, nil
}

// loadOptions reads the "toolgate" key of every file, highest precedence
// first: the first file that sets network decides it; safe commands and
// hooks add up. Unknown keys are errors, so that a misspelt hook is never
// silently dropped.
//
// From the workspace (project and local settings) before it is trusted,
// only what narrows counts: "network": false, and hook timeouts; safe
// commands, "network": true and hooks are set aside with a warning (a
// hook runs a command of the repository's choosing on every call).
//
// "disableAllHooks" turns hooks off as Claude Code documents it, within
// what the workspace may narrow: in managed settings every hook; in user
// or command-line settings every hook but the managed ones; in project or
// local settings the workspace's own hooks only (the workspace never
// switches off the person's hooks). "allowManagedHooksOnly" in managed
// settings keeps only the managed hooks.
func (p *policy) loadOptions() error {
	files := append([]*permission.Settings(nil), p.files...)
	// Highest precedence first; files of one scope keep their order.
	for i := 1; i < len(files); i++ {
		for j := i; j > 0 && files[j].Scope > files[j-1].Scope; j-- {
			files[j], files[j-1] = files[j-1], files[j]
		}
	}
	off := map[permission.Scope]bool{} // scopes whose hooks are off
	for _, f := range files {
		switch {
		case f.Scope == permission.ScopeManaged && f.DisableAllHooks:
			for _, s := range []permission.Scope{permission.ScopeManaged, permission.ScopeCommandLine, permission.ScopeLocal, permission.ScopeProject, permission.ScopeUser} {
				off[s] = true
			}
		case f.Scope == permission.ScopeManaged && f.AllowManagedHooksOnly,
			(f.Scope == permission.ScopeUser || f.Scope == permission.ScopeCommandLine) && f.DisableAllHooks:
			for _, s := range []permission.Scope{permission.ScopeCommandLine, permission.ScopeLocal, permission.ScopeProject, permission.ScopeUser} {
				off[s] = true
			}
		case f.Workspace() && f.DisableAllHooks:
			off[permission.ScopeProject], off[permission.ScopeLocal] = true, true
		}
	}
	networkSet, confineSet, kernelNetSet := false, false, false
	p.kernelNet = networkOff
	p.confine = !p.src.judgedOnly
	untrusted := "this workspace has not been trusted"
	project := p.src.projectDir()
	for _, f := range files {
		if len(f.Toolgate) == 0 || string(f.Toolgate) == "null" {
			continue
		}
		var o options
		dec := json.NewDecoder(bytes.NewReader(f.Toolgate))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil {
			return fmt.Errorf("cannot use settings: %s %s: \"toolgate\": %v", f.Scope, f.Path, err)
		}
		// Settings that weaken the confinement are read only from scopes
		// a repository cannot write (as git reads safe.directory only
		// from protected configuration).
		weaken := fmt.Sprintf("settings that weaken the confinement come only from user, managed or command-line scope, not from the workspace's %s", f.Scope)
		if o.Network != nil && !networkSet {
			// The shell guard's network (Ask instead of Deny) follows the
			// rule of every right; the kernel's network only the scopes a
			// repository cannot write.
			switch {
			case *o.Network != networkOff && !f.MayWiden():
				p.warnings = append(p.warnings, fmt.Sprintf("ignoring toolgate.network %s from %s %s: %s", o.Network.word(), f.Scope, f.Path, untrusted))
			default:
				p.network, networkSet = *o.Network != networkOff, true
				if !f.Workspace() || *o.Network == networkOff {
					p.kernelNet, kernelNetSet = *o.Network, true
				}
			}
		}
		if o.Network != nil && !kernelNetSet && !f.Workspace() {
			p.kernelNet, kernelNetSet = *o.Network, true
		}
		if o.Confine != nil && !confineSet {
			if !*o.Confine && f.Workspace() {
				p.warnings = append(p.warnings, fmt.Sprintf("ignoring toolgate.confine false from %s %s: %s", f.Scope, f.Path, weaken))
			} else {
				p.confine, confineSet = *o.Confine && !p.src.judgedOnly, true
			}
		}
		if len(o.PassEnv) > 0 {
			if f.Workspace() {
				p.warnings = append(p.warnings, fmt.Sprintf("ignoring toolgate.passEnv from %s %s: %s", f.Scope, f.Path, weaken))
			} else {
				for _, name := range o.PassEnv {
					if name == "" || strings.ContainsAny(name, "=\x00") {
						return fmt.Errorf("cannot use settings: %s %s: toolgate.passEnv: %q is not a variable name", f.Scope, f.Path, name)
					}
				}
				p.passEnv = append(p.passEnv, o.PassEnv...)
			}
		}
		if len(o.SafeCommands) > 0 && !f.MayWiden() {
			p.warnings = append(p.warnings, fmt.Sprintf("ignoring toolgate.safeCommands from %s %s: %s", f.Scope, f.Path, untrusted))
		} else {
			p.safe = append(p.safe, o.SafeCommands...)
		}
		if o.HookTimeout < 0 {
			return fmt.Errorf("cannot use settings: %s %s: toolgate.hookTimeout must not be negative", f.Scope, f.Path)
		}
		if len(o.Hooks) > 0 {
			switch {
			case !f.MayWiden():
				p.warnings = append(p.warnings, fmt.Sprintf("ignoring toolgate.hooks from %s %s: %s", f.Scope, f.Path, untrusted))
				continue
			case off[f.Scope]:
				p.warnings = append(p.warnings, fmt.Sprintf("toolgate.hooks from %s %s are off (disableAllHooks or allowManagedHooksOnly)", f.Scope, f.Path))
				continue
			}
		}
		events := make([]string, 0, len(o.Hooks))
		for event := range o.Hooks {
			events = append(events, event)
		}
		sort.Strings(events)
		for _, event := range events {
			matchers := o.Hooks[event]
			var ev hooks.Event
			switch event {
			case "PreToolUse":
				ev = hooks.EventPreToolUse
			case "PostToolUse":
				ev = hooks.EventPostToolUse
			default:
				return fmt.Errorf("cannot use settings: %s %s: toolgate.hooks: event %q is not PreToolUse or PostToolUse", f.Scope, f.Path, event)
			}
			for i, m := range matchers {
				for j, h := range m.Hooks {
					if h.Type != "command" || strings.TrimSpace(h.Command) == "" || h.Timeout < 0 {
						return fmt.Errorf("cannot use settings: %s %s: toolgate.hooks.%s: each hook needs \"type\": \"command\", a command and a timeout that is not negative", f.Scope, f.Path, event)
					}
					timeout := time.Duration(h.Timeout * float64(time.Second))
					if timeout == 0 {
						timeout = time.Duration(o.HookTimeout * float64(time.Second))
					}
					if timeout == 0 {
						timeout = defaultHookTimeout
					}
					p.hooks = append(p.hooks, hooks.Command{
						Name:    fmt.Sprintf("%s toolgate.hooks.%s[%d].hooks[%d]", f.Scope, event, i, j),
						Shell:   h.Command,
						Matcher: m.Matcher,
						Events:  []hooks.Event{ev},
						Dir:     project,
						Env:     hookEnv(project),
						Timeout: timeout,
					})
				}
			}
		}
	}
	if p.src.session != "" {
		hs, _, warn, err := sessionHooks(p.src.stateDir, p.src.session, project, hookEnv(project), p.hooks)
		if err != nil {
			return err
		}
		if warn != "" {
			p.warnings = append(p.warnings, warn)
		}
		p.hooks = hs
	}
	return nil
}

// hookEnv is a command hook's environment: toolgate's, with the project
// directory as Claude Code gives it.
func hookEnv(project string) []string {
	return append(os.Environ(), "CLAUDE_PROJECT_DIR="+project)
}

// pipeline builds the Pipeline for calls of the named tool, and its hook
// set (to be closed by the caller).
//
// In auto mode the allow rules Claude Code sets aside on entering auto
// mode are set aside here too (permission.AutoModeConfig), so that their
// calls reach Claude Code's classifier as they would without toolgate.
func (p *policy) pipeline(tool string, mode permission.Mode) (*runtime.Pipeline, *hooks.Set, error) {
	reg, err := p.src.warm.registryFor(tool)
	if err != nil {
		return nil, nil, err
	}
	cfg := p.cfg
	if mode == permission.ModeAuto {
		var dropped []string
		cfg, dropped = permission.AutoModeConfig(cfg)
		for _, d := range dropped {
			p.warnings = append(p.warnings, "auto mode sets aside the broad allow rule "+d+", as Claude Code does")
		}
	}
	if len(p.refused) > 0 {
		return nil, nil, fmt.Errorf("cannot use the rules: %s", strings.Join(p.refused, "; "))
	}
	pol := bashguard.DefaultPolicy()
	pol.Home = p.src.home
	if p.src.getenv != nil {
		// The command runs with Claude Code's environment, which the hook
		// inherits: unconfined as it is, and under toolgate exec, which
		// passes it on without its secrets (CDPATH stays), so bash finds
		// "cd DIR" through the same CDPATH either way.
		pol.CDPath = p.src.getenv("CDPATH")
		pol.GoVersion, pol.GoModCache = goFactsRead(p.src.getenv, p.src.home, p.src.warm.readFile)
		pol.GoEnv = goDirs(p.src.getenv, p.src.home)
		// The values of the variables that hold no secret, which bash
		// takes from that environment as they are ($PATH, $SHELL):
		// "echo $PATH" is then judged as what it prints.
		pol.Environ = map[string]string{}
		for _, name := range bashguard.EnvironNames() {
			if v := p.src.getenv(name); v != "" {
				pol.Environ[name] = v
			}
		}
	}
	pol.AllowNetwork, pol.ExtraSafe = p.network, p.safe
	// What check allows under confine runs confined, or is asked when the
	// kernel cannot confine it (confineCall): the guard may leave to the
	// kernel what it bounds.
	pol.Confined = p.confine
	// The loopback mode gives a confined command a network namespace of
	// its own with only its loopback: curl to localhost there reaches
	// what the same command started, never the host's services.
	pol.Loopback = p.kernelNet == networkLoopback
	set := hooks.NewSet()
	for _, c := range p.hooks {
		h, err := c.Hook()
		if err != nil {
			set.Close()
			return nil, nil, fmt.Errorf("cannot use hook %q: %w", c.Name, err)
		}
		set.Add(h)
	}
	// The library's front door: the same roots (with its refusal of
	// system and credential folders), sandbox and guard a host embedding
	// toolgate gets.
	sc := p.sandboxConfig()
	var newSandbox func(sandbox.Config) (*sandbox.Sandbox, error)
	var newChecker func(permission.Config) (*permission.Checker, error)
	var newGuard func(bashguard.Policy) *bashguard.Guard
	if p.src.warm != nil {
		newSandbox, newChecker, newGuard = p.src.warm.newSandbox, p.src.warm.newChecker, p.src.warm.newGuard
	}
	pl, err := runtime.Open(runtime.Workspace{
		Dir: p.src.projectDir(), Cwd: p.src.cwd, Home: p.src.home, Rules: cfg,
		Protected: sc.Protected, Secret: sc.Secret, Shell: &pol, Tools: reg, Hooks: set,
		// The workspace's facts are found once and revalidated by the
		// next call's process, whichever session it is of.
		FactsFile: factsPath(p.src.stateDir, p.src.projectDir(), p.src.cwd, p.src.home),
		// A session's first call writes its snapshot there: the next
		// call keeps the workspace's facts all the same.
		StateDirs: snapshotDirs(p.src.stateDir),
		// A warm process keeps the sandbox, the compiled rules and the
		// guard between calls.
		NewSandbox: newSandbox, NewChecker: newChecker, NewGuard: newGuard,
		// Claude Code shapes outputs itself: hand them back whole.
		Output:    output.Shaper{MaxChars: int(^uint(0) >> 1)},
		AgentName: "claude-code",
	})
	if err != nil {
		set.Close()
		var pe *permission.Error
		if errors.As(err, &pe) {
			return nil, nil, fmt.Errorf("cannot use the rules: %w", pe)
		}
		var se *sandbox.PathError
		if errors.As(err, &se) {
			err = se
		}
		return nil, nil, fmt.Errorf("cannot confine paths to %s: %w", strings.Join(p.roots, ", "), err)
	}
	return pl, set, nil
}

// isFilesystemRoot reports whether dir is /, written so or through links.
func isFilesystemRoot(dir string) bool {
	if filepath.Clean(dir) == "/" {
		return true
	}
	real, err := filepath.EvalSymlinks(dir)
	return err == nil && real == "/"
}
