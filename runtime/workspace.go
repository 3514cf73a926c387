package runtime

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/output"
	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/tool"
	"github.com/toolgate/toolgate/sandbox"
)

// Workspace describes one workspace for [Open]: the directory an agent
// works in, named once, and everything else a [Pipeline] needs. Only Dir
// is required; every other field's zero value is a safe default.
type Workspace struct {
	// Dir is the absolute working directory. It is the first root, what
	// relative paths in rules and calls are taken against, the shell
	// guard's working directory and the sessions' cwd.
	Dir string
	// Cwd is the directory relative paths of calls are taken against and
	// the shell guard's working directory when it is not Dir (the agent
	// ran "cd sub"); empty means Dir. It is no root by itself.
	Cwd string
	// Roots are further directories tools may reach beside Dir (Claude
	// Code's additionalDirectories); a relative one is taken against Dir.
	Roots []string
	// Home is the user's home directory, for "~" in rules, paths and
	// shell words, and for the sandbox's protection by identity of the
	// user's configuration (a workspace file that ~/.claude/settings.json
	// links to is judged as that file). Empty means "~" names nothing:
	// such paths are never auto-allowed.
	Home string

	// Rules are the permission rules (layer 2). WorkDir and Home are
	// filled in from Dir and Home; leave them empty. The zero value has no
	// rules and a default of Deny.
	Rules permission.Config
	// Settings are Claude Code settings files (see
	// [permission.LoadSettings]), merged over Rules by [permission.Merge]:
	// their rules, their mode and their additionalDirectories.
	Settings []*permission.Settings

	// Shell is the shell guard's policy (layer 5); nil means
	// [bashguard.DefaultPolicy]. Its home is set from this Workspace; the
	// working directory and the path judge are given to each judgement.
	Shell *bashguard.Policy
	// Protected and Secret are the sandbox's patterns (layer 4); nil means
	// [sandbox.DefaultProtected] and [sandbox.DefaultSecret].
	Protected, Secret []string
	// FactsFile is where the sandbox keeps what it found of the workspace
	// (the protected and secret locations, a walk of the roots) between
	// processes: a host that opens a Pipeline per call, as a hook does,
	// revalidates them instead of walking the roots again (see
	// [sandbox.Config.FactsFile]). Empty keeps them in memory only.
	FactsFile string
	// StateDirs are directories where the host keeps files of its own
	// beside FactsFile, whose new files do not call for a new search of
	// the workspace ([sandbox.Config.StateDirs]).
	StateDirs []string
	// NewSandbox, when set, makes the sandbox from the configuration Open
	// computed (the roots, with Roots and the settings' additional
	// directories that exist, the working directory, the home, the
	// patterns and the files above); nil means [sandbox.New]. A host
	// that opens a Pipeline per call keeps sandboxes between them with
	// it: it must return one built by sandbox.New from an equal
	// configuration and still describing the file system (see
	// [sandbox.Sandbox.Forget]). The Pipeline does not close a sandbox
	// NewSandbox returns: it is the host's.
	NewSandbox func(sandbox.Config) (*sandbox.Sandbox, error)
	// NewChecker, when set, compiles the rules Open computed (Rules with
	// the settings merged, WorkDir and Home filled in and the tools'
	// kinds known); nil means [permission.New]. A host that opens a
	// Pipeline per call keeps the Checker of equal rules with it: it must
	// return one built by permission.New from an equal configuration (a
	// Checker does not change once built), or New's error for it.
	NewChecker func(permission.Config) (*permission.Checker, error)
	// NewGuard, when set, makes the shell guard from the policy Open
	// computed (Shell with its home set); nil means [bashguard.New]. A
	// host that opens a Pipeline per call keeps the Guard of an equal
	// policy with it, and with it the scripts it parsed and the
	// workspace facts it revalidates: it must return one built by
	// bashguard.New from an equal policy, or nil to have Open build one.
	// The Pipeline does not close a guard NewGuard returns: it is the
	// host's.
	NewGuard func(bashguard.Policy) *bashguard.Guard

	// Tools are the tools sessions may call; nil means [tool.ClaudeCodeTools].
	Tools *tool.Registry
	// Hooks are the lifecycle hooks (layer 3); nil means none.
	Hooks *hooks.Set
	// Audit, when set, records every decision: its hook is added to Hooks
	// (last, so that it sees what the other hooks decided).
	Audit *hooks.AuditLog
	// Asker asks a person; nil means Check returns Ask to the caller.
	Asker approval.Asker
	// AskTimeout bounds a question; 0 means approval.DefaultAskTimeout.
	AskTimeout time.Duration
	// ParkTimeout is how long a parked approval waits for a person; 0
	// means AskTimeout when set, else [DefaultParkTimeout] (see
	// [Config.ParkTimeout]).
	ParkTimeout time.Duration
	// MaxParked and MaxParkedPerSession bound the approvals waiting for
	// a person; 0 means the defaults (see [Config.MaxParked]).
	MaxParked, MaxParkedPerSession int
	// Limits are layer 7's limits for every session.
	Limits Limits
	// Output shapes tool outputs in After.
	Output output.Shaper
	// AgentName names the top-level agent in hook events and audit rows;
	// empty means "lead".
	AgentName string
	// Store keeps grants, approvals, cancellations and counters; nil
	// means in memory. Project-scoped grants are keyed by Dir.
	Store store.Store
	// User is the key of user-scoped grants; empty offers none.
	User string
}

