package runtime_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/store"
)

// stallStore is a Memory whose every call, once stalled, blocks until
// the test ends, whatever its context says: a database that stopped
// answering, behind a driver that ignores deadlines.
type stallStore struct {
	*store.Memory
	stalled atomic.Bool
	end     chan struct{}
}

func newStallStore(t *testing.T) *stallStore {
	s := &stallStore{Memory: store.NewMemory(), end: make(chan struct{})}
	t.Cleanup(func() { close(s.end) })
	return s
}

func (s *stallStore) wait() {
	if s.stalled.Load() {
		<-s.end
	}
}

func (s *stallStore) AddGrant(ctx context.Context, g store.Grant) error {
	s.wait()
	return s.Memory.AddGrant(ctx, g)
}

func (s *stallStore) Grants(ctx context.Context, sc store.Scope, key string) ([]string, error) {
	s.wait()
	return s.Memory.Grants(ctx, sc, key)
}

func (s *stallStore) PutApproval(ctx context.Context, a store.Approval) error {
	s.wait()
	return s.Memory.PutApproval(ctx, a)
}

func (s *stallStore) Approval(ctx context.Context, id string) (store.Approval, error) {
	s.wait()
	return s.Memory.Approval(ctx, id)
}

func (s *stallStore) Cancelled(ctx context.Context, session string) (string, bool, error) {
	s.wait()
	return s.Memory.Cancelled(ctx, session)
}

func (s *stallStore) CancelSession(ctx context.Context, session, reason string) error {
	s.wait()
	return s.Memory.CancelSession(ctx, session, reason)
}

func (s *stallStore) SaveCounters(ctx context.Context, session string, c store.Counters) error {
	s.wait()
	return s.Memory.SaveCounters(ctx, session, c)
}

func (s *stallStore) Counters(ctx context.Context, session string) (store.Counters, bool, error) {
	s.wait()
	return s.Memory.Counters(ctx, session)
}

// within runs fn and fails the test if it has not returned after d.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s still waiting after %s: a stalled store hangs it", what, d)
	}
}

// A store that stops answering (and ignores its deadline) costs session
// start, Check and BeginStep the store's timeout, never a hang; each
// failure is a Deny or an error that says the store did not answer.
func TestStoreStalledNeverHangs(t *testing.T) {
	t.Parallel()
	dir := workspaceDir(t)
	st := newStallStore(t)
	bounded := store.Bound(st, 100*time.Millisecond)
	p := replica(t, dir, bounded, time.Minute)
	asker := approval.NewStoreAsker(bounded, dir, "ann")
	defer asker.Close()
	pa, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask},
		Store: bounded, Asker: asker, User: "ann", AskTimeout: time.Minute})
	require.NoError(t, err)
	defer pa.Close()
	s1 := start(t, p, "s1")
	start(t, pa, "s1")
	st.stalled.Store(true)

	within(t, 2*time.Second, "session start", func() {
		_, err := p.Session(t.Context(), runtime.SessionOptions{ID: "s2"})
		require.ErrorIs(t, err, store.ErrTimeout)
		assert.ErrorContains(t, err, "loading session grants")
	})
	within(t, 2*time.Second, "Check parking an ask", func() {
		v := p.Check(t.Context(), makeBuild("s1"))
		assert.Equal(t, permission.Deny, v.Decision, v.Reason)
		assert.Equal(t, runtime.RuleStore, v.Rule)
		assert.Contains(t, v.Reason, "the approval could not be recorded: ")
		assert.Contains(t, v.Reason, "no answer before the deadline (recording an approval, 100ms)")
		assert.Empty(t, v.Ticket)
	})
	within(t, 2*time.Second, "Check asking through the store", func() {
		v := pa.Check(t.Context(), makeBuild("s1"))
		assert.Equal(t, permission.Deny, v.Decision, v.Reason)
		assert.Contains(t, v.Reason, "approval failed: store: no answer before the deadline (recording an approval, 100ms)")
	})
	within(t, 2*time.Second, "BeginStep", func() { s1.BeginStep() })
	within(t, 2*time.Second, "Cancel", func() {
		assert.ErrorIs(t, p.Cancel(t.Context(), "s1", "stop"), store.ErrTimeout)
	})
	v := p.Check(t.Context(), makeBuild("s1"))
	assert.Equal(t, permission.Deny, v.Decision, "cancelled here even though the store did not record it")
	assert.Contains(t, v.Reason, "session cancelled: stop")

	// Without a bound of its own, the pipeline bounds the store with
	// store.DefaultTimeout.
	raw := newStallStore(t)
	pr := replica(t, dir, raw, time.Minute)
	start(t, pr, "s1")
	raw.stalled.Store(true)
	within(t, store.DefaultTimeout+2*time.Second, "Check on an unbounded store", func() {
		v := pr.Check(t.Context(), makeBuild("s1"))
		assert.Equal(t, permission.Deny, v.Decision, v.Reason)
		assert.Contains(t, v.Reason, "no answer before the deadline (recording an approval, 5s)")
	})
}

