package sqlstore

import (
	"time"

	"github.com/toolgate/toolgate/runtime/store"
)

// Option configures a [Store] when it is opened.
type Option func(*options)

type options struct {
	timeout, health time.Duration
}

// DefaultHealthCheck is how long the PostgreSQL listener may hear nothing
// before it pings its connection.
const DefaultHealthCheck = 5 * time.Second

func buildOptions(opts []Option) options {
	o := options{timeout: store.DefaultTimeout, health: DefaultHealthCheck}
	for _, f := range opts {
		f(&o)
	}
	return o
}

// WithTimeout bounds every call of the store, the opening included:
// past it the call fails with an error that wraps [store.ErrTimeout]
// (the pipeline then denies, saying so). Zero or less keeps
// [store.DefaultTimeout]. A pipeline bounds each call as well, by
// store.DefaultTimeout unless its store is a [store.Bounded]: for a longer
// bound give it store.Bound(st, d) too.
func WithTimeout(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.timeout = d
		}
	}
}

// WithHealthCheck sets how long the PostgreSQL listener may hear nothing
// before it pings its connection; a ping with no answer within the
// store's timeout counts the connection as lost: the watchers hear
// [store.Lost], and [store.Resync] once a new connection listens. A
// stalled listener is thus noticed within d plus the timeout. Zero or
// less keeps [DefaultHealthCheck]. SQLite has no listener.
func WithHealthCheck(d time.Duration) Option {
	return func(o *options) {
		if d > 0 {
			o.health = d
		}
	}
}
