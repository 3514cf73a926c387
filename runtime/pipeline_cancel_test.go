package runtime

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
	"github.com/toolgate/toolgate/runtime/tool"
)

// fakeRun stands in for the tools, without real processes, so the bubble's
// clock is exact: every call takes the time its input's "ms" field names
// a read takes 10 s and stops when its context does (a Cancel tool), a Bash
// call takes 2 s and ignores its context (a Block tool, whose side effects
// must complete), "ls missing" fails after 1 s, and fetch fails after 1 s.
func fakeRun(ctx context.Context, c Call) (string, error) {
	var in map[string]string
	if err := json.Unmarshal(c.Input, &in); err != nil {
		return "", err
	}
	switch {
	case c.Tool == "Bash" && in["command"] == "ls missing":
		time.Sleep(time.Second)
		return "", errors.New("exit status 2")
	case c.Tool == "Bash":
		time.Sleep(2 * time.Second) // ignores ctx: runs to completion
		return "built", nil
	case c.Tool == "fetch":
		time.Sleep(time.Second)
		return "", errors.New("connection refused")
	}
	select {
	case <-time.After(10 * time.Second):
		return "read " + in["file_path"], nil
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// cancelWorld is a world whose tool set adds "fetch": a concurrency-safe
// tool whose failure aborts its siblings.
func cancelWorld(t *testing.T) *world {
	w := newWorld(t, permission.Config{Default: permission.Allow, Deny: []string{"Bash(git push:*)"}}, nil)
	w.reconfigure(t, func(c *Config) {
		tools, err := c.Tools.With(&tool.Descriptor{ToolName: "fetch", Base: tool.Traits{
			ConcurrencySafe: true, AbortsSiblings: true, Kind: permission.KindNetwork, URLFields: []string{"url"},
		}})
		require.NoError(t, err)
		c.Tools = tools
	})
	return w
}

// TestPipelineCancelStopsCancelToolsAtOnce: cancelling the session while
// two reads run in parallel interrupts both at the moment of the cancel
// (well within the 50 ms grace), and later calls of the session are denied.
func TestPipelineCancelStopsCancelToolsAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := cancelWorld(t)
		w.start(t, "s", permission.ModeDefault)
		sess := liveSession(w.p, "s")
		exec := w.p.Executor(fakeRun)
		time.AfterFunc(time.Second, func() { sess.Cancel("the user pressed Esc") })
		start := time.Now()
		res := exec.Execute(sess.Context(), []Call{
			{Session: "s", ID: "r1", Tool: "Read", Input: in("file_path", "README.md")},
			{Session: "s", ID: "r2", Tool: "Read", Input: in("file_path", "src/main.go")},
		})
		assert.Equal(t, time.Second, time.Since(start), "the Cancel tools stopped when the session was cancelled")
		require.Len(t, res, 2)
		for _, r := range res {
			assert.True(t, r.Ran, r.Call.ID)
			assert.True(t, r.Interrupted, r.Call.ID)
			assert.ErrorIs(t, r.Err, ErrCancelled, r.Call.ID)
			assert.ErrorContains(t, r.Err, "the user pressed Esc", r.Call.ID)
			assert.Equal(t, permission.Allow, r.Verdict.Decision)
		}

		res = exec.Execute(sess.Context(), []Call{{Session: "s", ID: "r3", Tool: "Read", Input: in("file_path", "README.md")}})
		assert.False(t, res[0].Ran)
		assert.Equal(t, permission.Deny, res[0].Verdict.Decision)
		assert.Equal(t, permission.LayerRuntime, res[0].Verdict.Layer)
		assert.Equal(t, "runtime:cancelled", string(res[0].Verdict.Rule))
		assert.Equal(t, "session is cancelled: runtime: session cancelled: the user pressed Esc", res[0].Verdict.Reason)

		// Check itself denies too, whatever context the host passes.
		v := w.p.Check(context.Background(), Call{Session: "s", Tool: "Read", Input: in("file_path", "src/main.go")})
		assert.Equal(t, permission.Deny, v.Decision)
		assert.Equal(t, "runtime:cancelled", string(v.Rule))
		assert.Equal(t, "session is cancelled: runtime: session cancelled: the user pressed Esc", v.Reason)
		assert.True(t, v.Status.Signals.Has(SignalCancelled))
	})
}

