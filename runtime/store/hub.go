package store

import "sync"

// Hub hands events to watchers, each on a goroutine of its own and in the
// order they were published; a slow watcher delays only itself. The zero
// value is ready. Store implementations use it for [Store.Watch].
type Hub struct {
	mu       sync.Mutex
	watchers map[*watcher]struct{}
}

type watcher struct {
	want    func(Event) bool // nil: every event
	fn      func(Event)
	mu      sync.Mutex
	queue   []Event
	spare   []Event // the room of the batch drain handed out last, for the next
	running bool
	stopped bool
}

// Watch calls fn for each event published after it returns, until stop.
func (h *Hub) Watch(fn func(Event)) (stop func()) { return h.WatchFrom(fn) }

// WatchFrom is Watch that first hands fn the events first, before any
// published later: what a store says of its state to a watcher that comes
// late (a [Lost] not yet followed by its [Resync]).
func (h *Hub) WatchFrom(fn func(Event), first ...Event) (stop func()) {
	return h.WatchIf(nil, fn, first...)
}

// WatchIf is WatchFrom for the events want accepts, and every [Lost] and
// [Resync] (and every event of first); nil want accepts all. Publish asks
// want on its caller's goroutine, after the change the event tells of
// and before the event is queued, so that an event the watcher has no
// use for costs no wake of its goroutine: want must be quick, must not
// block and must not call the store.
func (h *Hub) WatchIf(want func(Event) bool, fn func(Event), first ...Event) (stop func()) {
	w := &watcher{want: want, fn: fn}
	h.mu.Lock()
	if h.watchers == nil {
		h.watchers = make(map[*watcher]struct{})
	}
	h.watchers[w] = struct{}{}
	for _, e := range first {
		w.push(e)
	}
	h.mu.Unlock()
	return func() {
		h.mu.Lock()
		delete(h.watchers, w)
		h.mu.Unlock()
		w.mu.Lock()
		w.stopped, w.queue = true, nil
		w.mu.Unlock()
	}
}

// Publish hands e to every watcher.
func (h *Hub) Publish(e Event) {
	var few [4]*watcher // most hubs have one watcher: no allocation
	h.mu.Lock()
	ws := few[:0]
	for w := range h.watchers {
		ws = append(ws, w)
	}
	h.mu.Unlock()
	for _, w := range ws {
		if w.want == nil || e.Kind == Lost || e.Kind == Resync || w.want(e) {
			w.push(e)
		}
	}
}

func (w *watcher) push(e Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.queue = append(w.queue, e)
	if !w.running {
		w.running = true
		go w.drain()
	}
}

// drain hands the queued events to fn in order, a batch at a time: the
// queue takes the room of the batch before, so that a steady flow of
// events allocates nothing.
func (w *watcher) drain() {
	for {
		w.mu.Lock()
		if len(w.queue) == 0 || w.stopped {
			w.running = false
			w.mu.Unlock()
			return
		}
		batch := w.queue
		w.queue, w.spare = w.spare[:0], nil
		w.mu.Unlock()
		for i := range batch {
			w.mu.Lock()
			stopped := w.stopped
			w.mu.Unlock()
			if stopped {
				break
			}
			w.fn(batch[i])
		}
		clear(batch)
		w.mu.Lock()
		if w.spare == nil && !w.stopped {
			w.spare = batch[:0]
		}
		w.mu.Unlock()
	}
}
