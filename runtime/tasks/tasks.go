package tasks

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// Notice is the result of one finished background task, to be shown to the
// model before its next call.
type Notice struct {
	// ID is the id the task was started with.
	ID string
	// Output is what the task returned.
	Output string
	// Err is the task's error, a recovered panic, or the cancellation cause.
	Err error
}

// Queue runs slow work (downloads, parsing) off the loop and queues the
// results, which the host hands to the model before its next call
// ([Queue.Drain]). Tasks never touch the conversation themselves. It is
// safe for concurrent use; the zero value runs tasks under
// context.Background.
type Queue struct {
	ctx     context.Context
	wg      sync.WaitGroup
	mu      sync.Mutex
	done    []Notice
	running map[string]bool
}

// New returns a queue whose tasks run under ctx: cancelling ctx cancels
// them and refuses new ones.
func New(ctx context.Context) *Queue {
	return &Queue{ctx: ctx}
}

// Go starts fn as task id. An empty id, an id still running, or a cancelled
// queue context is an error. A panic in fn is recovered into the notice's
// Err.
func (b *Queue) Go(id string, fn func(ctx context.Context) (string, error)) error {
	ctx := b.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	if id == "" || fn == nil {
		return errors.New("tasks: a task needs an id and a function")
	}
	if ctx.Err() != nil {
		return fmt.Errorf("tasks: task %q refused: %w", id, context.Cause(ctx))
	}
	b.mu.Lock()
	if b.running[id] {
		b.mu.Unlock()
		return fmt.Errorf("tasks: task %q is already running", id)
	}
	if b.running == nil {
		b.running = make(map[string]bool)
	}
	b.running[id] = true
	b.wg.Add(1)
	b.mu.Unlock()
	go func() {
		defer b.wg.Done()
		n := Notice{ID: id}
		func() {
			defer func() {
				if p := recover(); p != nil {
					n.Err = fmt.Errorf("tasks: task %q panicked: %v", id, p)
				}
			}()
			n.Output, n.Err = fn(ctx)
		}()
		b.mu.Lock()
		delete(b.running, id)
		b.done = append(b.done, n)
		b.mu.Unlock()
	}()
	return nil
}

// Drain returns the notices of tasks finished since the last Drain, in the
// order they finished, and forgets them.
func (b *Queue) Drain() []Notice {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := b.done
	b.done = nil
	return out
}

// Running returns the number of tasks still running.
func (b *Queue) Running() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.running)
}

// Wait blocks until every started task has finished.
func (b *Queue) Wait() { b.wg.Wait() }
