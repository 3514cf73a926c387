package approval

import (
	"context"
	"errors"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAskWithTimeout(t *testing.T) {
	ctx := context.Background()
	req := Request{Tool: "Bash", Reason: "not on the safe list"}
	cases := []struct {
		name  string
		asker Asker
		want  Answer
		// unanswered: no person answered, and the answer says so.
		unanswered bool
	}{
		{"no asker", nil, Answer{Reason: "approval needed but no one can be asked"}, true},
		{"allow once", AskerFunc(func(context.Context, Request) (Answer, error) { return Answer{Choice: AllowOnce}, nil }),
			Answer{Choice: AllowOnce}, false},
		{"deny without reason", AskerFunc(func(context.Context, Request) (Answer, error) { return Answer{}, nil }),
			Answer{Reason: "denied by the user"}, false},
		{"deny with reason", AskerFunc(func(context.Context, Request) (Answer, error) {
			return Answer{Reason: "not in prod"}, nil
		}), Answer{Reason: "not in prod"}, false},
		{"error", AskerFunc(func(context.Context, Request) (Answer, error) {
			return Answer{Choice: AllowAlways}, errors.New("front end gone")
		}), Answer{Reason: "approval failed: front end gone"}, true},
		{"panic", AskerFunc(func(context.Context, Request) (Answer, error) { panic("oops") }),
			Answer{Reason: "approval failed: the asker panicked: oops"}, true},
		{"unknown choice", AskerFunc(func(context.Context, Request) (Answer, error) { return Answer{Choice: 9}, nil }),
			Answer{Reason: "approval returned an unknown choice deny(9): denied"}, true},
	}
	for _, c := range cases {
		got := AskWithTimeout(ctx, c.asker, req, 0)
		assert.Equal(t, c.unanswered, got.Unanswered != nil, "%s: unanswered: %v", c.name, got.Unanswered)
		assert.False(t, errors.Is(got.Unanswered, ErrTimeout), "%s: not a timeout", c.name)
		got.Unanswered = nil
		assert.Equal(t, c.want, got, c.name)
	}
}

func TestAskTimeoutIsDeny(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var ca ChanAsker
		start := time.Now()
		ans := AskWithTimeout(t.Context(), &ca, Request{Tool: "Bash"}, 0)
		assert.Equal(t, Answer{Reason: "no answer within 2m0s: denied", Unanswered: ErrTimeout}, ans)
		assert.Equal(t, DefaultAskTimeout, time.Since(start), "the default timeout is 120 s")
		assert.Empty(t, ca.Pending(), "an expired request is withdrawn")
	})
}

// TestAskTimeoutBoundsADeafAsker: the timeout bounds the wait even for an
// Asker that ignores its context, and so does the caller's cancellation;
// what it answers later is dropped.
func TestAskTimeoutBoundsADeafAsker(t *testing.T) {
	deaf := func(d time.Duration) Asker {
		return AskerFunc(func(context.Context, Request) (Answer, error) {
			time.Sleep(d)
			return Answer{Choice: AllowAlways}, nil
		})
	}
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		ans := AskWithTimeout(t.Context(), deaf(3*time.Second), Request{Tool: "Bash"}, 300*time.Millisecond)
		assert.Equal(t, Answer{Reason: "no answer within 300ms: denied", Unanswered: ErrTimeout}, ans)
		assert.Equal(t, 300*time.Millisecond+askGrace, time.Since(start), "the wait ends at the timeout and the grace")
		time.Sleep(3 * time.Second) // let the deaf asker finish inside the bubble
	})
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(t.Context())
		time.AfterFunc(time.Second, func() { cancel(errors.New("session ended")) })
		start := time.Now()
		ans := AskWithTimeout(ctx, deaf(time.Hour), Request{Tool: "Bash"}, time.Minute)
		assert.EqualError(t, ans.Unanswered, "session ended", "the cause is kept")
		ans.Unanswered = nil
		assert.Equal(t, Answer{Reason: "approval abandoned: session ended"}, ans)
		assert.Equal(t, time.Second+askGrace, time.Since(start), "the wait ends with the caller's context and the grace")
		time.Sleep(time.Hour)
	})
	synctest.Test(t, func(t *testing.T) {
		ans := AskWithTimeout(t.Context(), AskerFunc(func(context.Context, Request) (Answer, error) {
			time.Sleep(time.Second)
			panic("late")
		}), Request{Tool: "Bash"}, time.Minute)
		assert.EqualError(t, ans.Unanswered, "the asker panicked: late")
		ans.Unanswered = nil
		assert.Equal(t, Answer{Reason: "approval failed: the asker panicked: late"}, ans, "a panic on the asking goroutine is a Deny too")
	})
}

func TestChanAsker(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var seen []string
		var mu sync.Mutex
		ca := &ChanAsker{OnRequest: func(r Request) { mu.Lock(); seen = append(seen, r.ID); mu.Unlock() }}
		answers := make([]Answer, 3)
		var wg sync.WaitGroup
		for i, tool := range []string{"Bash", "Write", "Edit"} {
			wg.Go(func() {
				answers[i] = AskWithTimeout(t.Context(), ca, Request{ID: tool, Tool: tool}, time.Minute)
			})
			synctest.Wait() // park them in a known order
		}
		pend := ca.Pending()
		require.Len(t, pend, 3)
		assert.Equal(t, []string{"Bash", "Write", "Edit"}, []string{pend[0].ID, pend[1].ID, pend[2].ID})
		assert.Equal(t, []string{"Bash", "Write", "Edit"}, seen)

		require.NoError(t, ca.Resolve("Write", Answer{Choice: AllowAlways}))
		require.NoError(t, ca.Resolve("Bash", Answer{Choice: Deny, Reason: "no"}))
		err := ca.Resolve("Bash", Answer{Choice: AllowOnce})
		assert.ErrorIs(t, err, ErrUnknownRequest, "an answered request cannot be answered again")
		assert.EqualError(t, err, `approval: no pending request with that id: "Bash"`)
		wg.Wait()       // Edit times out after a minute
		synctest.Wait() // and its asker, which outlives the wait, sees it
		assert.Equal(t, Answer{Reason: "no"}, answers[0])
		assert.Equal(t, Answer{Choice: AllowAlways}, answers[1])
		assert.Equal(t, Answer{Reason: "no answer within 1m0s: denied", Unanswered: ErrTimeout}, answers[2])
		assert.Empty(t, ca.Pending())

		// An empty id is assigned; a duplicate pending id is refused.
		done := make(chan Answer)
		go func() { a, _ := ca.Ask(t.Context(), Request{}); done <- a }()
		synctest.Wait()
		id := ca.Pending()[0].ID
		assert.Equal(t, "ask-4", id)
		a, err := ca.Ask(t.Context(), Request{ID: id})
		assert.EqualError(t, err, `approval: request "ask-4" is already pending`)
		assert.Equal(t, Deny, a.Choice)
		require.NoError(t, ca.Resolve(id, Answer{Choice: AllowOnce}))
		assert.Equal(t, Answer{Choice: AllowOnce}, <-done)
	})
}

func TestChoiceString(t *testing.T) {
	assert.Equal(t, "deny", Choice(0).String())
	assert.Equal(t, "allow-once", AllowOnce.String())
	assert.Equal(t, "allow-always", AllowAlways.String())
}
