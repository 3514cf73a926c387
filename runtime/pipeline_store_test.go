package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/store"
)

// replica opens a pipeline on dir over st, as one worker of many would.
func replica(t *testing.T, dir string, st store.Store, timeout time.Duration) *runtime.Pipeline {
	t.Helper()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask},
		Store: st, User: "ann", AskTimeout: timeout})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

// waitRule waits until session id on p has the Allow rule.
func waitRule(t *testing.T, p *runtime.Pipeline, id, rule string) {
	t.Helper()
	s, err := p.Session(t.Context(), runtime.SessionOptions{ID: id}) // live: a get
	require.NoError(t, err)
	rules := s.Rules()
	require.Eventually(t, func() bool {
		for _, r := range rules.Rules() {
			if r.Decision == permission.Allow && r.Rule == rule {
				return true
			}
		}
		return false
	}, 5*time.Second, time.Millisecond, "session %s never got the rule %s", id, rule)
}

func makeBuild(session string) runtime.Call {
	return runtime.Call{Session: session, ID: "c1", Tool: "Bash", Input: json.RawMessage(`{"command":"make build"}`)}
}

func start(t *testing.T, p *runtime.Pipeline, id string) *runtime.Session {
	t.Helper()
	s, err := p.Session(t.Context(), runtime.SessionOptions{ID: id})
	require.NoError(t, err)
	t.Cleanup(func() { s.End("test over", "", nil) })
	return s
}

// A grant made through one replica reaches a live session on another that
// shares the store, and a session started later on a third.
func TestStoreGrantReachesReplicas(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	a, b := replica(t, dir, st, 0), replica(t, dir, st, 0)
	start(t, b, "s1")
	v := b.Check(t.Context(), makeBuild("s1"))
	require.Equal(t, permission.Ask, v.Decision, v.Reason)

	require.NoError(t, a.Grant(t.Context(), store.ScopeSession, "s1", "Bash(make build)"))
	waitRule(t, b, "s1", "Bash(make build)")
	v = b.Check(t.Context(), makeBuild("s1"))
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Equal(t, "Bash(make build)", string(v.Rule))

	// Another session is not granted; a project grant reaches it.
	start(t, b, "s2")
	v = b.Check(t.Context(), makeBuild("s2"))
	assert.Equal(t, permission.Ask, v.Decision, "a session grant leaked to another session: %s", v.Reason)
	require.NoError(t, a.Grant(t.Context(), store.ScopeProject, "", "Bash(make build)"))
	waitRule(t, b, "s2", "Bash(make build)")
	v = b.Check(t.Context(), makeBuild("s2"))
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)

	// A session started later on a third replica has the grants at once.
	c := replica(t, dir, st, 0)
	start(t, c, "s1")
	v = c.Check(t.Context(), makeBuild("s1"))
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)

	assert.ErrorContains(t, a.Grant(t.Context(), store.ScopeSession, "s1", "Bash(make"), "Bash(make",
		"a rule that does not parse is refused before it is shared")
}