// The model names its calls, and two sessions may name theirs alike:
// StoreAsker keys each approval by a ticket of its own, so both asks are
// recorded and each gets its own answer.
func TestStoreAskerSameCallIDInTwoSessions(t *testing.T) {
	dir := workspaceDir(t)
	st := store.NewMemory()
	asker := approval.NewStoreAsker(st, dir, "ann")
	defer asker.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask},
		Store: st, Asker: asker, User: "ann", AskTimeout: time.Minute})
	require.NoError(t, err)
	defer p.Close()
	assertTwoSessionsSameCallID(t, p, p, st)
}

// assertTwoSessionsSameCallID asks make build with call id "toolu_1" in
// session a1 on p1 and a2 on p2 at once, allows the first and denies the
// second through st.
func assertTwoSessionsSameCallID(t *testing.T, p1, p2 *runtime.Pipeline, st store.Store) {
	t.Helper()
	s1, s2 := fmt.Sprintf("a1-%d", time.Now().UnixNano()), fmt.Sprintf("a2-%d", time.Now().UnixNano())
	start(t, p1, s1)
	start(t, p2, s2)
	got := make(map[string]chan runtime.Verdict)
	for _, c := range []struct {
		p *runtime.Pipeline
		s string
	}{{p1, s1}, {p2, s2}} {
		ch := make(chan runtime.Verdict, 1)
		got[c.s] = ch
		go func() {
			call := makeBuild(c.s)
			call.ID = "toolu_1"
			ch <- c.p.Check(context.Background(), call)
		}()
	}
	ids := map[string]string{}
	require.Eventually(t, func() bool {
		ps, err := st.Pending(t.Context())
		if err != nil {
			return false
		}
		for _, a := range ps {
			if a.Session == s1 || a.Session == s2 {
				ids[a.Session] = a.ID
			}
		}
		return len(ids) == 2
	}, 10*time.Second, 5*time.Millisecond, "both asks reach the store")
	assert.NotEqual(t, "toolu_1", ids[s1], "the approval's id is toolgate's, not the model's")
	require.NoError(t, st.AnswerApproval(t.Context(), ids[s1], store.Answer{Choice: store.ChoiceAllowOnce, By: "ann"}))
	require.NoError(t, st.AnswerApproval(t.Context(), ids[s2], store.Answer{Choice: store.ChoiceDeny, Reason: "not now", By: "ann"}))
	for s, want := range map[string]struct {
		d      permission.Decision
		reason string
	}{s1: {permission.Allow, "the person allowed it (allow-once) after: "}, s2: {permission.Deny, "the person denied it: not now"}} {
		select {
		case v := <-got[s]:
			assert.Equal(t, want.d, v.Decision, "%s: %s", s, v.Reason)
			assert.Contains(t, v.Reason, want.reason, s)
		case <-time.After(10 * time.Second):
			t.Fatalf("session %s never got its answer", s)
		}
	}
}

// A session grant belongs to one session of one project and user: the
// same session id in another workspace, or for another user, sharing the
// store, does not see it.
func TestSessionGrantsStayWithTheirWorkspaceAndUser(t *testing.T) {
	st := store.NewMemory()
	d1, d2 := workspaceDir(t), workspaceDir(t)
	p1 := replica(t, d1, st, time.Minute)
	p2 := replica(t, d2, st, time.Minute)
	p3, err := runtime.Open(runtime.Workspace{Dir: d1, Rules: permission.Config{Default: permission.Ask}, Store: st, User: "bob"})
	require.NoError(t, err)
	defer p3.Close()
	start(t, p1, "s")
	require.NoError(t, p1.Grant(t.Context(), store.ScopeSession, "s", "Bash(make build)"))
	waitRule(t, p1, "s", "Bash(make build)")
	v := p1.Check(t.Context(), makeBuild("s"))
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)

	// An allow-always answer for the session, on a parked ask.
	park := p1.Check(t.Context(), runtime.Call{Session: "s", Tool: "Bash", Input: []byte(`{"command":"make test"}`)})
	require.NotEmpty(t, park.Ticket, park.Reason)
	require.NoError(t, st.AnswerApproval(t.Context(), park.Ticket, store.Answer{Choice: store.ChoiceAllowAlways, Scope: store.ScopeSession}))
	waitRule(t, p1, "s", "Bash(make test)")

	for name, p := range map[string]*runtime.Pipeline{"another workspace": p2, "another user": p3} {
		start(t, p, "s")
		for _, cmd := range []string{"make build", "make test"} {
			v := p.Check(t.Context(), runtime.Call{Session: "s", Tool: "Bash", Input: []byte(`{"command":"` + cmd + `"}`)})
			assert.Equal(t, permission.Ask, v.Decision, "%s, %s: %s", name, cmd, v.Reason)
			assert.NotContains(t, v.Reason, "allowed", name)
		}
		for _, r := range mustSession(t, p, "s").Rules().Rules() {
			t.Errorf("%s: session s has the rule %s of the other's session", name, r.Rule)
		}
	}
}