// Open wires a [Pipeline] for one workspace: the rules merged with the
// settings, a sandbox over Dir and Roots, the shell guard over that
// sandbox, the hooks and the audit log. Every problem is reported at once,
// joined; nothing is half built.
func Open(w Workspace) (*Pipeline, error) {
	if w.Dir == "" || !filepath.IsAbs(w.Dir) {
		return nil, fmt.Errorf("runtime: Workspace.Dir %q is not an absolute path", w.Dir)
	}
	cfg := w.Rules
	cfg.WorkDir, cfg.Home = w.Dir, w.Home
	cfg, _ = permission.Merge(cfg, w.Settings...)
	tools := w.Tools
	if tools == nil {
		tools = tool.ClaudeCodeTools()
	}
	// A rule's specifier is a command or a path by what the tool it names
	// takes (rulefit.go), unless the host says so itself.
	shell, paths := toolKinds(tools)
	if cfg.ShellTools == nil {
		cfg.ShellTools = shell
	}
	if cfg.PathTools == nil {
		cfg.PathTools = paths
	}
	newChecker := permission.New
	if w.NewChecker != nil {
		newChecker = w.NewChecker
	}
	checker, err := newChecker(cfg)
	if err == nil && checker == nil {
		err = fmt.Errorf("Workspace.NewChecker returned no checker")
	}
	if err != nil {
		return nil, fmt.Errorf("runtime: rules: %w", err)
	}
	roots := append([]string{w.Dir}, w.Roots...)
	for _, d := range cfg.AdditionalDirectories {
		d = expandHome(d, w.Home)
		if strings.HasPrefix(d, "~") {
			continue // no home directory to expand it against: left out
		}
		if !filepath.IsAbs(d) {
			d = filepath.Join(w.Dir, d)
		}
		if filepath.IsAbs(d) && sandbox.RefuseRoot(d, w.Home) != "" {
			// A settings file may not make a root of /, the home
			// directory, a system location or a credential folder:
			// left out, which only narrows (as toolgate check does).
			continue
		}
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue // missing or not a directory: left out, as Claude Code does
		}
		roots = append(roots, d)
	}
	cwd := w.Dir
	if w.Cwd != "" {
		cwd = w.Cwd
	}
	newSandbox := sandbox.New
	if w.NewSandbox != nil {
		newSandbox = w.NewSandbox
	}
	sb, err := newSandbox(sandbox.Config{Roots: roots, WorkDir: cwd, Home: w.Home, Protected: w.Protected, Secret: w.Secret,
		FactsFile: w.FactsFile, StateDirs: w.StateDirs})
	if err == nil && sb == nil {
		err = fmt.Errorf("Workspace.NewSandbox returned no sandbox")
	}
	if err != nil {
		return nil, fmt.Errorf("runtime: roots: %w", err)
	}
	pol := bashguard.DefaultPolicy()
	if w.Shell != nil {
		pol = *w.Shell
	}
	pol.Home = w.Home
	var guard *bashguard.Guard
	if w.NewGuard != nil {
		guard = w.NewGuard(pol)
	}
	ownGuard := guard == nil
	if ownGuard {
		guard = bashguard.New(pol)
	}
	set := w.Hooks
	if w.Audit != nil {
		if set == nil {
			set = hooks.NewSet()
		}
		set.Add(w.Audit.Hook())
	}
	p, err := New(Config{
		Tools: tools, Checker: checker, Hooks: set, Sandbox: sb, Guard: guard,
		Limits: w.Limits, Asker: w.Asker, AskTimeout: w.AskTimeout, ParkTimeout: w.ParkTimeout,
		MaxParked: w.MaxParked, MaxParkedPerSession: w.MaxParkedPerSession, Output: w.Output, AgentName: w.AgentName,
		Store: w.Store, Project: w.Dir, User: w.User,
	})
	if err != nil {
		return nil, err
	}
	p.dir = w.Dir
	if ownGuard {
		p.owned = append(p.owned, p.cfg.Guard)
	}
	if w.NewSandbox == nil {
		p.owned = append(p.owned, sb)
	}
	p.warnings = ruleWarnings(cfg, tools)
	return p, nil
}

// Warnings are what Open found wrong but not fatal in the workspace's
// rules: a rule that names no tool of the registry, or a specifier the
// tool it names has no field for, can never match a call. A host may log
// them, or refuse to start. The slice is the pipeline's: do not change it.
func (p *Pipeline) Warnings() []string { return p.warnings }

// expandHome turns "~" and "~/x" into paths under home; with no home such
// a directory stays as written, and the sandbox refuses it.
func expandHome(d, home string) string {
	if home == "" {
		return d
	}
	if d == "~" {
		return home
	}
	if len(d) > 1 && d[0] == '~' && d[1] == '/' {
		return filepath.Join(home, d[2:])
	}
	return d
}

// Sandbox returns the pipeline's sandbox: the roots and the race-free file
// access a host's file tools should use, so that what a tool opens is what
// the pipeline judged. Open that access with [Pipeline.OpenFS].
func (p *Pipeline) Sandbox() *sandbox.Sandbox { return p.cfg.Sandbox }

// OpenFS opens the race-free file access ([sandbox.FS]) a host's file
// tools should use: confined to the pipeline's sandbox, and reading
// outside its roots exactly what the pipeline lets Read, Grep and Glob
// read there ([sandbox.ReadOutside] with the shell guard's system roots
// and Go module cache, the places the pipeline judges by), so that a read
// the pipeline allowed does not fail in the host. The caller must close
// it.
func (p *Pipeline) OpenFS() (*sandbox.FS, error) {
	return p.cfg.Sandbox.OpenFS(sandbox.ReadOutside(p.reads.System, p.reads.ModCache))
}
