package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
)

// Defaults of an [Executor].
const (
	DefaultMaxParallel = 10
	DefaultGrace       = 50 * time.Millisecond
)

// ErrSiblingFailed is wrapped by the cancellation cause of a batch whose
// call with [tool.Traits.AbortsSiblings] failed.
var ErrSiblingFailed = errors.New("runtime: a sibling call failed")

// Call is one tool call the model asked for.
type Call struct {
	// Session is the id of the session making the call.
	Session string
	// ID is the model's id for the call.
	ID string
	// Tool is the tool's name.
	Tool string
	// Input is the call's JSON input.
	Input json.RawMessage
}

// Result is the outcome of one call of a batch.
type Result struct {
	// Call is the call as run, with the admitted input.
	Call Call
	// Verdict is what the check answered: only an Allow runs.
	Verdict Verdict
	// Outcome is what the pipeline's After made of the call (set by
	// [Pipeline.Executor]; zero for an Executor without it).
	Outcome Outcome
	// Ran reports whether the tool was started.
	Ran bool
	// Output is what the tool returned; [Pipeline.Executor] replaces it
	// with Outcome.Output, what the model may see.
	Output string
	// Err is the tool's error; for a call that was admitted but not started
	// (batch cancelled, sibling failed) it is the reason it was skipped.
	Err error
	// Interrupted reports that the call's session or batch was cancelled
	// while a Cancel tool ran: the result is incomplete or absent.
	Interrupted bool
	// Confinement is the kernel confinement the tool reported with
	// [ReportConfinement], or empty.
	Confinement string

	rep *callReport
}

func (r *Result) report() *callReport {
	if r.rep == nil {
		r.rep = &callReport{}
	}
	return r.rep
}

// callReport is where a running tool reports facts about its run.
type callReport struct {
	mu   sync.Mutex
	conf string
}

func (c *callReport) confinement() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conf
}

type reportKey struct{}

// ReportConfinement records, from inside a tool that an [Executor] runs,
// the kernel confinement its command ran under (bashguard's
// RunResult.Confined.String()). The result carries it, and the pipeline's
// After hands it to the PostToolUse hooks, so the audit log records it.
// Outside an Executor it does nothing.
func ReportConfinement(ctx context.Context, level string) {
	if c, ok := ctx.Value(reportKey{}).(*callReport); ok && c != nil {
		c.mu.Lock()
		c.conf = level
		c.mu.Unlock()
	}
}

// Executor runs a batch of calls the model made in one turn. Calls are
// checked one by one in order; admitted calls then run in segments:
// consecutive concurrency-safe calls in parallel (at most MaxParallel at
// once), every other call alone; results come back in call order.
//
// Interrupts: when ctx is cancelled, a running tool with [tool.InterruptCancel]
// sees its context cancelled and the executor waits at most Grace for it
// before reporting it interrupted (a function that ignores its context keeps
// running unobserved); a tool with [tool.InterruptBlock] runs under a context
// that cancellation does not reach, to completion, and its result is kept.
// Calls not yet started are skipped. A failing call whose tool has
// [tool.Traits.AbortsSiblings] cancels the rest of the batch the same way.
//
// The executor keeps its own goroutines rather than an errgroup.Group:
// a group's Wait waits for every function, so one Cancel tool that ignores
// its context would hold the whole batch, where the executor must give up
// on it after Grace, report it, and hand the rest of the batch back.
//
// The fields are read, never written, by Execute, so one Executor may serve
// many goroutines if its functions are safe for concurrent use.
type Executor struct {
	// Tools gives each call's traits. A call of a tool it lacks is denied.
	Tools *tool.Registry
	// Check decides each call before it runs (the pipeline's Check). Nil
	// denies every call. A panic is a Deny.
	Check func(ctx context.Context, call Call) Verdict
	// Run runs one admitted call. Nil fails every admitted call. A panic is
	// the call's error.
	Run func(ctx context.Context, call Call) (string, error)
	// After, if set, post-processes the result of every call (the
	// pipeline's After: hooks, truncation, accounting): of a started call
	// as it finishes, of a refused or skipped one once the batch is done
	// (Result.Ran tells them apart). It
	// runs on the goroutine that called Execute, one call at a time, under a
	// context detached from the batch's cancellation. A panic keeps the
	// unprocessed result and records it in Err.
	After func(ctx context.Context, res Result) Result
	// MaxParallel bounds parallel calls; 0 means DefaultMaxParallel.
	MaxParallel int
	// Grace is how long an interrupted Cancel tool may take to return; 0
	// means DefaultGrace.
	Grace time.Duration

	// lookup, when set (by [Pipeline.Executor]), finds tools in place of
	// Tools: the pipeline's live tool set.
	lookup func(name string) (tool.Tool, bool)
}