// An Ask with no Asker comes back with a ticket; the answer, given through
// the store, completes it on any replica; allow always grants the rule.
func TestStoreResume(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	a, b := replica(t, dir, st, time.Minute), replica(t, dir, st, time.Minute)
	start(t, a, "s1")
	v := a.Check(t.Context(), makeBuild("s1"))
	require.Equal(t, permission.Ask, v.Decision, v.Reason)
	require.NotEmpty(t, v.Ticket, "an Ask without an Asker carries a ticket")

	pend, err := st.Pending(t.Context())
	require.NoError(t, err)
	require.Len(t, pend, 1)
	assert.Equal(t, v.Ticket, pend[0].ID)
	assert.Equal(t, []string{"Bash(make build)"}, pend[0].AlwaysRules)
	assert.Contains(t, pend[0].Explanation, "ask Bash: ")
	assert.Contains(t, pend[0].Explanation, "command make build")

	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	_, err = b.Resume(ctx, v.Ticket)
	cancel()
	assert.ErrorIs(t, err, context.DeadlineExceeded, "Resume waits while the approval is pending")

	done := make(chan runtime.Verdict)
	go func() {
		rv, err := b.Resume(t.Context(), v.Ticket)
		assert.NoError(t, err)
		done <- rv
	}()
	require.NoError(t, st.AnswerApproval(t.Context(), v.Ticket, store.Answer{Choice: store.ChoiceAllowAlways, By: "ann"}))
	rv := <-done
	assert.Equal(t, permission.Allow, rv.Decision)
	assert.Equal(t, "person:allow-always", string(rv.Rule))
	assert.Contains(t, rv.Reason, "added session rules Bash(make build)")
	assert.JSONEq(t, `{"command":"make build"}`, string(rv.Input))
	// Resumed again (a replay of the ticket): the same answer, not a new one.
	rv2, err := a.Resume(t.Context(), v.Ticket)
	require.NoError(t, err)
	assert.Equal(t, rv.Decision, rv2.Decision)
	assert.Equal(t, approval.AllowAlways, rv2.Answer)

	// The grant reached the session on a.
	waitRule(t, a, "s1", "Bash(make build)")
	v = a.Check(t.Context(), makeBuild("s1"))
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)

	_, err = a.Resume(t.Context(), "ask-nope")
	assert.ErrorIs(t, err, runtime.ErrUnknownTicket)
}

func TestStoreResumeDenies(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	a := replica(t, dir, st, 30*time.Millisecond)
	start(t, a, "s1")
	start(t, a, "s2")

	v := a.Check(t.Context(), makeBuild("s1"))
	require.NotEmpty(t, v.Ticket)
	require.NoError(t, st.AnswerApproval(t.Context(), v.Ticket, store.Answer{Choice: store.ChoiceDeny, Reason: "not now"}))
	rv, err := a.Resume(t.Context(), v.Ticket)
	require.NoError(t, err)
	assert.Equal(t, permission.Deny, rv.Decision)
	assert.Equal(t, "the person denied it: not now", rv.Reason)

	// Unanswered: a Deny once it expires.
	v = a.Check(t.Context(), makeBuild("s2"))
	require.NotEmpty(t, v.Ticket)
	rv, err = a.Resume(t.Context(), v.Ticket)
	require.NoError(t, err)
	assert.Equal(t, permission.Deny, rv.Decision)
	assert.Equal(t, "person:timeout", string(rv.Rule))
	assert.Contains(t, rv.Reason, "no answer by")
}

// A cancel issued on one replica stops the session on another, and a
// cancelled session started again starts cancelled.
func TestStoreCancelReachesReplicas(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	a, b := replica(t, dir, st, time.Minute), replica(t, dir, st, time.Minute)
	s := start(t, a, "s1")
	v := a.Check(t.Context(), makeBuild("s1"))
	require.NotEmpty(t, v.Ticket)

	require.NoError(t, b.Cancel(t.Context(), "s1", "user pressed stop"))
	select {
	case <-s.Context().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the cancel never reached replica a")
	}
	assert.ErrorIs(t, context.Cause(s.Context()), runtime.ErrCancelled)
	assert.Contains(t, context.Cause(s.Context()).Error(), "user pressed stop")
	v2 := a.Check(t.Context(), makeBuild("s1"))
	assert.Equal(t, permission.Deny, v2.Decision)
	assert.Contains(t, v2.Reason, "session is cancelled")

	// The pending ask of a cancelled session resumes as a Deny.
	rv, err := b.Resume(t.Context(), v.Ticket)
	require.NoError(t, err)
	assert.Equal(t, permission.Deny, rv.Decision)
	assert.Equal(t, "session is cancelled: user pressed stop", rv.Reason)

	c := replica(t, dir, st, time.Minute)
	s3 := start(t, c, "s1")
	assert.ErrorContains(t, context.Cause(s3.Context()), "user pressed stop", "a cancelled session starts cancelled elsewhere")
}

