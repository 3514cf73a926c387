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
	"strings"
	"time"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
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
	// cwd is the project directory: the event's cwd, or --cwd.
	cwd string
	// home is $HOME, or empty when unset.
	home string
	// managed is the managed settings file.
	managed string
	// extra are the --settings files, in command-line scope.
	extra []string
	// getenv reads the AGENT_PERMISSIONS_* variables.
	getenv func(string) string
}

// settingsFiles lists the settings files of src in Claude Code's order of
// discovery, each with its scope.
func (src source) settingsFiles() []fileRef {
	var files []fileRef
	if src.managed != "" {
		files = append(files, fileRef{src.managed, permission.ScopeManaged, false})
	}
	if src.home != "" {
		files = append(files, fileRef{filepath.Join(src.home, ".claude", "settings.json"), permission.ScopeUser, false})
	}
	if src.cwd != "" {
		files = append(files,
			fileRef{filepath.Join(src.cwd, ".claude", "settings.json"), permission.ScopeProject, false},
			fileRef{filepath.Join(src.cwd, ".claude", "settings.local.json"), permission.ScopeLocal, false})
	}
	for _, f := range src.extra {
		files = append(files, fileRef{f, permission.ScopeCommandLine, true})
	}
	return files
}

type fileRef struct {
	path     string
	scope    permission.Scope
	required bool // named on the command line: missing is an error
}

// options are toolgate's own settings, the "toolgate" key of a settings
// file.
type options struct {
	// Network lets network commands in the shell through to an Ask
	// instead of a Deny (bashguard.Policy.AllowNetwork).
	Network *bool `json:"network"`
	// SafeCommands are further commands auto-allowed with literal
	// arguments (bashguard.Policy.ExtraSafe).
	SafeCommands []string `json:"safeCommands"`
	// HookTimeout is the default timeout of a command hook, in seconds.
	HookTimeout float64 `json:"hookTimeout"`
	// Hooks are command hooks in Claude Code's hook settings shape,
	// for the events PreToolUse and PostToolUse.
	Hooks map[string][]hookMatcher `json:"hooks"`
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
	safe     []string
	hooks    []hooks.Command
	// roots are the sandbox roots; skipped are additional directories
	// that do not exist (left out, which only narrows).
	roots, skipped []string
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
//	other        ask      MCP tools and anything else ask, except the tools that touch only Claude Code's own session state (TodoWrite, the Task* and Cron* tools, ToolSearch, EnterWorktree, …: runtime.ClaudeCodeSessionTools), which Claude Code never asks about (built-in allow rules)
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
	for _, name := range runtime.ClaudeCodeSessionTools() {
		rules = append(rules, permission.RuleSpec{Rule: name, Decision: permission.Allow, Origin: defaultsOrigin})
	}
	return rules
}

// loadPolicy reads every settings file of src and merges them. Any file
// that cannot be read or parsed is an error: the caller denies.
func loadPolicy(src source) (*policy, error) {
	if src.cwd == "" || !filepath.IsAbs(src.cwd) {
		return nil, fmt.Errorf("the working directory %q is not an absolute path", src.cwd)
	}
	if isFilesystemRoot(src.cwd) {
		// As a root, / would make every path part of the workspace.
		return nil, fmt.Errorf("the working directory %q is the file system's root: every path would be inside the workspace; start in a project directory", src.cwd)
	}
	p := &policy{src: src}
	for _, f := range src.settingsFiles() {
		if f.required {
			if _, err := os.Stat(f.path); errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("settings file %s does not exist", f.path)
			}
		}
		s, err := permission.LoadSettings(f.path, f.scope)
		if err != nil {
			return nil, fmt.Errorf("cannot use settings: %w", err)
		}
		if s != nil {
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
	p.cfg, p.warnings = permission.Merge(baseConfig(src.cwd, src.home), p.files...)
	if err := p.loadOptions(); err != nil {
		return nil, err
	}
	p.roots = []string{src.cwd}
	for _, d := range p.cfg.AdditionalDirectories {
		switch {
		case d == "~" || strings.HasPrefix(d, "~/"):
			if src.home == "" {
				p.skipped = append(p.skipped, d)
				continue
			}
			d = filepath.Join(src.home, strings.TrimPrefix(d, "~"))
		case !filepath.IsAbs(d):
			d = filepath.Join(src.cwd, d)
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() || isFilesystemRoot(d) {
			p.skipped = append(p.skipped, d) // missing, not a directory, or / (which would admit every path)
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
func (p *policy) loadOptions() error {
	files := append([]*permission.Settings(nil), p.files...)
	// Highest precedence first; files of one scope keep their order.
	for i := 1; i < len(files); i++ {
		for j := i; j > 0 && files[j].Scope > files[j-1].Scope; j-- {
			files[j], files[j-1] = files[j-1], files[j]
		}
	}
	networkSet := false
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
		if o.Network != nil && !networkSet {
			p.network, networkSet = *o.Network, true
		}
		p.safe = append(p.safe, o.SafeCommands...)
		if o.HookTimeout < 0 {
			return fmt.Errorf("cannot use settings: %s %s: toolgate.hookTimeout must not be negative", f.Scope, f.Path)
		}
		for event, matchers := range o.Hooks {
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
						Dir:     p.src.cwd,
						Env:     append(os.Environ(), "CLAUDE_PROJECT_DIR="+p.src.cwd),
						Timeout: timeout,
					})
				}
			}
		}
	}
	return nil
}

// pipeline builds the Pipeline for calls of the named tool, and its hook
// set (to be closed by the caller).
func (p *policy) pipeline(tool string) (*runtime.Pipeline, *hooks.Set, error) {
	reg, err := registryFor(tool)
	if err != nil {
		return nil, nil, err
	}
	checker, err := permission.New(p.cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("cannot use the rules: %w", err)
	}
	sb, err := sandbox.New(sandbox.Config{Roots: p.roots, WorkDir: p.src.cwd})
	if err != nil {
		return nil, nil, fmt.Errorf("cannot confine paths to %s: %w", strings.Join(p.roots, ", "), err)
	}
	pol := bashguard.DefaultPolicy()
	pol.Home = p.src.home
	pol.AllowNetwork, pol.ExtraSafe = p.network, p.safe
	set := hooks.NewSet()
	for _, c := range p.hooks {
		h, err := c.Hook()
		if err != nil {
			set.Close()
			return nil, nil, fmt.Errorf("cannot use hook %q: %w", c.Name, err)
		}
		set.Add(h)
	}
	pl, err := runtime.New(runtime.Config{
		Tools: reg, Checker: checker, Hooks: set, Sandbox: sb, Guard: bashguard.New(pol),
		// Claude Code shapes outputs itself: hand them back whole.
		Output:    runtime.Output{MaxChars: int(^uint(0) >> 1)},
		AgentName: "claude-code",
	})
	if err != nil {
		set.Close()
		return nil, nil, err
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
