package runtime_test

import (
	"encoding/json"
	"fmt"
	"slices"
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
	assert.Equal(t, fmt.Sprintf("denied by toolgate to make room: more approvals were waiting for a person than %d of a session or %d of the pipeline; ask again",
		runtime.DefaultMaxParkedPerSession, runtime.DefaultMaxParked), rv.Reason)
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
