package runtime

import (
	"slices"
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
// session, each session's in the order they expire. Guarded by stores.mu.
type parkedSet struct {
	bySession map[string][]parkedEntry // session → its entries, the first to expire first
	n         int
	// soonest is no later than when the first entry expires (zero: not
	// known): before it nothing has expired, and parkReserve need not
	// look at every session (a full session parks one for every Ask:
	// BenchmarkToolgateCommands in bench).
	soonest time.Time
	// doomed are the tickets denied to make room before their approval
	// was in the store, with the reason: their own park answers them
	// once it has put them (parkedPut).
	doomed map[string]string
}

// parkedEntry is one parked approval: its ticket, when it expires, and
// whether it is in the store yet (a reserved slot is counted before it
// is).
type parkedEntry struct {
	ticket  string
	expires time.Time
	put     bool
}

// before orders entries by when they expire, then by ticket.
func (e *parkedEntry) before(o *parkedEntry) bool {
	return e.expires.Before(o.expires) || e.expires.Equal(o.expires) && e.ticket < o.ticket
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
// yet there is answered by its own park (parkedPut). Once a bound is
// reached, its cost is the number of sessions with approvals parked (the
// first of each is the oldest), not the number of approvals.
func (s *stores) parkReserve(session, ticket string, expires, now time.Time, max, perSession int) []evicted {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps := &s.parked
	var evict []evicted
	deny := func(e parkedEntry, why string) {
		if e.put {
			evict = append(evict, evicted{e.ticket, why})
			return
		}
		if ps.doomed == nil {
			ps.doomed = map[string]string{}
		}
		ps.doomed[e.ticket] = why
	}
	if ps.n >= max || len(ps.bySession[session]) >= perSession {
		ps.expireAll(now)
		for len(ps.bySession[session]) >= perSession {
			why := fullReason("its session's bound of ", perSession, len(ps.bySession[session]), "in the session", ps.n, max)
			deny(ps.forgetFirst(session), why)
		}
		for ps.n >= max {
			why := fullReason("the pipeline's bound of ", max, ps.n, "in the pipeline", ps.n, max)
			deny(ps.forgetFirst(ps.oldestSession()), why)
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
	es := ps.bySession[session]
	if i := indexTicket(es, ticket); i >= 0 {
		es[i].put = true
	}
	return "", false
}

// fullReason is the reason of an approval denied to make room: which
// bound was reached, with how many pending there and in the pipeline.
func fullReason(bound string, size, n int, where string, total, max int) string {
	b := make([]byte, 0, 240)
	b = append(b, "denied by toolgate to make room: "...)
	b = append(b, bound...)
	b = strconv.AppendInt(b, int64(size), 10)
	b = append(b, " approvals waiting for a person was reached ("...)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, " pending "...)
	b = append(b, where...)
	if where != "in the pipeline" {
		b = append(b, ", "...)
		b = strconv.AppendInt(b, int64(total), 10)
		b = append(b, " of "...)
		b = strconv.AppendInt(b, int64(max), 10)
		b = append(b, " in the pipeline"...)
	}
	b = append(b, "), and this was the oldest; ask again"...)
	return string(b)
}

// indexTicket returns the index of ticket in es, or -1.
func indexTicket(es []parkedEntry, ticket string) int {
	for i := range es {
		if es[i].ticket == ticket {
			return i
		}
	}
	return -1
}

// forget drops ticket of session.
func (ps *parkedSet) forget(session, ticket string) {
	es := ps.bySession[session]
	if i := indexTicket(es, ticket); i >= 0 {
		ps.drop(session, es, i, i+1)
	}
}

// drop removes es[i:j], the entries of session: the first ones without
// moving the others (the oldest goes for every Ask of a full session).
func (ps *parkedSet) drop(session string, es []parkedEntry, i, j int) {
	if i == 0 {
		clear(es[:j])
		es = es[j:]
	} else {
		es = slices.Delete(es, i, j)
	}
	ps.n -= j - i
	if len(es) == 0 {
		delete(ps.bySession, session)
		return
	}
	ps.bySession[session] = es
}

// expireAll drops the entries that expired by now, and learns when the
// first of those left expires.
func (ps *parkedSet) expireAll(now time.Time) {
	if !ps.soonest.IsZero() && now.Before(ps.soonest) {
		return // nothing has expired yet
	}
	var soonest time.Time
	for sid := range ps.bySession {
		ps.expire(sid, now)
		if es := ps.bySession[sid]; len(es) > 0 && (soonest.IsZero() || es[0].expires.Before(soonest)) {
			soonest = es[0].expires
		}
	}
	ps.soonest = soonest
}

// expire drops the entries of session that expired by now.
func (ps *parkedSet) expire(session string, now time.Time) {
	es := ps.bySession[session]
	i := 0
	for i < len(es) && !now.Before(es[i].expires) {
		i++
	}
	if i > 0 {
		ps.drop(session, es, 0, i)
	}
}

// oldestSession returns the session whose first entry expires first.
func (ps *parkedSet) oldestSession() string {
	var sid string
	var old *parkedEntry
	for s, es := range ps.bySession {
		if old == nil || es[0].before(old) {
			sid, old = s, &es[0]
		}
	}
	return sid
}

// forgetFirst drops and returns the entry of session that expires first.
func (ps *parkedSet) forgetFirst(session string) parkedEntry {
	es := ps.bySession[session]
	e := es[0]
	ps.drop(session, es, 0, 1)
	return e
}

// add counts ticket of session, not yet in the store, in its place in the
// order of expiry (almost always the last).
func (ps *parkedSet) add(session, ticket string, expires time.Time) {
	if ps.bySession == nil {
		ps.bySession = map[string][]parkedEntry{}
	}
	es := ps.bySession[session]
	if indexTicket(es, ticket) >= 0 {
		return
	}
	e := parkedEntry{ticket: ticket, expires: expires}
	if !ps.soonest.IsZero() && expires.Before(ps.soonest) {
		ps.soonest = expires
	}
	i := len(es)
	for i > 0 && e.before(&es[i-1]) {
		i--
	}
	ps.bySession[session] = slices.Insert(es, i, e)
	ps.n++
}

// parkedDone forgets a parked approval that has its answer.
func (s *stores) parkedDone(session, ticket string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.parked.forget(session, ticket)
	delete(s.parked.doomed, ticket)
}
