package runtime

import (
	"errors"
	"fmt"
	"strings"
)

// Default runtime limits, as in the original design.
const (
	DefaultMaxSteps              = 8
	DefaultRepeatLimit           = 3
	DefaultCycleRepeats          = 3
	DefaultMaxCyclePeriod        = 3
	DefaultTokenSoftLimit        = 32000
	DefaultTokenHardLimit        = 40000
	DefaultMinStepTokens         = 500
	DefaultDiminishingSteps      = 3
	DefaultMaxCompactionFailures = 3
)

// Limits configures layer 7 for every session of a [Pipeline]. A zero
// field takes its default; a negative one is a configuration error, so no
// limit can be switched off by accident.
type Limits struct {
	// MaxSteps is the number of steps (model turns) that may offer tools.
	// Past it, [Session.BeginStep] signals SignalFinalAnswer and
	// [Pipeline.Check] denies every call. Default 8.
	MaxSteps int
	// RepeatLimit is the number of identical consecutive calls (same tool,
	// same canonical input) at which the last one is denied. Default 3: the
	// third identical call in a row is denied.
	RepeatLimit int
	// CycleRepeats is how many times a short cycle of calls (A,B,A,B,…) may
	// come round before the call completing the last round is denied.
	// Default 3.
	CycleRepeats int
	// MaxCyclePeriod is the longest cycle looked for. Default 3.
	MaxCyclePeriod int
	// TokenSoftLimit is the token count at which SignalNudge is raised.
	// Default 32,000.
	TokenSoftLimit int
	// TokenHardLimit is the token count at which SignalForceAction is
	// raised. Default 40,000. It must not be below TokenSoftLimit.
	TokenHardLimit int
	// MinStepTokens is the token gain under which a step counts as adding
	// little. Default 500.
	MinStepTokens int
	// DiminishingSteps is the number of consecutive steps adding little at
	// which SignalStop is raised. Default 3.
	DiminishingSteps int
	// MaxCompactionFailures is the number of consecutive failed compactions
	// after which automatic compaction is skipped. Default 3.
	MaxCompactionFailures int
}

// withDefaults returns l with zero fields set to their defaults.
func (l Limits) withDefaults() Limits {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&l.MaxSteps, DefaultMaxSteps)
	def(&l.RepeatLimit, DefaultRepeatLimit)
	def(&l.CycleRepeats, DefaultCycleRepeats)
	def(&l.MaxCyclePeriod, DefaultMaxCyclePeriod)
	def(&l.TokenSoftLimit, DefaultTokenSoftLimit)
	def(&l.TokenHardLimit, DefaultTokenHardLimit)
	def(&l.MinStepTokens, DefaultMinStepTokens)
	def(&l.DiminishingSteps, DefaultDiminishingSteps)
	def(&l.MaxCompactionFailures, DefaultMaxCompactionFailures)
	return l
}

// validate reports every invalid field of l (after defaults) as one error;
// [New] refuses a configuration with any.
func (l Limits) validate() error {
	var errs []error
	for _, f := range []struct {
		name string
		v    int
	}{
		{"MaxSteps", l.MaxSteps}, {"RepeatLimit", l.RepeatLimit}, {"CycleRepeats", l.CycleRepeats},
		{"MaxCyclePeriod", l.MaxCyclePeriod}, {"TokenSoftLimit", l.TokenSoftLimit},
		{"TokenHardLimit", l.TokenHardLimit}, {"MinStepTokens", l.MinStepTokens},
		{"DiminishingSteps", l.DiminishingSteps}, {"MaxCompactionFailures", l.MaxCompactionFailures},
	} {
		if f.v < 0 {
			errs = append(errs, fmt.Errorf("runtime: limits: %s is negative (%d)", f.name, f.v))
		}
	}
	d := l.withDefaults()
	if d.RepeatLimit < 2 || d.RepeatLimit > 100 {
		errs = append(errs, fmt.Errorf("runtime: limits: RepeatLimit %d out of range 2..100", d.RepeatLimit))
	}
	if d.CycleRepeats < 2 || d.MaxCyclePeriod > 10 || d.CycleRepeats*d.MaxCyclePeriod > 100 {
		errs = append(errs, fmt.Errorf("runtime: limits: CycleRepeats %d and MaxCyclePeriod %d out of range (2..; ..10; product ..100)",
			d.CycleRepeats, d.MaxCyclePeriod))
	}
	if d.TokenHardLimit < d.TokenSoftLimit {
		errs = append(errs, fmt.Errorf("runtime: limits: TokenHardLimit %d is below TokenSoftLimit %d",
			d.TokenHardLimit, d.TokenSoftLimit))
	}
	return errors.Join(errs...)
}

// history returns how many past calls a session must remember.
func (l Limits) history() int {
	return max(l.RepeatLimit, l.CycleRepeats*l.MaxCyclePeriod)
}

// Signal is a set of instructions layer 7 gives the host's loop.
type Signal uint8

const (
	// SignalNudge: the soft token limit is reached; remind the model to
	// summarise and answer.
	SignalNudge Signal = 1 << iota
	// SignalFinalAnswer: the step limit is passed; stop offering tools and
	// ask the model for its final answer.
	SignalFinalAnswer
	// SignalForceAction: the hard token limit is reached; compact the
	// context or end the run.
	SignalForceAction
	// SignalStop: several steps in a row added little; end the run and
	// answer from what was gathered.
	SignalStop
	// SignalCancelled: the session was cancelled or ended; stop at once.
	SignalCancelled
)

var signalNames = []string{"nudge", "final-answer", "force-action", "stop", "cancelled"}

// Has reports whether s contains every signal in x.
func (s Signal) Has(x Signal) bool { return s&x == x }

// String lists the signals, such as "nudge|final-answer", or "none".
func (s Signal) String() string {
	var names []string
	for i, n := range signalNames {
		if s&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, "|")
}

// Status is a session's layer-7 state as the host's loop sees it.
type Status struct {
	// Step is the current step, counted from 1 by [Session.BeginStep]; 0
	// before the first.
	Step int
	// Tokens is the token count recorded so far.
	Tokens int
	// Signals are the instructions for the loop; zero means carry on.
	Signals Signal
	// Reason explains every signal raised, joined by "; ".
	Reason string
}