// Execute checks and runs calls under ctx (the session's context) and
// returns one result per call, in call order.
func (e *Executor) Execute(ctx context.Context, calls []Call) []Result {
	results := make([]Result, len(calls))
	traits := make([]tool.Traits, len(calls))
	admitted := make([]int, 0, len(calls))
	for i, c := range calls {
		results[i].Call = c
		v := e.check(ctx, c)
		if v.Input != nil {
			results[i].Call.Input = v.Input
		}
		results[i].Verdict = v
		if v.Decision != permission.Allow {
			continue
		}
		tool, ok := e.Tools.Lookup(c.Tool)
		if e.lookup != nil {
			tool, ok = e.lookup(c.Tool)
		}
		if !ok {
			results[i].Verdict = Verdict{Result: permission.Result{Layer: permission.LayerTraits, Rule: RuleUnknownTool, Reason: fmt.Sprintf("unknown tool %q", c.Tool)}, Input: v.Input}
			continue
		}
		traits[i] = tool.Traits(results[i].Call.Input)
		admitted = append(admitted, i)
	}
	if len(admitted) == 0 {
		e.afterUnstarted(ctx, results)
		return results
	}

	bctx, abort := context.WithCancelCause(ctx)
	defer abort(nil)
	// One allocation for the admitted calls' reports, and one detached
	// context for every after step.
	reps := make([]callReport, len(admitted))
	for k, i := range admitted {
		results[i].rep = &reps[k]
	}
	actx := context.WithoutCancel(bctx)
	limit := e.MaxParallel
	if limit <= 0 {
		limit = DefaultMaxParallel
	}
	for s := 0; s < len(admitted); {
		end := s + 1
		if traits[admitted[s]].ConcurrencySafe {
			for end < len(admitted) && traits[admitted[end]].ConcurrencySafe {
				end++
			}
		}
		e.runSegment(bctx, actx, abort, results, traits, admitted[s:end], limit)
		s = end
	}
	e.afterUnstarted(ctx, results)
	return results
}

// afterUnstarted runs the after step for the calls that did not run
// (refused by the check, or skipped once the batch was cancelled), after
// the batch, in call order: hooks, metrics and the audit log see every call.
func (e *Executor) afterUnstarted(ctx context.Context, results []Result) {
	if e.After == nil {
		return
	}
	var actx context.Context
	for i := range results {
		if !results[i].Ran {
			if actx == nil {
				actx = context.WithoutCancel(ctx)
			}
			e.after(actx, &results[i])
		}
	}
}

// finished is a tool function's return, sent back by its goroutine.
type finished struct {
	i   int
	out string
	err error
}

