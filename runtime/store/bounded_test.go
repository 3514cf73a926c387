package store_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/storetest"
)

// hanging is a Memory whose Grants blocks until release, ignoring its
// context, whose Cancelled honours it, and whose Approval panics.
type hanging struct {
	*store.Memory
	release chan struct{}
}

func (h hanging) Grants(context.Context, store.Scope, string) ([]string, error) {
	<-h.release
	return []string{"late"}, nil
}

func (h hanging) Cancelled(ctx context.Context, _ string) (string, bool, error) {
	<-ctx.Done()
	return "", false, errors.New("driver: " + ctx.Err().Error())
}

func (h hanging) Approval(context.Context, string) (store.Approval, error) { panic("boom") }

// A Bounded store ends every call by its deadline: one that ignores its
// context with ErrTimeout, one that honours it with its own error wrapped
// in ErrTimeout; a panic is an error; a call in time passes through.
func TestBounded(t *testing.T) {
	h := hanging{Memory: store.NewMemory(), release: make(chan struct{})}
	defer close(h.release)
	b := store.Bound(h, 50*time.Millisecond)
	assert.Equal(t, 50*time.Millisecond, b.Timeout())
	assert.Equal(t, 80*time.Millisecond, store.Bound(b, 80*time.Millisecond).Timeout(), "rebinding sets the bound")
	assert.Equal(t, store.DefaultTimeout, store.Bound(h, 0).Timeout())

	start := time.Now()
	rules, err := b.Grants(t.Context(), store.ScopeUser, "ann")
	assert.Less(t, time.Since(start), time.Second)
	require.ErrorIs(t, err, store.ErrTimeout)
	assert.ErrorContains(t, err, "store: no answer before the deadline (reading grants, 50ms)")
	assert.Nil(t, rules, "no late result")

	_, ok, err := b.Cancelled(t.Context(), "s1")
	require.ErrorIs(t, err, store.ErrTimeout)
	assert.ErrorContains(t, err, "reading a cancellation, 50ms): driver: context deadline exceeded")
	assert.False(t, ok)

	_, err = b.Approval(t.Context(), "ask-1")
	assert.EqualError(t, err, "store: reading an approval panicked: boom")

	require.NoError(t, b.CancelSession(t.Context(), "s1", "stop"))
	reason, ok, err := h.Memory.Cancelled(t.Context(), "s1")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "stop", reason, "a call in time passes through")

	// The caller's own cancellation is not a timeout.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, _, err = b.Cancelled(ctx, "s1")
	require.Error(t, err)
	assert.NotErrorIs(t, err, store.ErrTimeout)
	assert.ErrorContains(t, err, "store: reading a cancellation: driver: context canceled")
}

// A Bounded Memory is still a store.
func TestBoundedMemory(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Store { return store.Bound(store.NewMemory(), time.Second) })
}

// A Bounded Memory is called on the caller's goroutine: no goroutine, no
// timer, no allocation per call; a type that embeds a Memory (hanging,
// above) is bounded as any other store.
func TestBoundedMemoryDirect(t *testing.T) {
	m := store.NewMemory()
	b := store.Bound(m, time.Second)
	ctx := t.Context()
	require.NoError(t, b.CancelSession(ctx, "s1", "stop"))
	allocs := testing.AllocsPerRun(100, func() {
		reason, ok, err := b.Cancelled(ctx, "s1")
		if err != nil || !ok || reason != "stop" {
			panic("not cancelled")
		}
	})
	assert.Zero(t, allocs, "a Bounded Memory's call allocates")
}
