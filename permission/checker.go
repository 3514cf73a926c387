package permission

import (
	"errors"
	"path"
)

// Config configures a [Checker]. Build one in Go, or load one from Claude
// Code settings files and the environment with [Merge] and [FromEnv].
//
// The zero Config denies every call: its Default is Deny. Set Default to
// Allow for the original design's "no rule matched: allow".
type Config struct {
	// Allow, Ask and Deny are rules in Claude Code syntax, with origin
	// "config" and "/path" specifiers relative to WorkDir.
	Allow, Ask, Deny []string
	// Rules are further rules with their own origins (settings files).
	Rules []RuleSpec
	// Default is the decision for a call no rule matched. Its zero value
	// is Deny.
	Default Decision
	// DefaultFor overrides Default for some kinds of tool.
	DefaultFor map[Kind]Decision
	// Mode is the default permission mode for sessions.
	Mode Mode
	// DisableBypass refuses ModeBypassPermissions.
	DisableBypass bool
	// DisableAuto refuses ModeAuto.
	DisableAuto bool
	// WorkDir is the absolute working directory that relative path rules
	// resolve against.
	WorkDir string
	// Home is the absolute home directory that "~/" path rules resolve
	// against.
	Home string
	// AdditionalDirectories are further allowed roots named by settings.
	AdditionalDirectories []string
	// ShellTools names the tools whose specifiers are shell commands
	// (default: Bash, Monitor, run_bash). PathTools names those whose specifiers
	// are paths (default: Claude Code's file tools and the generic ones).
	ShellTools, PathTools []string
}

// Checker answers, for one call or one simple command, what the rules say:
// P0 configuration Deny, P2 session Deny, P5 Ask, P7 Allow or the P8
// default. It does not apply the mode: [Combine] does, once every source
// has answered.
//
// A Checker is immutable and safe for concurrent use. Session rules live in
// [SessionRules], which are copy-on-write: checks never take a lock.
type Checker struct {
	rules    *ruleSet
	opts     compileOptions
	defaults [len(kindNames)]Decision
	defaultR [len(kindNames)]string
	cfg      Config
}

// New compiles cfg into a Checker. Every malformed rule is reported, each
// as an *Error naming the rule, its origin and the offset of the problem;
// they are joined with errors.Join.
func New(cfg Config) (*Checker, error) {
	c := &Checker{cfg: cfg}
	c.opts = compileOptions{home: cfg.Home, workDir: cfg.WorkDir, shellTools: cfg.ShellTools, pathTools: cfg.PathTools}
	if c.opts.shellTools == nil {
		c.opts.shellTools = defaultShellTools
	}
	if c.opts.pathTools == nil {
		c.opts.pathTools = defaultPathTools
	}
	var errs []error
	for _, d := range []struct {
		name string
		dir  string
	}{{"WorkDir", cfg.WorkDir}, {"Home", cfg.Home}} {
		if d.dir != "" && !path.IsAbs(d.dir) {
			errs = append(errs, &Error{Index: -1, Input: d.dir, Reason: d.name + " must be an absolute path"})
		}
	}
	if !cfg.Mode.Valid() {
		errs = append(errs, &Error{Index: -1, Input: cfg.Mode.String(), Reason: "invalid mode"})
	}
	if cfg.DisableBypass && cfg.Mode == ModeBypassPermissions {
		errs = append(errs, &Error{Index: -1, Input: cfg.Mode.String(), Reason: "bypassPermissions mode is disabled by configuration"})
	}
	if cfg.DisableAuto && cfg.Mode == ModeAuto {
		errs = append(errs, &Error{Index: -1, Input: cfg.Mode.String(), Reason: "auto mode is disabled by configuration"})
	}
	if !cfg.Default.Valid() {
		errs = append(errs, &Error{Index: -1, Input: cfg.Default.String(), Reason: "invalid default decision"})
	}
	specs := make([]RuleSpec, 0, len(cfg.Deny)+len(cfg.Ask)+len(cfg.Allow)+len(cfg.Rules))
	for _, l := range []struct {
		rules []string
		d     Decision
	}{{cfg.Deny, Deny}, {cfg.Ask, Ask}, {cfg.Allow, Allow}} {
		for _, r := range l.rules {
			specs = append(specs, RuleSpec{Rule: r, Decision: l.d, Origin: "config", Dir: cfg.WorkDir})
		}
	}
	specs = append(specs, cfg.Rules...)
	compiled := make([]*compiledRule, 0, len(specs))
	type listKey struct {
		origin string
		d      Decision
	}
	inList := make(map[listKey]int) // position of each rule within its list, for errors
	for i, s := range specs {
		src := SourceAllow
		switch s.Decision {
		case Deny:
			src = SourceConfigDeny
		case Ask:
			src = SourceRuleAsk
		}
		k := listKey{s.Origin, s.Decision}
		r, err := compileRule(s, inList[k], src, &c.opts)
		inList[k]++
		if err != nil {
			errs = append(errs, err)
			continue
		}
		r.index = i
		compiled = append(compiled, r)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	c.rules = newRuleSet(compiled)
	for k := range c.defaults {
		d := cfg.Default
		if v, ok := cfg.DefaultFor[Kind(k)]; ok {
			if !v.Valid() {
				return nil, &Error{Index: -1, Input: v.String(), Reason: "invalid default decision for kind " + Kind(k).String()}
			}
			d = v
		}
		c.defaults[k] = d
		c.defaultR[k] = "no rule matched; the default for " + Kind(k).String() + " tools is " + d.String()
	}
	return c, nil
}

// Config returns the configuration the Checker was built from.
func (c *Checker) Config() Config { return c.cfg }

// Check answers for one call, or one simple command of a shell call, with
// the session's rules (s may be nil). Every other rule that matched is in
// the conflict log. Check does not allocate.
func (c *Checker) Check(req *Request, s *SessionRules) Result {
	if c == nil || c.rules == nil {
		return Result{Decision: Deny, Layer: LayerRules, Source: SourceConfigDeny, Rule: RuleCheckerUnset, Reason: "no permission checker is configured"}
	}
	var conf, sess firstMatches
	c.rules.scan(req, &conf)
	for ; s != nil; s = s.parent {
		s.load().scan(req, &sess)
	}
	// Winner by precedence: config deny (P0), session deny (P2), ask
	// (P5, configuration before session), allow (P7), default (P8).
	order := [...]*compiledRule{conf[Deny], sess[Deny], conf[Ask], sess[Ask], conf[Allow], sess[Allow]}
	var res Result
	won := false
	for _, r := range order {
		if r == nil {
			continue
		}
		if !won {
			res = Result{Decision: r.decision, Layer: LayerRules, Source: r.source, Rule: RuleID(r.text), Reason: r.reason}
			won = true
			continue
		}
		res.Conflicts.Add(Conflict{Decision: r.decision, Layer: LayerRules, Source: r.source, Rule: RuleID(r.text), Reason: r.reason})
	}
	if !won {
		k := req.Kind
		if int(k) >= len(c.defaults) {
			k = KindOther
		}
		res = Result{Decision: c.defaults[k], Layer: LayerRules, Source: SourceDefault, Rule: RuleDefault, Reason: c.defaultR[k]}
	}
	return res
}

// NewSession returns an empty set of session rules compiled with the
// Checker's options.
func (c *Checker) NewSession() *SessionRules {
	s := &SessionRules{opts: &c.opts, workDir: c.cfg.WorkDir}
	s.set.Store(&ruleSet{})
	return s
}

// Valid reports whether m is a known mode.
func (m Mode) Valid() bool { return int(m) < len(modeNames) }
