package tasks

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancelCause(t.Context())
		b := New(ctx)
		sleep := func(d time.Duration, out string) func(context.Context) (string, error) {
			return func(ctx context.Context) (string, error) {
				select {
				case <-time.After(d):
					return out, nil
				case <-ctx.Done():
					return "", context.Cause(ctx)
				}
			}
		}
		require.NoError(t, b.Go("slow", sleep(3*time.Second, "parsed")))
		require.NoError(t, b.Go("fast", sleep(time.Second, "downloaded")))
		require.NoError(t, b.Go("bad", func(context.Context) (string, error) { panic("boom") }))
		assert.EqualError(t, b.Go("slow", sleep(0, "")), `tasks: task "slow" is already running`)
		assert.EqualError(t, b.Go("", sleep(0, "")), "tasks: a task needs an id and a function")

		synctest.Wait()
		n := b.Drain()
		require.Len(t, n, 1)
		assert.Equal(t, "bad", n[0].ID)
		assert.EqualError(t, n[0].Err, `tasks: task "bad" panicked: boom`)
		assert.Equal(t, 2, b.Running())

		time.Sleep(time.Second)
		synctest.Wait()
		assert.Equal(t, []Notice{{ID: "fast", Output: "downloaded"}}, b.Drain())
		assert.Empty(t, b.Drain(), "drained notices are gone")

		cancel(errors.New("session over"))
		b.Wait()
		n = b.Drain()
		require.Len(t, n, 1)
		assert.Equal(t, "slow", n[0].ID)
		assert.EqualError(t, n[0].Err, "session over", "cancellation reaches running tasks")
		assert.EqualError(t, b.Go("late", sleep(0, "")), `tasks: task "late" refused: session over`)
	})
}
