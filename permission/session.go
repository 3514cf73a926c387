package permission

import (
	"errors"
	"sync"
	"sync/atomic"
)

// ErrNarrowOnly is returned when an Allow rule is added to session rules
// that may only narrow (a subagent's).
var ErrNarrowOnly = errors.New("permission: these session rules may only narrow: an Allow rule cannot be added")

// SessionRules are rules added while a session runs: an "allow always"
// answer, a Deny added through an API. Adding is copy-on-write: checks load
// the current set with one atomic read and never take a lock; writers
// serialise on a mutex.
//
// Session rules may have a parent: a child sees its parent's rules as they
// are at the moment of each check (so later grants to the parent reach the
// child), and what is added to the child never reaches the parent.
//
// Create them with [Checker.NewSession] or [SessionRules.Child]. The zero
// value holds no rules and refuses additions.
type SessionRules struct {
	parent     *SessionRules
	narrowOnly bool
	opts       *compileOptions
	workDir    string

	mu    sync.Mutex // serialises writers
	specs []RuleSpec
	set   atomic.Pointer[ruleSet]
}

func (s *SessionRules) load() *ruleSet {
	if s == nil {
		return nil
	}
	return s.set.Load()
}

// Child returns empty session rules whose checks also see s's rules. The
// child may only narrow: adding an Allow rule to it fails with
// [ErrNarrowOnly].
func (s *SessionRules) Child() *SessionRules {
	c := &SessionRules{parent: s, narrowOnly: true, opts: s.opts, workDir: s.workDir}
	c.set.Store(&ruleSet{})
	return c
}

// Add adds rules with decision d. Either every rule is added or, if one is
// malformed, none is and the error names it. The next check sees them.
func (s *SessionRules) Add(d Decision, rules ...string) error {
	if s == nil || s.opts == nil {
		return errors.New("permission: session rules were not created by a Checker")
	}
	if !d.Valid() {
		return &Error{Index: -1, Input: d.String(), Reason: "invalid decision"}
	}
	if d == Allow && s.narrowOnly {
		return ErrNarrowOnly
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	specs := append(s.specs[:len(s.specs):len(s.specs)], make([]RuleSpec, 0, len(rules))...)
	for _, r := range rules {
		specs = append(specs, RuleSpec{Rule: r, Decision: d, Origin: "session", Dir: s.workDir})
	}
	compiled := make([]*compiledRule, 0, len(specs))
	var errs []error
	for i, sp := range specs {
		src := SourceAllow
		switch sp.Decision {
		case Deny:
			src = SourceSessionDeny
		case Ask:
			src = SourceRuleAsk
		}
		r, err := compileRule(sp, i, src, s.opts)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		compiled = append(compiled, r)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	s.specs = specs
	s.set.Store(newRuleSet(compiled))
	return nil
}

// Parent returns the session rules s was derived from with Child, or nil.
func (s *SessionRules) Parent() *SessionRules {
	if s == nil {
		return nil
	}
	return s.parent
}

// Rules returns the rules added to s (not its parent's), in order.
func (s *SessionRules) Rules() []RuleSpec {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]RuleSpec(nil), s.specs...)
}

// maxStateDepth bounds the chain of parents whose rules State names.
const maxStateDepth = 8

// sessionState names the rule sets of session rules and their parents,
// as they are at one moment (State).
type sessionState [maxStateDepth]*ruleSet

// State returns a comparable value that names the rules s checks with
// as they are now, its own and its parents': two calls return equal
// values only while no rule was added to s or to a parent since, so a
// host may keep an answer the rules gave under it (and the value keeps
// what it names alive). It returns nil for a chain of more than eight
// session rules (a child of a child...), whose answers are then not
// kept. Nil session rules, which hold no rule, have a state of their own.
func (s *SessionRules) State() any {
	var st sessionState
	for i := 0; s != nil; i, s = i+1, s.parent {
		if i == maxStateDepth {
			return nil
		}
		st[i] = s.load()
	}
	return st
}
