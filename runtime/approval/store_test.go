package approval_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/store"
)

// Two sessions whose requests carry the same ID each get an approval of
// their own, under a ticket StoreAsker makes, and their own answer; a
// request naming no session is refused.
func TestStoreAskerTicketsAreItsOwn(t *testing.T) {
	st := store.NewMemory()
	a := approval.NewStoreAsker(st, "/w", "ann")
	defer a.Close()
	type res struct {
		ans approval.Answer
		err error
	}
	got := map[string]chan res{}
	for _, s := range []string{"s1", "s2"} {
		got[s] = make(chan res, 1)
		go func() {
			ans, err := a.Ask(context.Background(), approval.Request{ID: "toolu_1", Session: s, Tool: "Bash", Reason: "why"})
			got[s] <- res{ans, err}
		}()
	}
	var pend []store.Approval
	require.Eventually(t, func() bool { pend, _ = st.Pending(t.Context()); return len(pend) == 2 }, 5*time.Second, time.Millisecond,
		"both requests are recorded")
	for _, p := range pend {
		assert.NotEqual(t, "toolu_1", p.ID)
		assert.Regexp(t, `^ask-[0-9a-f]{32}$`, p.ID)
		choice := map[string]uint8{"s1": store.ChoiceAllowOnce, "s2": store.ChoiceDeny}[p.Session]
		require.NoError(t, st.AnswerApproval(t.Context(), p.ID, store.Answer{Choice: choice, Reason: "for " + p.Session}))
	}
	for s, want := range map[string]approval.Answer{"s1": {Choice: approval.AllowOnce, Reason: "for s1"}, "s2": {Choice: approval.Deny, Reason: "for s2"}} {
		r := <-got[s]
		require.NoError(t, r.err, s)
		assert.Equal(t, want, r.ans, s)
	}

	_, err := a.Ask(t.Context(), approval.Request{Tool: "Bash"})
	assert.EqualError(t, err, "approval: a request to the store names no session")
}
