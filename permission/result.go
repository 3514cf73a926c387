package permission

import "iter"

// Result is an explained answer: the decision, the layer and source that
// gave it, the rule or check that decided, a reason a person can read, and
// every answer it overrode.
//
// The zero Result is a Deny from no layer, with no reason: it fails closed.
type Result struct {
	// Decision is the answer.
	Decision Decision
	// Layer is the layer of the defence that decided.
	Layer Layer
	// Source is the answer's place in the precedence P0–P8.
	Source Source
	// Firm marks an Ask that no mode may lift (a write to a protected
	// path): bypassPermissions, acceptEdits and auto leave it an Ask. A
	// hook's Ask ([SourceHookAsk]) is firm whether marked or not.
	Firm bool
	// Rule is the rule (in Claude Code syntax) or the named check that
	// decided, such as "Bash(rm:*)" or "sandbox:outside-roots".
	Rule RuleID
	// Reason explains the decision to a person.
	Reason string
	// Conflicts lists the answers this one overrode.
	Conflicts Conflicts
	// Cause is the error behind the decision, when one is: the shell
	// parser's error with its position, the sandbox's *PathError, a hook's
	// failure. Reason already says it in words; Cause lets a host test it
	// with errors.Is and errors.As. Nil for a decision no error made.
	Cause error
}

// Conflict is an answer that another answer overrode.
type Conflict struct {
	Decision Decision // what the overridden answer said
	Layer    Layer    // the layer that gave it
	Source   Source   // its place in the precedence P0–P8
	Rule     RuleID   // the rule or check that gave it
	Reason   string   // its reason
}

// asConflict drops r's own conflict log.
func (r *Result) asConflict() Conflict {
	return Conflict{Decision: r.Decision, Layer: r.Layer, Source: r.Source, Rule: r.Rule, Reason: r.Reason}
}

// Conflicts is a conflict log: the answers a Result overrode, in the order
// they were recorded. The first four are held inline, so that recording
// them does not allocate.
//
// The zero value is an empty log.
type Conflicts struct {
	n int
	// Kept for BenchmarkCombine: without it Combine takes 2 allocs and ~3x the time.
	inline [4]Conflict
	more   []Conflict
}

// Add records c.
func (l *Conflicts) Add(c Conflict) {
	if l.n < len(l.inline) {
		l.inline[l.n] = c
	} else {
		// Copy on append: Results are values, and two copies must never
		// write to one backing array.
		l.more = append(l.more[:len(l.more):len(l.more)], c)
	}
	l.n++
}

// Len returns the number of recorded conflicts.
func (l *Conflicts) Len() int { return l.n }

// At returns the i'th recorded conflict.
func (l *Conflicts) At(i int) Conflict {
	if i < len(l.inline) {
		return l.inline[i]
	}
	return l.more[i-len(l.inline)]
}

// All yields the recorded conflicts in order.
func (l *Conflicts) All() iter.Seq[Conflict] {
	return func(yield func(Conflict) bool) {
		for i := 0; i < l.n; i++ {
			if !yield(l.At(i)) {
				return
			}
		}
	}
}

// Slice returns the recorded conflicts as a new slice (nil when empty).
func (l *Conflicts) Slice() []Conflict {
	if l.n == 0 {
		return nil
	}
	s := make([]Conflict, 0, l.n)
	for c := range l.All() {
		s = append(s, c)
	}
	return s
}

// addAll records every conflict of o.
func (l *Conflicts) addAll(o *Conflicts) {
	for i := 0; i < o.n; i++ {
		l.Add(o.At(i))
	}
}
