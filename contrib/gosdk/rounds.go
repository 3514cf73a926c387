package gosdk

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/toolgate/toolgate/runtime"
)

// A tool may ask the client something in the middle of a call (the multi
// round-trip protocol, SEP-2322): its result carries input requests and a
// request state, and the client calls again with the answers and the
// state. Those rounds are one call: judged once, counted once by the
// repeat limit, shaped and recorded once, when the tool gives its result.
// The middleware keeps the call's verdict under a request state of its
// own, which it gives the client in place of the tool's (kept with it);
// the state is good once, for the same session, tool and input, within
// roundTTL. Any other state is the tool's business, and the call is
// judged afresh.

// roundTTL is how long a call waits for its next round; maxRounds bounds
// the calls waiting.
const (
	roundTTL  = 10 * time.Minute
	maxRounds = 1024
)

// round is a call between two of its rounds.
type round struct {
	sid, tool string
	input     []byte // the client's input, canonical
	call      runtime.Call
	v         runtime.Verdict
	inner     string // the tool's own request state
	expires   time.Time
}

// rounds are the calls waiting for their next round, by request state.
type rounds struct {
	mu sync.Mutex
	m  map[string]*round
}

// put keeps r and returns the request state to give the client.
func (rs *rounds) put(r *round, args json.RawMessage) (string, error) {
	canon, err := runtime.CanonicalInput(args)
	if err != nil {
		return "", err
	}
	r.input, r.expires = canon, time.Now().Add(roundTTL)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.m == nil {
		rs.m = map[string]*round{}
	}
	now := time.Now()
	for k, old := range rs.m {
		if now.After(old.expires) {
			delete(rs.m, k)
		}
	}
	if len(rs.m) >= maxRounds {
		return "", errors.New("too many calls wait for their next round")
	}
	state := "toolgate-" + rand.Text()
	rs.m[state] = r
	return state, nil
}

// take returns and forgets the call waiting under state, if it is this
// session's call of this tool with this input and has not expired.
func (rs *rounds) take(state, sid, tool string, args json.RawMessage) (*round, bool) {
	if state == "" {
		return nil, false
	}
	// An input the pipeline cannot read (a key twice, nested too deep)
	// continues no call: judged afresh, Check refuses it with its reason.
	canon, err := runtime.CanonicalInput(args)
	if err != nil {
		return nil, false
	}
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.m[state]
	if r == nil || r.sid != sid || r.tool != tool || !bytes.Equal(r.input, canon) {
		return nil, false
	}
	delete(rs.m, state)
	if time.Now().After(r.expires) {
		return nil, false
	}
	return r, true
}
