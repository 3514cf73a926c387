package runtime_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/store"
)

// The approvals a pipeline parks are bounded per session: past the bound
// the oldest is answered with a Deny that says why, and the new one is
// parked (a host that never resumes its tickets is not refused for it);
// an answered or expired approval frees its place.
func TestParkedApprovalsAreBounded(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	p := replica(t, dir, st, 300*time.Millisecond)
	start(t, p, "s1")
	call := func(n int) runtime.Verdict {
		in := json.RawMessage(fmt.Sprintf(`{"command":"make target%d"}`, n))
		return p.Check(t.Context(), runtime.Call{Session: "s1", ID: fmt.Sprintf("c%d", n), Tool: "Bash", Input: in})
	}
	var tickets []string
	for n := range runtime.DefaultMaxParkedPerSession {
		v := call(n)
		require.Equal(t, permission.Ask, v.Decision, "ask %d: %s", n, v.Reason)
		require.NotEmpty(t, v.Ticket, "ask %d parks an approval", n)
		tickets = append(tickets, v.Ticket)
	}
	v := call(100)
	assert.Equal(t, permission.Ask, v.Decision, "past the bound the call still asks: %s", v.Reason)
	require.NotEmpty(t, v.Ticket)
	pend, err := st.Pending(t.Context())
	require.NoError(t, err)
	assert.Len(t, pend, runtime.DefaultMaxParkedPerSession, "the store holds no more than the bound")
	rv, err := p.Resume(t.Context(), tickets[0])
	require.NoError(t, err)
	assert.Equal(t, permission.Deny, rv.Decision, rv.Reason)
	assert.Equal(t, runtime.RuleParkedFull, rv.Rule)
	assert.Equal(t, permission.LayerRuntime, rv.Layer)
	assert.Equal(t, fmt.Sprintf("denied by toolgate to make room: its session's bound of %d approvals waiting for a person was reached"+
		" (%d pending in the session, %d of %d in the pipeline), and this was the oldest; ask again",
		runtime.DefaultMaxParkedPerSession, runtime.DefaultMaxParkedPerSession, runtime.DefaultMaxParkedPerSession, runtime.DefaultMaxParked), rv.Reason)
	tickets = append(tickets[1:], v.Ticket)

	// Another session has room of its own.
	start(t, p, "s2")
	v = p.Check(t.Context(), runtime.Call{Session: "s2", ID: "x", Tool: "Bash", Input: json.RawMessage(`{"command":"make other"}`)})
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)

	// An answered approval frees its place: the next park evicts none.
	require.NoError(t, st.AnswerApproval(t.Context(), tickets[0], store.Answer{Choice: store.ChoiceDeny, By: "ann"}))
	rv, err = p.Resume(t.Context(), tickets[0])
	require.NoError(t, err)
	assert.Equal(t, runtime.RuleDenied, rv.Rule, rv.Reason)
	v = call(101)
	require.Equal(t, permission.Ask, v.Decision, v.Reason)
	pend, err = st.Pending(t.Context())
	require.NoError(t, err)
	assert.Len(t, pend, runtime.DefaultMaxParkedPerSession+1, "s1 at its bound, and s2's one")
	assert.True(t, slices.ContainsFunc(pend, func(ap store.Approval) bool { return ap.ID == tickets[1] }),
		"an answered approval freed its place: the oldest waiting one stays")

	// Expired approvals free theirs.
	time.Sleep(400 * time.Millisecond)
	v = call(102)
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.NotEmpty(t, v.Ticket)

}