// runSegment runs the calls idx (one call, or neighbouring
// concurrency-safe calls) at most limit at a time, and waits for them: for
// every call when bctx stays live; after bctx is cancelled, for Block tools
// to complete and for Cancel tools at most Grace.
func (e *Executor) runSegment(bctx, actx context.Context, abort context.CancelCauseFunc,
	results []Result, traits []tool.Traits, idx []int, limit int) {
	if len(idx) == 1 && (traits[idx[0]].Interrupt == tool.InterruptBlock || bctx.Done() == nil) {
		i := idx[0] // nothing to interrupt: run on this goroutine
		if e.start(bctx, &results[i]) {
			ctx := bctx
			if traits[i].Interrupt == tool.InterruptBlock {
				ctx = context.WithoutCancel(bctx)
			}
			out, err := e.call(ctx, results[i].Call, results[i].report())
			e.finish(bctx, actx, abort, &results[i], traits[i], out, err)
		}
		return
	}
	ch := make(chan finished, len(idx)) // buffered: an abandoned call never blocks
	running := make(map[int]bool, min(limit, len(idx)))
	next := 0
	launch := func() {
		for ; next < len(idx) && len(running) < limit; next++ {
			i := idx[next]
			if !e.start(bctx, &results[i]) {
				continue
			}
			running[i] = true
			ctx := bctx
			if traits[i].Interrupt == tool.InterruptBlock {
				ctx = context.WithoutCancel(bctx)
			}
			// One closure, capturing its values, and no argument wrapper.
			c, rep := results[i].Call, results[i].report()
			go func() {
				out, err := e.call(ctx, c, rep)
				ch <- finished{i, out, err}
			}()
		}
	}
	launch()
	done := bctx.Done()
	var graceC <-chan time.Time
	for len(running) > 0 {
		select {
		case f := <-ch:
			delete(running, f.i)
			e.finish(bctx, actx, abort, &results[f.i], traits[f.i], f.out, f.err)
			launch()
		case <-done:
			done = nil
			for ; next < len(idx); next++ {
				e.start(bctx, &results[idx[next]]) // records why it did not start
			}
			grace := e.Grace
			if grace <= 0 {
				grace = DefaultGrace
			}
			t := time.NewTimer(grace)
			defer t.Stop()
			graceC = t.C
		case <-graceC:
			graceC = nil
			for i := range running {
				if traits[i].Interrupt == tool.InterruptBlock {
					continue // runs to completion
				}
				delete(running, i)
				res := &results[i]
				res.Interrupted = true
				res.Err = fmt.Errorf("interrupted (the tool did not stop within %s): %w",
					e.graceOrDefault(), context.Cause(bctx))
				e.afterStep(actx, res)
			}
		}
	}
}

func (e *Executor) graceOrDefault() time.Duration {
	if e.Grace <= 0 {
		return DefaultGrace
	}
	return e.Grace
}

// start reports whether the call may start, recording why not if it may
// not.
func (e *Executor) start(bctx context.Context, res *Result) bool {
	if bctx.Err() != nil {
		res.Err = fmt.Errorf("not started: %w", context.Cause(bctx))
		return false
	}
	res.Ran = true
	return true
}

// finish records a tool's return, aborts the batch if the tool's failure
// must, and runs the after step.
func (e *Executor) finish(bctx, actx context.Context, abort context.CancelCauseFunc, res *Result, t tool.Traits, out string, err error) {
	res.Output, res.Err = out, err
	res.Confinement = res.report().confinement()
	if err != nil && t.Interrupt == tool.InterruptCancel && bctx.Err() != nil {
		res.Interrupted = true
		res.Err = fmt.Errorf("interrupted: %w (tool: %w)", context.Cause(bctx), err)
	}
	if err != nil && t.AbortsSiblings {
		abort(fmt.Errorf("%w: call %s (%s): %v", ErrSiblingFailed, res.Call.ID, res.Call.Tool, err))
	}
	e.afterStep(actx, res)
}

// afterStep runs the after step under actx, the batch's context detached
// from its cancellation.
func (e *Executor) afterStep(actx context.Context, res *Result) {
	if e.After != nil {
		e.after(actx, res)
	}
}

func (e *Executor) check(ctx context.Context, c Call) (v Verdict) {
	if err := ctx.Err(); err != nil {
		return Verdict{Result: permission.Result{Layer: permission.LayerRuntime, Rule: RuleCancelled, Reason: "session is cancelled: " + context.Cause(ctx).Error()}}
	}
	if e.Check == nil {
		return Verdict{Result: permission.Result{Rule: RuleExecutorNoCheck, Reason: "the executor has no check: every call is denied"}}
	}
	defer func() {
		if p := recover(); p != nil {
			v = Verdict{Result: permission.Result{Rule: RuleExecutorCheckPanic, Reason: fmt.Sprintf("the check panicked: %v", p)}}
		}
	}()
	return e.Check(ctx, c)
}

func (e *Executor) call(ctx context.Context, c Call, rep *callReport) (out string, err error) {
	ctx = context.WithValue(ctx, reportKey{}, rep)
	defer func() {
		if p := recover(); p != nil {
			out, err = "", fmt.Errorf("runtime: tool %s panicked: %v", c.Tool, p)
		}
	}()
	return e.Run(ctx, c)
}

func (e *Executor) after(ctx context.Context, res *Result) {
	defer func() {
		if p := recover(); p != nil {
			res.Err = errors.Join(res.Err, fmt.Errorf("runtime: after step panicked: %v", p))
		}
	}()
	*res = e.After(ctx, *res)
}