// A session carried on by another worker keeps its step count, its tokens
// and its recent calls.
func TestStoreCountersMove(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	a := replica(t, dir, st, time.Minute)
	s := start(t, a, "s1")
	read := runtime.Call{Session: "s1", Tool: "Read", Input: json.RawMessage(`{"file_path":"main.go"}`)}
	for range 2 {
		s.BeginStep()
		s.AddTokens(500)
		a.Check(t.Context(), read)
	}
	s.BeginStep()
	require.True(t, s.End("worker moves", "", nil))

	b := replica(t, dir, st, time.Minute)
	s2 := start(t, b, "s1")
	st2 := s2.Status()
	assert.Equal(t, 3, st2.Step, "the step count moved")
	assert.Equal(t, 1000, st2.Tokens, "the token count moved")
	// The third identical call in a row is a repeat (RepeatLimit 3): the
	// two before it were made on the other worker.
	v := b.Check(t.Context(), read)
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Equal(t, "runtime:repeat", string(v.Rule))
	assert.Contains(t, v.Reason, "3 times in a row")
}

// The StoreAsker parks a Check until the person answers through the
// store, from anywhere; the call then completes with that answer.
func TestApprovalAsker(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	asker := approval.NewStoreAsker(st, dir, "ann")
	defer asker.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask},
		Store: st, Asker: asker, AskTimeout: time.Minute})
	require.NoError(t, err)
	defer p.Close()
	start(t, p, "s1")
	done := make(chan runtime.Verdict)
	go func() { done <- p.Check(t.Context(), makeBuild("s1")) }()
	var pend []store.Approval
	require.Eventually(t, func() bool { pend, _ = st.Pending(t.Context()); return len(pend) == 1 },
		5*time.Second, time.Millisecond, "the ask never reached the store")
	assert.Equal(t, []string{"Bash(make build)"}, pend[0].AlwaysRules)
	assert.Contains(t, pend[0].Explanation, "command make build")
	require.NoError(t, st.AnswerApproval(t.Context(), pend[0].ID, store.Answer{Choice: store.ChoiceAllowOnce}))
	v := <-done
	assert.Equal(t, permission.Allow, v.Decision)
	assert.Equal(t, "person:allow-once", string(v.Rule))
	assert.True(t, v.Asked)

	go func() {
		done <- p.Check(t.Context(), runtime.Call{Session: "s1", Tool: "Bash", Input: json.RawMessage(`{"command":"make test"}`)})
	}()
	require.Eventually(t, func() bool { pend, _ = st.Pending(t.Context()); return len(pend) == 1 }, 5*time.Second, time.Millisecond)
	require.NoError(t, st.AnswerApproval(t.Context(), pend[0].ID, store.Answer{Choice: store.ChoiceDeny, Reason: "tests later"}))
	v = <-done
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Equal(t, "the person denied it: tests later", v.Reason)
}

// An answer given while no Resume waits reaches no pipeline's watcher
// (nothing waits for it); a Resume begun at any moment around it still
// gets it, whichever comes first.
func TestStoreResumeRacesAnswer(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	p := replica(t, dir, st, time.Minute)
	start(t, p, "s1")
	for i := range 50 {
		v := p.Check(t.Context(), runtime.Call{Session: "s1", ID: fmt.Sprintf("c%d", i), Tool: "Bash", Input: json.RawMessage(fmt.Sprintf(`{"command":"make t%d"}`, i))})
		require.Equal(t, permission.Ask, v.Decision, v.Reason)
		require.NotEmpty(t, v.Ticket)
		done := make(chan runtime.Verdict, 1)
		go func() {
			rv, err := p.Resume(t.Context(), v.Ticket)
			assert.NoError(t, err)
			done <- rv
		}()
		if i%2 == 0 {
			goruntime.Gosched()
		}
		require.NoError(t, st.AnswerApproval(t.Context(), v.Ticket, store.Answer{Choice: store.ChoiceDeny, By: "ann", Reason: "not now"}))
		select {
		case rv := <-done:
			assert.Equal(t, permission.Deny, rv.Decision)
			assert.Contains(t, rv.Reason, "not now")
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: Resume never heard the answer", i)
		}
	}
}
