package hooks

import (
	"context"
	"log/slog"
	"maps"
	"sync"
	"time"

	"github.com/toolgate/toolgate/permission"
)

// Metrics is a built-in hook that counts tool calls, errors and denials per
// tool and per session, and their elapsed time. Every SummaryEvery steps
// it logs a summary line for the session, and at SessionStop a final line
// with the stop reason; the session's counters are then dropped (the
// per-tool totals stay). The zero value is ready to use; a Metrics is safe
// for concurrent use.
type Metrics struct {
	// Logger receives the summary lines; nil means slog.Default().
	Logger *slog.Logger
	// SummaryEvery is the number of steps between summary lines; zero
	// means 3, a negative value turns them off.
	SummaryEvery int

	mu       sync.Mutex
	tools    map[string]*Stats
	sessions map[string]*SessionStats
}

// Stats counts tool calls.
type Stats struct {
	// Calls is the number of calls seen (PostToolUse events).
	Calls int
	// Errors is the number of calls that ran and failed.
	Errors int
	// Denials is the number of calls that were not allowed to run
	// (final decision Deny, or Ask left unanswered).
	Denials int
	// Elapsed is the tools' total running time.
	Elapsed time.Duration
}

func (s *Stats) add(e *PostToolUseEvent) {
	s.Calls++
	if e.Err != nil {
		s.Errors++
	}
	if e.Decision != permission.Allow {
		s.Denials++
	}
	s.Elapsed += e.Elapsed
}

// SessionStats are one live session's counters.
type SessionStats struct {
	Stats
	SessionID string
	AgentName string
	// Steps is the last step completed.
	Steps int
	// Tools holds the counters per tool name.
	Tools map[string]Stats
}

// Snapshot is a copy of the counters at one moment.
type Snapshot struct {
	// Total sums every tool.
	Total Stats
	// Tools holds the counters per tool name, for all sessions so far.
	Tools map[string]Stats
	// Sessions holds the live sessions' counters by session id.
	Sessions map[string]SessionStats
}

// Snapshot returns a copy of the counters.
func (m *Metrics) Snapshot() Snapshot {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := Snapshot{Tools: make(map[string]Stats, len(m.tools)), Sessions: make(map[string]SessionStats, len(m.sessions))}
	for name, t := range m.tools {
		s.Tools[name] = *t
		s.Total.Calls += t.Calls
		s.Total.Errors += t.Errors
		s.Total.Denials += t.Denials
		s.Total.Elapsed += t.Elapsed
	}
	for id, ss := range m.sessions {
		c := *ss
		c.Tools = maps.Clone(ss.Tools)
		s.Sessions[id] = c
	}
	return s
}

// session returns the session's counters, creating them. m.mu is held.
func (m *Metrics) session(id, agent string) *SessionStats {
	if m.sessions == nil {
		m.sessions = make(map[string]*SessionStats)
	}
	s := m.sessions[id]
	if s == nil {
		s = &SessionStats{SessionID: id, AgentName: agent, Tools: make(map[string]Stats)}
		m.sessions[id] = s
	}
	return s
}

func (m *Metrics) logger() *slog.Logger {
	if m.Logger != nil {
		return m.Logger
	}
	return slog.Default()
}

// Hook returns the hook, named "metrics". Its callbacks never block, so it
// runs inline (NoTimeout).
func (m *Metrics) Hook() Hook {
	return Hook{
		Name:    "metrics",
		Timeout: NoTimeout,
		SessionStart: func(_ context.Context, e SessionStartEvent) error {
			m.mu.Lock()
			m.session(e.SessionID, e.AgentName)
			m.mu.Unlock()
			return nil
		},
		PostToolUse: func(_ context.Context, e PostToolUseEvent) (PostToolUseResult, error) {
			m.mu.Lock()
			if m.tools == nil {
				m.tools = make(map[string]*Stats)
			}
			t := m.tools[e.ToolName]
			if t == nil {
				t = new(Stats)
				m.tools[e.ToolName] = t
			}
			t.add(&e)
			s := m.session(e.SessionID, e.AgentName)
			s.add(&e)
			ts := s.Tools[e.ToolName]
			ts.add(&e)
			s.Tools[e.ToolName] = ts
			m.mu.Unlock()
			return PostToolUseResult{}, nil
		},
		StepComplete: func(ctx context.Context, e StepCompleteEvent) error {
			every := m.SummaryEvery
			if every == 0 {
				every = 3
			}
			m.mu.Lock()
			s := m.session(e.SessionID, e.AgentName)
			s.Steps = e.Step
			st := s.Stats
			m.mu.Unlock()
			if every > 0 && e.Step > 0 && e.Step%every == 0 {
				m.logger().LogAttrs(ctx, slog.LevelInfo, "session metrics",
					slog.String("session", e.SessionID), slog.String("agent", e.AgentName), slog.Int("step", e.Step),
					slog.Int("calls", st.Calls), slog.Int("errors", st.Errors), slog.Int("denials", st.Denials),
					slog.Duration("elapsed", st.Elapsed))
			}
			return nil
		},
		SessionStop: func(ctx context.Context, e SessionStopEvent) error {
			m.mu.Lock()
			s := m.session(e.SessionID, e.AgentName)
			st, steps := s.Stats, s.Steps
			delete(m.sessions, e.SessionID)
			m.mu.Unlock()
			if e.Step > steps {
				steps = e.Step
			}
			m.logger().LogAttrs(context.WithoutCancel(ctx), slog.LevelInfo, "session stopped",
				slog.String("session", e.SessionID), slog.String("agent", e.AgentName), slog.String("reason", e.Reason),
				slog.Int("steps", steps), slog.Int("calls", st.Calls), slog.Int("errors", st.Errors),
				slog.Int("denials", st.Denials), slog.Duration("elapsed", st.Elapsed))
			return nil
		},
	}
}
