package runtime_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/store"
)

// A parked approval waits for a person ten minutes unless the host says
// otherwise (ParkTimeout, or AskTimeout as before ParkTimeout existed), and
// carries what the approval page shows: the agent, the script and which
// of its commands asks, and why.
func TestParkedApprovalTimeAndShell(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ask, park  time.Duration
		wantExpiry time.Duration
	}{
		{"default", 0, 0, 10 * time.Minute},
		{"ParkTimeout", 30 * time.Second, 3 * time.Minute, 3 * time.Minute},
		{"AskTimeout alone bounds parking too", 90 * time.Second, 0, 90 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := workspaceDir(t)
			st := store.NewMemory()
			p, err := runtime.Open(runtime.Workspace{Dir: dir, Store: st, User: "ann", AskTimeout: tc.ask, ParkTimeout: tc.park,
				Rules: permission.Config{Default: permission.Ask, Allow: []string{"Bash(git status)"}}})
			require.NoError(t, err)
			t.Cleanup(func() { p.Close() })
			start(t, p, "s1")
			script := "git status &&\n  make build"
			v := p.Check(t.Context(), runtime.Call{Session: "s1", ID: "c1", Tool: "Bash", Input: json.RawMessage(`{"command":` + quote(script) + `}`)})
			require.Equal(t, permission.Ask, v.Decision, v.Reason)
			require.NotEmpty(t, v.Ticket)
			ap, err := st.Approval(t.Context(), v.Ticket)
			require.NoError(t, err)
			assert.Equal(t, tc.wantExpiry, ap.Expires.Sub(ap.Created), "how long the approval waits")
			assert.Equal(t, "lead", ap.Agent)
			assert.Equal(t, dir, ap.Project)
			assert.Equal(t, script, ap.Script)
			require.Len(t, ap.Commands, 2)
			assert.Equal(t, store.ApprovalCommand{Args: []string{"git", "status"}, Pos: "1:1", Reason: ap.Commands[0].Reason}, ap.Commands[0],
				"git status is allowed: it is not why the call asks")
			assert.Equal(t, []string{"make", "build"}, ap.Commands[1].Args)
			assert.Equal(t, "2:3", ap.Commands[1].Pos)
			assert.True(t, ap.Commands[1].Asks, "make build is why the call asks")
			assert.NotEmpty(t, ap.Commands[1].Reason)
		})
	}
	_, err := runtime.New(runtime.Config{ParkTimeout: -time.Second})
	assert.ErrorContains(t, err, "negative AskTimeout, ParkTimeout")
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// An "allow always" answered through a StoreAsker for the project says so:
// the rules were granted to the project (the store holds them), not only
// to the session.
func TestAskerAllowAlwaysNamesTheScopeChosen(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	asker := approval.NewStoreAsker(st, dir, "ann")
	defer asker.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask},
		Store: st, Asker: asker, AskTimeout: time.Minute, AgentName: "builder"})
	require.NoError(t, err)
	defer p.Close()
	start(t, p, "s1")
	done := make(chan runtime.Verdict)
	go func() { done <- p.Check(t.Context(), makeBuild("s1")) }()
	var pend []store.Approval
	require.Eventually(t, func() bool { pend, _ = st.Pending(t.Context()); return len(pend) == 1 },
		5*time.Second, time.Millisecond, "the ask never reached the store")
	assert.Equal(t, "builder", pend[0].Agent, "the asker records the agent")
	assert.Equal(t, "make build", pend[0].Script)
	require.Len(t, pend[0].Commands, 1)
	assert.True(t, pend[0].Commands[0].Asks)
	require.NoError(t, st.AnswerApproval(t.Context(), pend[0].ID, store.Answer{Choice: store.ChoiceAllowAlways, Scope: store.ScopeProject, By: "ann"}))
	v := <-done
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "; added project rules Bash(make build)")
	rules, err := st.Grants(t.Context(), store.ScopeProject, dir)
	require.NoError(t, err)
	assert.Equal(t, []string{"Bash(make build)"}, rules, "the store holds the project grant")
}
