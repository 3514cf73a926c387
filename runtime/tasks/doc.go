// Package tasks runs an agent's slow work — a download, a long parse — off
// its loop and queues the results for the model's next call.
//
// A [Queue] starts each task under one context (a session's, in package
// runtime: Session.Background), so ending the session cancels its tasks and
// refuses new ones. A task never touches the conversation: its output, its
// error or a recovered panic becomes a [Notice], and the host hands the
// notices from [Queue.Drain] to the model before its next call.
//
//	q := tasks.New(ctx)
//	_ = q.Go("fetch-docs", func(ctx context.Context) (string, error) { return fetch(ctx, url) })
//	// … before the next model call:
//	for _, n := range q.Drain() { /* show n.ID, n.Output or n.Err to the model */ }
package tasks
