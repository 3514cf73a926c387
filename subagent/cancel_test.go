package subagent_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/subagent"
)

// tools of the cancellation tests: Read honours its context (a Cancel
// tool), Bash takes ten seconds whatever happens (a Block tool).
func slowTools(ctx context.Context, call runtime.Call) (string, error) {
	switch call.Tool {
	case "Read":
		<-ctx.Done()
		return "", ctx.Err()
	case "Bash":
		time.Sleep(10 * time.Second)
		return "listing", nil
	}
	return "", errors.New("no such tool")
}

// TestCancelParentCancelsChildren: cancelling the parent cancels both of
// its running children at once; the child in a Cancel tool stops at once,
// the child in a Block tool finishes its call first; neither makes another.
func TestCancelParentCancelsChildren(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, permission.Config{Default: permission.Allow})
		lead := w.start(t, "lead", permission.ModeDefault)
		ctx := context.Background()
		type ended struct {
			res subagent.Result
			at  time.Time
		}
		run := func(spec subagent.Spec, calls ...runtime.Call) (*subagent.Child, chan ended) {
			c, err := subagent.Spawn(ctx, w.p, "lead", spec, subagent.Task{Prompt: "work"})
			require.NoError(t, err)
			done := make(chan ended, 1)
			go func() {
				res := c.Run(ctx, script("never reached", calls, calls), slowTools)
				done <- ended{res, time.Now()}
			}()
			return c, done
		}
		reader, readerDone := run(subagent.Spec{Name: "reader", Tools: []string{"Read", "Write"}},
			runtime.Call{ID: "r1", Tool: "Read", Input: in("file_path", "README.md")},
			runtime.Call{ID: "r2", Tool: "Write", Input: in("file_path", "notes.txt", "content", "x")})
		builder, builderDone := run(subagent.Spec{Name: "builder", Tools: []string{"Bash"}},
			runtime.Call{ID: "b1", Tool: "Bash", Input: in("command", "ls")})
		synctest.Wait() // both children are inside their tools

		start := time.Now()
		lead.Cancel("user pressed stop")
		synctest.Wait()
		for _, c := range []*subagent.Child{reader, builder} {
			require.ErrorIs(t, context.Cause(c.Session().Context()), runtime.ErrCancelled, c.Name())
			assert.EqualError(t, context.Cause(c.Session().Context()), "runtime: session cancelled: user pressed stop", c.Name())
		}

		var r ended
		select {
		case r = <-readerDone:
		default:
			t.Fatal("the child in a Cancel tool did not stop at once")
		}
		assert.Equal(t, start, r.at, "no time passed")
		assert.Equal(t, subagent.StopCancelled, r.res.Stop)
		assert.Equal(t, "runtime: session cancelled: user pressed stop", r.res.Reason)
		require.Len(t, r.res.Calls, 2, "no call after the cancellation")
		rc := r.res.Calls[0]
		assert.True(t, rc.Interrupted)
		assert.EqualError(t, rc.Err, "interrupted: runtime: session cancelled: user pressed stop (tool: context canceled)")
		wc := r.res.Calls[1]
		assert.False(t, wc.Ran, "the write after the interrupted read never started")
		assert.Equal(t, permission.Allow, wc.Verdict.Decision, "it was admitted before the cancellation")
		assert.EqualError(t, wc.Err, "not started: runtime: session cancelled: user pressed stop")
		assert.Equal(t, "denied (L7 runtime): not started: runtime: session cancelled: user pressed stop", wc.Output,
			"what the model is told, and what After's hooks record")

		select {
		case <-builderDone:
			t.Fatal("the child in a Block tool did not finish its call")
		default:
		}
		b := <-builderDone
		assert.Equal(t, 10*time.Second, b.at.Sub(start), "the Block tool ran to its end")
		assert.Equal(t, subagent.StopCancelled, b.res.Stop)
		assert.Equal(t, "runtime: session cancelled: user pressed stop", b.res.Reason)
		require.Len(t, b.res.Calls, 1, "no call after the cancellation")
		bc := b.res.Calls[0]
		assert.True(t, bc.Ran)
		assert.False(t, bc.Interrupted)
		assert.NoError(t, bc.Err)
		assert.Equal(t, "listing", bc.Output, "the Block tool's result is kept")

		for _, c := range []*subagent.Child{reader, builder} {
			live := w.live(c.ID())
			assert.False(t, live, "%s ended", c.Name())
		}
		v := w.check("lead", "Read", in("file_path", "README.md"))
		assert.Equal(t, verdict{permission.Deny, permission.LayerRuntime, "runtime:cancelled",
			"session is cancelled: runtime: session cancelled: user pressed stop"}, vOf(v))
	})
}

