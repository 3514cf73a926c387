package runtime

import (
	"strconv"
	"time"

	"github.com/toolgate/toolgate/permission"
)

// The approvals a pipeline parks (an Ask without an Asker, kept in the
// store until a person answers from any replica, or it expires) are
// bounded per session and per pipeline, so that a loop of asks cannot
// fill the store. A host that shows an Ask to its person itself and never
// resumes the ticket is not refused for it: past the bound, the oldest
// waiting approval is answered with a Deny that says why, and the new one
// is parked. Resuming the oldest then gives that Deny.

// The defaults of Config.MaxParked and Config.MaxParkedPerSession.
const (
	DefaultMaxParked           = 1024
	DefaultMaxParkedPerSession = 32
)

// DefaultParkTimeout is how long a parked approval waits for a person when
// neither Config.ParkTimeout nor Config.AskTimeout says: long enough to
// notice the page, read the call and decide. A parked call holds no
// goroutine while it waits, so a long wait costs the pipeline nothing.
const DefaultParkTimeout = 10 * time.Minute

// RuleParkedFull: an approval was answered with a Deny by the pipeline
// itself, to make room: too many of its session's, or of the pipeline's,
// were waiting for a person.
const RuleParkedFull permission.RuleID = "runtime:parked-full"

// parkedEvictor is who answers an approval denied to make room.
const parkedEvictor = "toolgate (too many waiting)"

// parkedSet is what a pipeline has parked and not yet seen answered, by
// session, each with when it expires. Guarded by stores.mu.
type parkedSet struct {
	bySession map[string]map[string]time.Time // session → ticket → expiry
	n         int
}

// parkEvict makes room for one more approval of session: it forgets those
// that expired by now, and returns the tickets to answer with a Deny (the
// oldest first) so that at most max, and perSession of session, wait.
func (s *stores) parkEvict(session string, now time.Time, max, perSession int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := &s.parked
	if ps.n < max && len(ps.bySession[session]) < perSession {
		return nil
	}
	for sid, ts := range ps.bySession {
		for id, exp := range ts {
			if !now.Before(exp) {
				ps.forget(sid, id)
			}
		}
	}
	var evict []string
	for len(ps.bySession[session]) >= perSession {
		evict = append(evict, ps.forgetOldest(session))
	}
	for ps.n >= max {
		evict = append(evict, ps.forgetOldest(""))
	}
	return evict
}

// forget drops ticket of session.
func (ps *parkedSet) forget(session, ticket string) {
	ts := ps.bySession[session]
	if _, ok := ts[ticket]; !ok {
		return
	}
	delete(ts, ticket)
	ps.n--
	if len(ts) == 0 {
		delete(ps.bySession, session)
	}
}

// forgetOldest drops and returns the ticket that expires first, of
// session, or of any session when session is "".
func (ps *parkedSet) forgetOldest(session string) string {
	var oldSID, oldID string
	var oldExp time.Time
	for sid, ts := range ps.bySession {
		if session != "" && sid != session {
			continue
		}
		for id, exp := range ts {
			if oldID == "" || exp.Before(oldExp) || exp.Equal(oldExp) && id < oldID {
				oldSID, oldID, oldExp = sid, id, exp
			}
		}
	}
	ps.forget(oldSID, oldID)
	return oldID
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
	s.parked.forget(session, ticket)
}

// parkedBound says the bounds of cfg, for a reason.
func parkedBound(cfg Config) string {
	return strconv.Itoa(cfg.MaxParkedPerSession) + " of a session or " + strconv.Itoa(cfg.MaxParked) + " of the pipeline"
}
