package runtime

import (
	"fmt"
	"time"

	"github.com/toolgate/toolgate/permission"
)

// The approvals a pipeline parks (an Ask without an Asker, kept in the
// store until a person answers from any replica, or it expires) are
// bounded per session and per pipeline: a loop of asks cannot fill the
// store, and a full one says why its next call is denied.

// The defaults of Config.MaxParked and Config.MaxParkedPerSession.
const (
	DefaultMaxParked           = 1024
	DefaultMaxParkedPerSession = 32
)

// RuleParkedFull: too many approvals of the session, or of the pipeline,
// are waiting for a person.
const RuleParkedFull permission.RuleID = "runtime:parked-full"

// parkedSet is what a pipeline has parked and not yet seen answered, by
// session, each with when it expires. Guarded by stores.mu.
type parkedSet struct {
	bySession map[string]map[string]time.Time // session → ticket → expiry
	n         int
}

// parkRoom says why no more approvals may be parked for session, or ""
// when there is room; it forgets those that expired by now.
func (s *stores) parkRoom(session string, now time.Time, max, perSession int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := &s.parked
	if ps.n >= max || len(ps.bySession[session]) >= perSession {
		for sid, ts := range ps.bySession {
			for id, exp := range ts {
				if !now.Before(exp) {
					delete(ts, id)
					ps.n--
				}
			}
			if len(ts) == 0 {
				delete(ps.bySession, sid)
			}
		}
	}
	switch {
	case len(ps.bySession[session]) >= perSession:
		return fmt.Sprintf("%d approvals of this session are already waiting for a person (at most %d): answer them, or let them expire, before asking again", len(ps.bySession[session]), perSession)
	case ps.n >= max:
		return fmt.Sprintf("%d approvals are already waiting for a person on this pipeline (at most %d): answer them, or let them expire, before asking again", ps.n, max)
	}
	return ""
}

// parkedAdd records a parked approval.
func (s *stores) parkedAdd(session, ticket string, expires time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := &s.parked
	if ps.bySession == nil {
		ps.bySession = map[string]map[string]time.Time{}
	}
	ts := ps.bySession[session]
	if ts == nil {
		ts = map[string]time.Time{}
		ps.bySession[session] = ts
	}
	if _, ok := ts[ticket]; !ok {
		ts[ticket] = expires
		ps.n++
	}
}

// parkedDone forgets a parked approval that has its answer.
func (s *stores) parkedDone(session, ticket string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := &s.parked
	if ts := ps.bySession[session]; ts != nil {
		if _, ok := ts[ticket]; ok {
			delete(ts, ticket)
			ps.n--
		}
		if len(ts) == 0 {
			delete(ps.bySession, session)
		}
	}
}
