package runtime

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/toolgate/toolgate/permission"
)

// TestPipelineConcurrentSessions runs 64 goroutines over 16 sessions of one
// Pipeline (4 goroutines a session), 10,000 checks a session, 160,000 in
// all (2,500 a goroutine; under -race this takes tens of seconds on a small
// 2-core machine), while one more goroutine a session adds session rules once its
// session's first goroutine is halfway: an Allow for a command that asked,
// then a Deny for a file that was allowed. Each check's decision and reason must be one of the
// two the rule changes allow, must never go back once a rule was seen, and a
// rule added to one session must never show in another. Run it with -race;
// at the end no goroutine is left behind.
func TestPipelineConcurrentSessions(t *testing.T) {
	const (
		sessions   = 16
		perSession = 4
		perG       = 2500 // checks a goroutine: 10,000 a session
	)
	t.Cleanup(func() { goleak.VerifyNone(t) }) // registered first, so it runs after the world's own cleanups
	w := newWorld(t, exampleRules, nil)
	for s := range sessions {
		w.start(t, fmt.Sprintf("s%d", s), permission.ModeDefault)
	}
	var total atomic.Int64
	var wg sync.WaitGroup
	for s := range sessions {
		id := fmt.Sprintf("s%d", s)
		rules := liveSession(w.p, id).Rules()
		require.NotNil(t, rules)
		halfway := make(chan struct{})
		wg.Go(func() {
			// Rules added while the checks run.
			<-halfway
			assert.NoError(t, rules.Add(permission.Allow, fmt.Sprintf("Bash(mkdir -p d%d)", s)))
			assert.NoError(t, rules.Add(permission.Deny, "Read(./src/main.go)"))
		})
		for g := range perSession {
			wg.Go(func() {
				var allowedMkdir, deniedRead bool
				for i := range perG {
					if g == 0 && i == perG/2 {
						close(halfway)
					}
					// Every input is unique (an undeclared field n), so that
					// layer 7's repeat and cycle checks stay out of the way.
					n := fmt.Sprintf("%d-%d", g, i)
					var v Verdict
					switch i % 4 {
					case 0: // Ask until this session's Allow rule, then Allow.
						v = w.p.Check(context.Background(), Call{Session: id, Tool: "Bash", Input: mustJSON(t, map[string]string{"command": fmt.Sprintf("mkdir -p d%d", s), "n": n})})
						if v.Decision == permission.Allow {
							allowedMkdir = true
							assert.Equal(t, fmt.Sprintf("allowed by allow rule Bash(mkdir -p d%d) (session)", s), v.Reason)
						} else {
							assert.False(t, allowedMkdir, "an added Allow rule does not go away")
							assert.Equal(t, permission.Ask, v.Decision, v.Reason)
							assert.Equal(t, fmt.Sprintf("mkdir: writes d%d (inside the allowed roots)", s), v.Reason)
						}
					case 1: // Another session's rule never shows here.
						other := (s + 1) % sessions
						v = w.p.Check(context.Background(), Call{Session: id, Tool: "Bash", Input: mustJSON(t, map[string]string{"command": fmt.Sprintf("mkdir -p d%d", other), "n": n})})
						assert.Equal(t, permission.Ask, v.Decision, v.Reason)
						assert.Equal(t, fmt.Sprintf("mkdir: writes d%d (inside the allowed roots)", other), v.Reason)
					case 2: // Allow until the Deny rule, then Deny.
						v = w.p.Check(context.Background(), Call{Session: id, Tool: "Read", Input: mustJSON(t, map[string]string{"file_path": "src/main.go", "n": n})})
						if v.Decision == permission.Deny {
							deniedRead = true
							assert.Equal(t, "denied by deny rule Read(./src/main.go) (session)", v.Reason)
						} else {
							assert.False(t, deniedRead, "an added Deny rule does not go away")
							assert.Equal(t, permission.Allow, v.Decision, v.Reason)
							assert.Equal(t, "no rule matched; the default for read tools is allow", v.Reason)
						}
					case 3: // Always denied by the shell guard.
						v = w.p.Check(context.Background(), Call{Session: id, Tool: "Bash", Input: mustJSON(t, map[string]string{"command": "rm -rf /", "n": n})})
						assert.Equal(t, permission.Deny, v.Decision)
						assert.Equal(t, "rm: removes the critical path / recursively or by force", v.Reason)
					}
					total.Add(1)
					if t.Failed() && !(g == 0 && i < perG/2) {
						return
					}
				}
			})
		}
	}
	wg.Wait()
	assert.Equal(t, int64(sessions*perSession*perG), total.Load())
	for s := range sessions {
		v := w.p.Check(context.Background(), Call{Session: fmt.Sprintf("s%d", s), Tool: "Read", Input: in("file_path", "src/main.go", "n", "last")})
		assert.Equal(t, permission.Deny, v.Decision, "every session ends with its own Deny rule")
		assert.True(t, strings.HasSuffix(v.Reason, "(session)"))
	}
}

func mustJSON(t testing.TB, v any) json.RawMessage {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}
