package hookstest

import (
	"context"
	"sync"

	"github.com/toolgate/toolgate/hooks"
)

// Record is one event seen by a [Recorder].
type Record struct {
	Event hooks.Event
	// Payload is the event value, such as a hooks.PreToolUseEvent.
	Payload any
}

// A Recorder is a hook that records every event it sees, in the order the
// callbacks were called, and answers Continue. It is safe for concurrent
// use. The zero value records under the name "recorder".
type Recorder struct {
	// Name is the hook's name; empty means "recorder".
	Name string

	mu      sync.Mutex
	records []Record
}

func (r *Recorder) add(ev hooks.Event, p any) {
	r.mu.Lock()
	r.records = append(r.records, Record{Event: ev, Payload: p})
	r.mu.Unlock()
}

// Records returns a copy of the records so far.
func (r *Recorder) Records() []Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Record(nil), r.records...)
}

// Events returns the events seen so far, in order.
func (r *Recorder) Events() []hooks.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]hooks.Event, len(r.records))
	for i, rec := range r.records {
		out[i] = rec.Event
	}
	return out
}

// Reset forgets the records.
func (r *Recorder) Reset() {
	r.mu.Lock()
	r.records = nil
	r.mu.Unlock()
}

// Payloads returns the payloads of type E recorded by r, in order; for
// example Payloads[hooks.PreToolUseEvent](r).
func Payloads[E any](r *Recorder) []E {
	var out []E
	for _, rec := range r.Records() {
		if p, ok := rec.Payload.(E); ok {
			out = append(out, p)
		}
	}
	return out
}

// Hook returns the recording hook. Its callbacks never block, so it runs
// inline (hooks.NoTimeout).
func (r *Recorder) Hook() hooks.Hook {
	name := r.Name
	if name == "" {
		name = "recorder"
	}
	return hooks.Hook{
		Name:    name,
		Timeout: hooks.NoTimeout,
		SessionStart: func(_ context.Context, e hooks.SessionStartEvent) error {
			r.add(hooks.EventSessionStart, e)
			return nil
		},
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			r.add(hooks.EventPreToolUse, e)
			return hooks.PreToolUseResult{}, nil
		},
		PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			r.add(hooks.EventPostToolUse, e)
			return hooks.PostToolUseResult{}, nil
		},
		StepComplete: func(_ context.Context, e hooks.StepCompleteEvent) error {
			r.add(hooks.EventStepComplete, e)
			return nil
		},
		SessionStop: func(_ context.Context, e hooks.SessionStopEvent) error {
			r.add(hooks.EventSessionStop, e)
			return nil
		},
		SubagentStart: func(_ context.Context, e hooks.SubagentStartEvent) error {
			r.add(hooks.EventSubagentStart, e)
			return nil
		},
		SubagentStop: func(_ context.Context, e hooks.SubagentStopEvent) error {
			r.add(hooks.EventSubagentStop, e)
			return nil
		},
		PreCompact: func(_ context.Context, e hooks.PreCompactEvent) error {
			r.add(hooks.EventPreCompact, e)
			return nil
		},
		PostCompact: func(_ context.Context, e hooks.PostCompactEvent) error {
			r.add(hooks.EventPostCompact, e)
			return nil
		},
	}
}