func mustSession(t *testing.T, p *runtime.Pipeline, id string) *runtime.Session {
	t.Helper()
	s, err := p.Session(t.Context(), runtime.SessionOptions{ID: id})
	require.NoError(t, err)
	return s
}

// Session start adds the store's grants in one step: its cost grows
// linearly with their number (4 times the grants, about 4 times the
// allocations; adding them one by one recompiled every rule each time,
// 16 times).
func TestSessionStartLinearInGrants(t *testing.T) {
	dir := workspaceDir(t)
	allocs := func(n int) float64 {
		st := store.NewMemory()
		for i := range n {
			require.NoError(t, st.AddGrant(t.Context(), store.Grant{Scope: store.ScopeProject, Key: dir, Rule: fmt.Sprintf("Bash(make t%d)", i)}))
		}
		p := replica(t, dir, st, time.Minute)
		i := 0
		return testing.AllocsPerRun(3, func() {
			i++
			s, err := p.Session(context.Background(), runtime.SessionOptions{ID: fmt.Sprintf("s%d", i)})
			require.NoError(t, err)
			require.Len(t, s.Rules().Rules(), n)
			s.End("done", "", nil)
		})
	}
	small, large := allocs(250), allocs(1000)
	t.Logf("allocations of a session start: %.0f with 250 grants, %.0f with 1000", small, large)
	assert.Less(t, large/small, 6.0, "session start is not linear in the grants")
}

// feedStore is a Memory whose change feed the test drives, and whose
// grant reads it can make fail: a store whose listener was lost.
type feedStore struct {
	*store.Memory
	hub  store.Hub
	fail atomic.Bool
}

func (s *feedStore) Watch(fn func(store.Event)) func() { return s.hub.Watch(fn) }

func (s *feedStore) Grants(ctx context.Context, sc store.Scope, key string) ([]string, error) {
	if s.fail.Load() {
		return nil, errors.New("connection reset by peer")
	}
	return s.Memory.Grants(ctx, sc, key)
}

// From the moment the store says its change feed is lost until a reload
// after its Resync succeeds, every call is denied: a cancellation made on
// another replica may be unheard. A reload that fails is tried again.
func TestLostFeedDeniesUntilReloaded(t *testing.T) {
	dir := workspaceDir(t)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644))
	st := &feedStore{Memory: store.NewMemory()}
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask, Allow: []string{"Read"}}, Store: st, User: "ann"})
	require.NoError(t, err)
	defer p.Close()
	start(t, p, "s1")
	var n atomic.Int64
	readIn := func() []byte { // a new offset each time: no repeated call
		return []byte(fmt.Sprintf(`{"file_path":%q,"offset":%d}`, filepath.Join(dir, "a.txt"), n.Add(1)))
	}
	check := func(session string) runtime.Verdict {
		return p.Check(t.Context(), runtime.Call{Session: session, Tool: "Read", Input: readIn()})
	}
	v := check("s1")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)

	st.hub.Publish(store.Event{Kind: store.Lost})
	require.Eventually(t, func() bool { return check("s1").Decision == permission.Deny }, 5*time.Second, time.Millisecond)
	v = check("s1")
	assert.Equal(t, runtime.RuleStore, v.Rule)
	assert.Contains(t, v.Reason, "the store's change feed was lost at ")
	assert.Contains(t, v.Reason, "a cancellation made elsewhere may be unheard")

	st.fail.Store(true)
	st.hub.Publish(store.Event{Kind: store.Resync})
	time.Sleep(100 * time.Millisecond)
	v = check("s1")
	assert.Equal(t, permission.Deny, v.Decision, "the reload failed: still denied")
	assert.Contains(t, v.Reason, "change feed was lost")

	// Meanwhile another replica cancelled the session; the next reload
	// that works brings it.
	require.NoError(t, st.CancelSession(t.Context(), "s1", "stopped elsewhere"))
	st.fail.Store(false)
	require.Eventually(t, func() bool { return check("s1").Rule == runtime.RuleCancelled },
		5*time.Second, time.Millisecond, "the reload after the Resync never came")
	v = check("s1")
	assert.Contains(t, v.Reason, "session cancelled: stopped elsewhere")

	start(t, p, "s2")
	v = check("s2")
	assert.Equal(t, permission.Allow, v.Decision, "in sync again: %s", v.Reason)
}
