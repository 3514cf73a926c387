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
	w := &watcher{fn: fn}
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
		w.push(e)
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
