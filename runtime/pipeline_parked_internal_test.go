package runtime

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// parkReserve forgets the approvals that expired before it makes room,
// whether or not it knows when the first expires, and makes room by the
// oldest waiting one otherwise.
func TestParkReserveExpiry(t *testing.T) {
	var s stores
	t0 := time.Unix(1_000_000, 0)
	// Two sessions, each at its bound of 2; a's first expires first.
	s.parkReserve("a", "a1", t0.Add(1*time.Second), t0, 100, 2)
	s.parkReserve("b", "b1", t0.Add(2*time.Second), t0, 100, 2)
	s.parkReserve("a", "a2", t0.Add(3*time.Second), t0, 100, 2)
	s.parkReserve("b", "b2", t0.Add(4*time.Second), t0, 100, 2)
	require.Equal(t, 4, s.parked.n)

	// Nothing expired: a's oldest makes room, and nothing else goes.
	ev := s.parkReserve("a", "a3", t0.Add(5*time.Second), t0, 100, 2)
	assert.Empty(t, ev, "not yet in the store: answered by its own park")
	assert.Contains(t, s.parked.doomed, "a1")
	assert.Equal(t, []string{"a2", "a3"}, tickets(s.parked.bySession["a"]))
	assert.Equal(t, []string{"b1", "b2"}, tickets(s.parked.bySession["b"]))

	// At t0+2.5s b1 has expired: it goes, and b's bound has room again.
	s.parkReserve("b", "b3", t0.Add(6*time.Second), t0.Add(2500*time.Millisecond), 100, 2)
	assert.Equal(t, []string{"b2", "b3"}, tickets(s.parked.bySession["b"]))
	assert.NotContains(t, s.parked.doomed, "b2")

	// An entry that expires sooner than any kept: it goes first when its
	// time has come, whatever was known of the soonest.
	s.parkReserve("c", "c1", t0.Add(2600*time.Millisecond), t0.Add(2500*time.Millisecond), 100, 2)
	s.parkReserve("a", "a4", t0.Add(7*time.Second), t0.Add(2700*time.Millisecond), 100, 2)
	assert.NotContains(t, s.parked.bySession, "c", "c1 expired at t0+2.6s")
	total := 0
	for sid := range s.parked.bySession {
		total += len(s.parked.bySession[sid])
	}
	assert.Equal(t, total, s.parked.n)
	for i := range 3 {
		s.parkReserve("d", "d"+strconv.Itoa(i), t0.Add(time.Hour), t0.Add(2700*time.Millisecond), 100, 8)
	}
	assert.Equal(t, []string{"d0", "d1", "d2"}, tickets(s.parked.bySession["d"]))
}

func tickets(es []parkedEntry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ticket)
	}
	return out
}
