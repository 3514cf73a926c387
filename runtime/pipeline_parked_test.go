package runtime_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/store"
)

// The approvals a pipeline parks are bounded per session: past the bound
// the call is denied, saying why; an answered or expired approval frees
// its place.
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
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Equal(t, runtime.RuleParkedFull, v.Rule)
	assert.Contains(t, v.Reason, fmt.Sprintf("%d approvals of this session are already waiting for a person (at most %d)", runtime.DefaultMaxParkedPerSession, runtime.DefaultMaxParkedPerSession))
	assert.Empty(t, v.Ticket, "a call denied for a full store parks nothing")

	// Another session has room of its own.
	start(t, p, "s2")
	v = p.Check(t.Context(), runtime.Call{Session: "s2", ID: "x", Tool: "Bash", Input: json.RawMessage(`{"command":"make other"}`)})
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)

	// An answered approval frees its place.
	require.NoError(t, st.AnswerApproval(t.Context(), tickets[0], store.Answer{Choice: store.ChoiceDeny, By: "ann"}))
	rv, err := p.Resume(t.Context(), tickets[0])
	require.NoError(t, err)
	assert.Equal(t, permission.Deny, rv.Decision, rv.Reason)
	v = call(101)
	assert.Equal(t, permission.Ask, v.Decision, "an answered approval frees its place: %s", v.Reason)

	// Expired approvals free theirs.
	time.Sleep(400 * time.Millisecond)
	v = call(102)
	assert.Equal(t, permission.Ask, v.Decision, "expired approvals free their places: %s", v.Reason)
	assert.NotEmpty(t, v.Ticket)
}
