package store_test

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/runtime/store"
)

// A watcher with a want gets only what it accepts, asked before the event
// is queued, and every Lost and Resync whatever it says; one without gets
// all, in order.
func TestHubWatchIf(t *testing.T) {
	var h store.Hub
	var mu sync.Mutex
	var some, all []store.EventKind
	var asked []store.EventKind
	stopSome := h.WatchIf(func(e store.Event) bool {
		asked = append(asked, e.Kind) // Publish's goroutine: this test's
		return e.Kind == store.GrantAdded
	}, func(e store.Event) { mu.Lock(); some = append(some, e.Kind); mu.Unlock() })
	defer stopSome()
	stopAll := h.Watch(func(e store.Event) { mu.Lock(); all = append(all, e.Kind); mu.Unlock() })
	defer stopAll()
	sent := []store.EventKind{store.ApprovalAdded, store.GrantAdded, store.Lost, store.ApprovalAnswered, store.Resync, store.SessionCancelled}
	for _, k := range sent {
		h.Publish(store.Event{Kind: k})
	}
	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(all) == len(sent) && len(some) == 3 }, 5*time.Second, time.Millisecond)
	time.Sleep(10 * time.Millisecond) // nothing more comes
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, sent, all, "a watcher without a want gets every event, in order")
	assert.Equal(t, []store.EventKind{store.GrantAdded, store.Lost, store.Resync}, some, "only what want accepts, and every Lost and Resync")
	assert.Equal(t, []store.EventKind{store.ApprovalAdded, store.GrantAdded, store.ApprovalAnswered, store.SessionCancelled}, asked,
		"want is not asked of Lost and Resync")
}

// A store that embeds a Memory and watches its own way is watched its
// own way by Bounded.WatchIf, want applied to what it hands out: the
// Memory's feed, which it does not use, is not taken in its place.
func TestBoundedWatchIfOwnWatch(t *testing.T) {
	st := &ownFeed{Memory: store.NewMemory()}
	b := store.Bound(st, time.Second)
	got := make(chan store.EventKind, 4)
	stop := b.WatchIf(func(e store.Event) bool { return e.Kind != store.ApprovalAdded }, func(e store.Event) { got <- e.Kind })
	defer stop()
	require.NoError(t, st.AddGrant(t.Context(), store.Grant{Scope: store.ScopeUser, Key: "ann", Rule: "Read"}))
	st.hub.Publish(store.Event{Kind: store.ApprovalAdded})
	st.hub.Publish(store.Event{Kind: store.Lost})
	select {
	case k := <-got:
		assert.Equal(t, store.Lost, k, "the store's own feed, less what want declines; not the Memory's GrantAdded")
	case <-time.After(5 * time.Second):
		t.Fatal("the store's own feed never reached the watcher")
	}
}

type ownFeed struct {
	*store.Memory
	hub store.Hub
}

func (s *ownFeed) Watch(fn func(store.Event)) func() { return s.hub.Watch(fn) }
