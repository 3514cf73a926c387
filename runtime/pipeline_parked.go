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
// resumes the ticket is not refused for it: past the bound, the approvals
// that expired are forgotten first, then the oldest waiting one is
// answered with a Deny (layer runtime, rule [RuleParkedFull]) whose reason
// names the bound reached and how many were pending, and the new one is
// parked. Resuming the oldest then gives that Deny. The slot is taken
// under the same lock as the count, so concurrent asks never park more
// than the bound.

// The defaults of Config.MaxParked and Config.MaxParkedPerSession. A
// person answers approvals one at a time: a session with 32 unanswered is
// an agent asking in a loop, not a person behind on their reading, and
// each parked approval costs the store up to about 9 KB (the call, its
// explanation, the commands of its script), so 1,024 of a pipeline hold
// under 10 MB there, whatever the sessions do, for the ParkTimeout each
// waits (DefaultParkTimeout, 10 minutes).
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
	bySession map[string]map[string]parkedEntry // session → ticket → entry
	n         int
	// doomed are the tickets denied to make room before their approval
	// was in the store, with the reason: their own park answers them
	// once it has put them (parkedPut).
	doomed map[string]string
}

// parkedEntry is one parked approval: when it expires, and whether it is
// in the store yet (a reserved slot is counted before it is).
type parkedEntry struct {
	expires time.Time
	put     bool
}

// evicted is an approval to answer with a Deny to make room, and why.
type evicted struct {
	ticket, reason string
}

// parkReserve makes room for one more approval of session and counts it
// (ticket, expiring at expires, not yet in the store), under one lock, so
// that concurrent parks never pass the bounds: it forgets the approvals
// that expired by now, then denies the oldest waiting (the oldest first)
// until at most max, and perSession of session, wait with the new one,
// each with the reason that names the bound it made room under. It
// returns those already in the store, for the caller to answer; one not
// yet there is answered by its own park (parkedPut).
func (s *stores) parkReserve(session, ticket string, expires, now time.Time, max, perSession int) []evicted {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := &s.parked
	var evict []evicted
	deny := func(id string, put bool, why string) {
		if put {
			evict = append(evict, evicted{id, why})
			return
		}
		if ps.doomed == nil {
			ps.doomed = map[string]string{}
		}
		ps.doomed[id] = why
	}
	if ps.n >= max || len(ps.bySession[session]) >= perSession {
		for sid, ts := range ps.bySession {
			for id, e := range ts {
				if !now.Before(e.expires) {
					ps.forget(sid, id)
				}
			}
		}
		for len(ps.bySession[session]) >= perSession {
			why := fullReason("its session's bound of "+strconv.Itoa(perSession), len(ps.bySession[session]), "in the session", ps.n, max)
			id, put := ps.forgetOldest(session)
			deny(id, put, why)
		}
		for ps.n >= max {
			why := fullReason("the pipeline's bound of "+strconv.Itoa(max), ps.n, "in the pipeline", ps.n, max)
			id, put := ps.forgetOldest("")
			deny(id, put, why)
		}
	}
	ps.add(session, ticket, expires)
	return evict
}

// parkedPut records that ticket of session is in the store. If it was
// denied to make room meanwhile, it returns the reason, for the caller to
// answer it with.
func (s *stores) parkedPut(session, ticket string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := &s.parked
	if why, ok := ps.doomed[ticket]; ok {
		delete(ps.doomed, ticket)
		return why, true
	}
	if e, ok := ps.bySession[session][ticket]; ok {
		e.put = true
		ps.bySession[session][ticket] = e
	}
	return "", false
}

// fullReason is the reason of an approval denied to make room: which
// bound was reached, with how many pending there and in the pipeline.
func fullReason(bound string, n int, where string, total, max int) string {
	r := "denied by toolgate to make room: " + bound + " approvals waiting for a person was reached (" +
		strconv.Itoa(n) + " pending " + where
	if where != "in the pipeline" {
		r += ", " + strconv.Itoa(total) + " of " + strconv.Itoa(max) + " in the pipeline"
	}
	return r + "), and this was the oldest; ask again"
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
// session, or of any session when session is "", and whether it is in
// the store.
func (ps *parkedSet) forgetOldest(session string) (string, bool) {
	var oldSID, oldID string
	var old parkedEntry
	for sid, ts := range ps.bySession {
		if session != "" && sid != session {
			continue
		}
		for id, e := range ts {
			if oldID == "" || e.expires.Before(old.expires) || e.expires.Equal(old.expires) && id < oldID {
				oldSID, oldID, old = sid, id, e
			}
		}
	}
	ps.forget(oldSID, oldID)
	return oldID, old.put
}

// add counts ticket of session, not yet in the store.
func (ps *parkedSet) add(session, ticket string, expires time.Time) {
	if ps.bySession == nil {
		ps.bySession = map[string]map[string]parkedEntry{}
	}
	ts := ps.bySession[session]
	if ts == nil {
		ts = map[string]parkedEntry{}
		ps.bySession[session] = ts
	}
	if _, ok := ts[ticket]; !ok {
		ts[ticket] = parkedEntry{expires: expires}
		ps.n++
	}
}

// parkedDone forgets a parked approval that has its answer.
func (s *stores) parkedDone(session, ticket string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parked.forget(session, ticket)
	delete(s.parked.doomed, ticket)
}
