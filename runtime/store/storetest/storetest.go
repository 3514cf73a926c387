// Package storetest checks that a [store.Store] keeps what the pipeline
// relies on: grants kept once, first answers standing, expiry, the first
// cancellation reason, counters, and an event for each change.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/runtime/store"
)

// Run runs the checks on stores from open. Each call of open must return
// an empty store (or one whose keys the checks do not meet: they use keys
// unique to the run); Run closes nothing.
func Run(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	uniq := fmt.Sprintf("%d", time.Now().UnixNano())
	ctx := context.Background()
	key := func(s string) string { return s + "-" + uniq }

	t.Run("grants", func(t *testing.T) {
		st := open(t)
		ev := watch(st)
		defer ev.stop()
		g := store.Grant{Scope: store.ScopeProject, Key: key("proj"), Rule: "Bash(make build)"}
		must(t, st.AddGrant(ctx, g))
		must(t, st.AddGrant(ctx, g)) // twice is once
		must(t, st.AddGrant(ctx, store.Grant{Scope: store.ScopeProject, Key: key("proj"), Rule: "Bash(make test)"}))
		rules, err := st.Grants(ctx, store.ScopeProject, key("proj"))
		must(t, err)
		if fmt.Sprint(rules) != "[Bash(make build) Bash(make test)]" {
			t.Errorf("Grants = %q, want the two rules once each, oldest first", rules)
		}
		if other, _ := st.Grants(ctx, store.ScopeUser, key("proj")); len(other) != 0 {
			t.Errorf("a project grant leaked into the user scope: %q", other)
		}
		if err := st.AddGrant(ctx, store.Grant{Scope: 9, Key: "k", Rule: "Read"}); err == nil {
			t.Errorf("a grant with an invalid scope was accepted")
		}
		ev.want(t, store.Event{Kind: store.GrantAdded, Scope: store.ScopeProject, Key: key("proj")})
	})

	t.Run("approvals", func(t *testing.T) {
		st := open(t)
		ev := watch(st)
		defer ev.stop()
		now := time.Now()
		a := store.Approval{ID: key("ask-1"), Session: key("s1"), Project: key("p1"), Tool: "Bash",
			Input: []byte(`{"command":"make build"}`), Reason: "make is not a known command",
			Explanation: "ask Bash: ...", AlwaysRules: []string{"Bash(make build)"}, Answerers: []string{"ann"},
			Agent: "builder", Script: "ls && make build", Commands: []store.ApprovalCommand{{Args: []string{"ls"}, Pos: "1:1"},
				{Args: []string{"make", "build"}, Pos: "1:7", Asks: true, Reason: "make is not a known command"}},
			Created: now, Expires: now.Add(time.Minute)}
		must(t, st.PutApproval(ctx, a))
		ev.want(t, store.Event{Kind: store.ApprovalAdded, ID: a.ID, Key: a.Session})
		if err := st.PutApproval(ctx, a); !errors.Is(err, store.ErrExists) {
			t.Errorf("a second approval with the same id: err = %v, want ErrExists", err)
		}
		got, err := st.Approval(ctx, a.ID)
		must(t, err)
		if got.Tool != "Bash" || string(got.Input) != `{"command":"make build"}` || got.Answered ||
			fmt.Sprint(got.AlwaysRules) != "[Bash(make build)]" || fmt.Sprint(got.Answerers) != "[ann]" ||
			got.Explanation != a.Explanation || got.Expires.Sub(a.Expires).Abs() > time.Millisecond ||
			got.Agent != a.Agent || got.Script != a.Script || fmt.Sprint(got.Commands) != fmt.Sprint(a.Commands) {
			t.Errorf("Approval = %+v, want what was put", got)
		}
		if _, err := st.Approval(ctx, key("nope")); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("unknown approval: err = %v, want ErrNotFound", err)
		}
		if !pendingHas(t, st, a.ID) {
			t.Errorf("Pending does not list the new approval")
		}
		must(t, st.AnswerApproval(ctx, a.ID, store.Answer{Choice: store.ChoiceAllowAlways, By: "ann", Scope: store.ScopeProject}))
		ev.want(t, store.Event{Kind: store.GrantAdded, Scope: store.ScopeProject, Key: key("p1")})
		ev.want(t, store.Event{Kind: store.ApprovalAnswered, ID: a.ID, Key: a.Session})
		if err := st.AnswerApproval(ctx, a.ID, store.Answer{Choice: store.ChoiceDeny}); !errors.Is(err, store.ErrAnswered) {
			t.Errorf("a second answer: err = %v, want ErrAnswered", err)
		}
		got, err = st.Approval(ctx, a.ID)
		must(t, err)
		if !got.Answered || got.Answer.Choice != store.ChoiceAllowAlways || got.Answer.By != "ann" {
			t.Errorf("after the answer: %+v, want the first answer", got.Answer)
		}
		if rules, _ := st.Grants(ctx, store.ScopeProject, key("p1")); fmt.Sprint(rules) != "[Bash(make build)]" {
			t.Errorf("allow always in the project scope granted %q, want [Bash(make build)]", rules)
		}
		if pendingHas(t, st, a.ID) {
			t.Errorf("Pending lists an answered approval")
		}

		old := store.Approval{ID: key("ask-old"), Session: key("s1"), Tool: "Bash", Created: now.Add(-time.Hour), Expires: now.Add(-time.Second)}
		must(t, st.PutApproval(ctx, old))
		if err := st.AnswerApproval(ctx, old.ID, store.Answer{Choice: store.ChoiceAllowOnce}); !errors.Is(err, store.ErrExpired) {
			t.Errorf("an answer after the expiry: err = %v, want ErrExpired", err)
		}
		if pendingHas(t, st, old.ID) {
			t.Errorf("Pending lists an expired approval")
		}
		if err := st.AnswerApproval(ctx, key("nope"), store.Answer{}); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("answering an unknown approval: err = %v, want ErrNotFound", err)
		}
	})

	t.Run("concurrent answers", func(t *testing.T) {
		st := open(t)
		now := time.Now()
		id := key("race")
		must(t, st.PutApproval(ctx, store.Approval{ID: id, Session: key("s2"), Tool: "Bash", Created: now, Expires: now.Add(time.Minute)}))
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i := range 8 {
			wg.Go(func() {
				err := st.AnswerApproval(ctx, id, store.Answer{Choice: uint8(i % 2), By: fmt.Sprint(i)})
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					won++
				case !errors.Is(err, store.ErrAnswered):
					t.Errorf("answer %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		if won != 1 {
			t.Errorf("%d of 8 concurrent answers were taken, want exactly 1", won)
		}
	})

	t.Run("cancels", func(t *testing.T) {
		st := open(t)
		ev := watch(st)
		defer ev.stop()
		if _, ok, err := st.Cancelled(ctx, key("s3")); err != nil || ok {
			t.Fatalf("a fresh session is cancelled (%v, %v)", ok, err)
		}
		must(t, st.CancelSession(ctx, key("s3"), "user pressed stop"))
		must(t, st.CancelSession(ctx, key("s3"), "later reason"))
		reason, ok, err := st.Cancelled(ctx, key("s3"))
		must(t, err)
		if !ok || reason != "user pressed stop" {
			t.Errorf("Cancelled = %q, %v; want the first reason", reason, ok)
		}
		ev.want(t, store.Event{Kind: store.SessionCancelled, Key: key("s3")})
	})

	t.Run("counters", func(t *testing.T) {
		st := open(t)
		if _, ok, err := st.Counters(ctx, key("s4")); err != nil || ok {
			t.Fatalf("a fresh session has counters (%v, %v)", ok, err)
		}
		c := store.Counters{Step: 3, Tokens: 1200, StepTokens: 40, LowRun: 1, CompactFails: 2, Recent: [][]byte{[]byte("Bash\x00c{}"), {0, 1, 2}}}
		must(t, st.SaveCounters(ctx, key("s4"), c))
		c.Step = 4
		must(t, st.SaveCounters(ctx, key("s4"), c))
		got, ok, err := st.Counters(ctx, key("s4"))
		must(t, err)
		if !ok || fmt.Sprint(got) != fmt.Sprint(c) {
			t.Errorf("Counters = %v, want the last saved %v", got, c)
		}
	})
}

// pendingHas reports whether st lists id as pending.
func pendingHas(t *testing.T, st store.Store, id string) bool {
	t.Helper()
	ps, err := st.Pending(context.Background())
	must(t, err)
	for _, p := range ps {
		if p.ID == id {
			return true
		}
	}
	return false
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

type events struct {
	mu   sync.Mutex
	seen []store.Event
	stop func()
}

func watch(st store.Store) *events {
	e := &events{}
	e.stop = st.Watch(func(ev store.Event) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.seen = append(e.seen, ev)
	})
	return e
}

// want waits (up to 5 s) for the event.
func (e *events) want(t *testing.T, want store.Event) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		e.mu.Lock()
		for _, ev := range e.seen {
			if ev == want {
				e.mu.Unlock()
				return
			}
		}
		e.mu.Unlock()
		time.Sleep(5 * time.Millisecond)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	t.Errorf("no event %+v within 5s; saw %+v", want, e.seen)
}