// TestParentWaitsForChild: the subagent tool is a Block tool: a parent
// cancelled while its subagent runs waits for the subagent to end, and gets
// its result.
func TestParentWaitsForChild(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := newWorld(t, permission.Config{Default: permission.Allow})
		lead := w.start(t, "lead", permission.ModeDefault)
		runner := &subagent.Runner{Pipeline: w.p, Specs: []subagent.Spec{{Name: "builder", Tools: []string{"Bash"}}},
			Model: script("built", []runtime.Call{{ID: "b1", Tool: "Bash", Input: in("command", "ls")}}),
			Run:   slowTools}
		task, _ := json.Marshal(subagent.Input{Type: "builder", Prompt: "build it"})
		start := time.Now()
		time.AfterFunc(time.Second, func() { lead.Cancel("user pressed stop") })
		res := w.p.Executor(runner.RunCall).Execute(lead.Context(), []runtime.Call{{Session: "lead", ID: "t1", Tool: "Task", Input: task}})

		assert.Equal(t, 10*time.Second, time.Since(start), "the parent waited for the child's Block tool")
		require.Len(t, res, 1)
		assert.True(t, res[0].Ran)
		assert.False(t, res[0].Interrupted)
		assert.Equal(t, permission.Allow, res[0].Verdict.Decision)
		assert.EqualError(t, res[0].Err, `subagent "builder" stopped (cancelled) after 2 step(s): runtime: session cancelled: user pressed stop`)
		live := w.live("lead/t1")
		assert.False(t, live)
	})
}

// TestCancelledChildFreesItsSlot: a child cancelled through its own
// context (or its parent's) no longer counts among the parent's running
// children, though nobody called End: the parent can start another in its
// place, and the bound still holds for the ones that run.
func TestCancelledChildFreesItsSlot(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "lead", permission.ModeDefault)
	spec := subagent.Spec{Name: "reader", Tools: []string{"Read"}, MaxChildren: 2}
	spawn := func(ctx context.Context, id string) (*subagent.Child, error) {
		return subagent.Spawn(ctx, w.p, "lead", spec, subagent.Task{ID: id, Prompt: "work"})
	}
	ctx1, cancel1 := context.WithCancel(context.Background())
	c1, err := spawn(ctx1, "c1")
	require.NoError(t, err)
	defer c1.End("test done")
	c2, err := spawn(context.Background(), "c2")
	require.NoError(t, err)
	defer c2.End("test done")
	_, err = spawn(context.Background(), "c3")
	require.ErrorIs(t, err, subagent.ErrWiden)
	assert.Contains(t, err.Error(), "the parent already runs 2 children, the bound")

	cancel1()
	// c1's slot is given back without End (as soon as its context is
	// done: the release runs on its own goroutine).
	var c3 *subagent.Child
	require.Eventually(t, func() bool {
		c3, err = spawn(context.Background(), "c3")
		return err == nil
	}, 10*time.Second, time.Millisecond, "the cancelled child's slot is free")
	defer c3.End("test done")
	v := c1.Check(context.Background(), "x", "Read", in("file_path", "README.md"))
	assert.Equal(t, permission.Deny, v.Decision, "the cancelled child makes no more calls")
	assert.Contains(t, v.Reason, "cancel")
	_, err = spawn(context.Background(), "c4")
	require.ErrorIs(t, err, subagent.ErrWiden, "two children run again: the bound holds")
	assert.True(t, c1.End("test done"), "End still ends the cancelled child, once")
	_, err = spawn(context.Background(), "c4")
	require.ErrorIs(t, err, subagent.ErrWiden, "ending the cancelled child does not free a second slot")
}