// TestPipelineCancelLetsBlockToolsFinish: a Bash call (Block) that is
// running when the session is cancelled runs to completion and its result
// is kept; the call queued after it does not start.
func TestPipelineCancelLetsBlockToolsFinish(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := cancelWorld(t)
		w.start(t, "s", permission.ModeDefault)
		sess := liveSession(w.p, "s")
		exec := w.p.Executor(fakeRun)
		time.AfterFunc(time.Second, func() { sess.Cancel("the user pressed Esc") })
		start := time.Now()
		res := exec.Execute(sess.Context(), []Call{
			{Session: "s", ID: "b1", Tool: "Bash", Input: in("command", "ls")},
			{Session: "s", ID: "r1", Tool: "Read", Input: in("file_path", "README.md")},
		})
		assert.Equal(t, 2*time.Second, time.Since(start), "the Block tool ran its full two seconds")
		require.Len(t, res, 2)
		assert.True(t, res[0].Ran)
		assert.False(t, res[0].Interrupted)
		assert.NoError(t, res[0].Err)
		assert.Equal(t, "built", res[0].Output, "the Block tool's result is kept")
		assert.False(t, res[1].Ran, "the next call does not start")
		assert.ErrorIs(t, res[1].Err, ErrCancelled)
		assert.ErrorContains(t, res[1].Err, "not started")
	})
}

// TestPipelineSiblingAbort: a failing call whose tool aborts its siblings
// interrupts the parallel reads beside it and keeps the later calls from
// starting; a failing Bash call (serial) stops the rest of the batch.
func TestPipelineSiblingAbort(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		w := cancelWorld(t)
		w.start(t, "s", permission.ModeDefault)
		sess := liveSession(w.p, "s")
		exec := w.p.Executor(fakeRun)
		start := time.Now()
		res := exec.Execute(sess.Context(), []Call{
			{Session: "s", ID: "r1", Tool: "Read", Input: in("file_path", "README.md")},
			{Session: "s", ID: "f1", Tool: "fetch", Input: in("url", "https://go.dev/x")},
			{Session: "s", ID: "r2", Tool: "Read", Input: in("file_path", "src/main.go")},
			{Session: "s", ID: "b1", Tool: "Bash", Input: in("command", "ls")},
		})
		assert.Equal(t, time.Second, time.Since(start), "the reads stopped when fetch failed")
		require.Len(t, res, 4)
		assert.EqualError(t, res[1].Err, "connection refused")
		for _, i := range []int{0, 2} {
			assert.True(t, res[i].Interrupted, res[i].Call.ID)
			assert.ErrorIs(t, res[i].Err, ErrSiblingFailed, res[i].Call.ID)
			assert.ErrorContains(t, res[i].Err, "call f1 (fetch): connection refused", res[i].Call.ID)
		}
		assert.False(t, res[3].Ran, "the Bash call after the failure does not start")
		assert.ErrorIs(t, res[3].Err, ErrSiblingFailed)
		assert.NoError(t, sess.err(), "a sibling abort ends the batch, not the session")

		start = time.Now()
		res = exec.Execute(sess.Context(), []Call{
			{Session: "s", ID: "b2", Tool: "Bash", Input: in("command", "ls missing")},
			{Session: "s", ID: "r3", Tool: "Read", Input: in("file_path", "README.md")},
			{Session: "s", ID: "b3", Tool: "Bash", Input: in("command", "git push origin main")},
		})
		assert.Equal(t, time.Second, time.Since(start))
		assert.EqualError(t, res[0].Err, "exit status 2")
		assert.False(t, res[1].Ran)
		assert.ErrorIs(t, res[1].Err, ErrSiblingFailed)
		assert.ErrorContains(t, res[1].Err, "call b2 (Bash): exit status 2")
		assert.False(t, res[2].Ran)
		assert.Equal(t, permission.Deny, res[2].Verdict.Decision, "checked before the batch ran")
		assert.Equal(t, "denied by deny rule Bash(git push:*) (config)", res[2].Verdict.Reason)
	})
}