// boundedReplica is a pipeline on st with small bounds of parked
// approvals.
func boundedReplica(t *testing.T, st store.Store, max, perSession int) *runtime.Pipeline {
	t.Helper()
	p, err := runtime.Open(runtime.Workspace{Dir: workspaceDir(t), Rules: permission.Config{Default: permission.Ask},
		Store: st, User: "ann", AskTimeout: time.Minute, MaxParked: max, MaxParkedPerSession: perSession,
		Limits: runtime.Limits{MaxSteps: 1 << 20}})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

// The pipeline's bound holds across sessions: past it, the oldest of any
// session is denied to make room, with the pipeline's bound and count in
// the reason.
func TestParkedApprovalsPipelineBound(t *testing.T) {
	st := store.NewMemory()
	p := boundedReplica(t, st, 3, 2)
	var tickets []string
	for i, sid := range []string{"a", "b", "c", "d"} {
		start(t, p, sid)
		in := json.RawMessage(fmt.Sprintf(`{"command":"make t%d"}`, i))
		v := p.Check(t.Context(), runtime.Call{Session: sid, ID: sid, Tool: "Bash", Input: in})
		require.Equal(t, permission.Ask, v.Decision, v.Reason)
		require.NotEmpty(t, v.Ticket)
		tickets = append(tickets, v.Ticket)
		time.Sleep(2 * time.Millisecond) // each expires after the one before
	}
	pend, err := st.Pending(t.Context())
	require.NoError(t, err)
	assert.Len(t, pend, 3, "the store holds no more than the pipeline's bound")
	rv, err := p.Resume(t.Context(), tickets[0])
	require.NoError(t, err)
	assert.Equal(t, permission.Deny, rv.Decision, rv.Reason)
	assert.Equal(t, permission.LayerRuntime, rv.Layer)
	assert.Equal(t, runtime.RuleParkedFull, rv.Rule)
	assert.Equal(t, "denied by toolgate to make room: the pipeline's bound of 3 approvals waiting for a person was reached"+
		" (3 pending in the pipeline), and this was the oldest; ask again", rv.Reason)
}

// Many goroutines asking at once in a few sessions never park more than
// the bounds, and every approval denied to make room says so on Resume
// (run with -race).
func TestParkedApprovalsBoundedConcurrently(t *testing.T) {
	st := store.NewMemory()
	const max, perSession, sessions, each = 12, 5, 4, 25
	p := boundedReplica(t, st, max, perSession)
	for s := range sessions {
		start(t, p, fmt.Sprint("s", s))
	}
	var mu sync.Mutex
	var tickets []string
	var wg sync.WaitGroup
	for g := range sessions * each {
		wg.Go(func() {
			sid := fmt.Sprint("s", g%sessions)
			in := json.RawMessage(fmt.Sprintf(`{"command":"make t%d"}`, g))
			v := p.Check(t.Context(), runtime.Call{Session: sid, ID: fmt.Sprint("c", g), Tool: "Bash", Input: in})
			assert.Equal(t, permission.Ask, v.Decision, v.Reason)
			assert.NotEmpty(t, v.Ticket)
			mu.Lock()
			tickets = append(tickets, v.Ticket)
			mu.Unlock()
		})
	}
	wg.Wait()
	pend, err := st.Pending(t.Context())
	require.NoError(t, err)
	assert.LessOrEqual(t, len(pend), max, "the pipeline's bound")
	bySession := map[string]int{}
	for _, ap := range pend {
		bySession[ap.Session]++
	}
	for sid, n := range bySession {
		assert.LessOrEqual(t, n, perSession, "session %s", sid)
	}
	denied := 0
	for _, tk := range tickets {
		ap, err := st.Approval(t.Context(), tk)
		require.NoError(t, err)
		if !ap.Answered {
			continue
		}
		rv, err := p.Resume(t.Context(), tk)
		require.NoError(t, err)
		denied++
		assert.Equal(t, permission.Deny, rv.Decision, rv.Reason)
		assert.Equal(t, runtime.RuleParkedFull, rv.Rule, rv.Reason)
		assert.Contains(t, rv.Reason, "bound of ")
		assert.Contains(t, rv.Reason, " approvals waiting for a person was reached (")
	}
	assert.Equal(t, len(tickets)-len(pend), denied, "every approval not pending was denied to make room")
}
