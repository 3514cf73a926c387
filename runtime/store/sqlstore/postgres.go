package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/toolgate/toolgate/internal/sqlschema"
	"github.com/toolgate/toolgate/runtime/store"
)

// channel is the NOTIFY channel of every change.
const channel = "toolgate_store"

// wire is an event as NOTIFY carries it.
type wire struct {
	Kind  store.EventKind `json:"k"`
	Scope store.Scope     `json:"s,omitempty"`
	Key   string          `json:"key,omitempty"`
	ID    string          `json:"id,omitempty"`
}

func wireEvent(e store.Event) wire { return wire{e.Kind, e.Scope, e.Key, e.ID} }

// OpenPostgres connects to the PostgreSQL server at dsn (a URL or a
// key=value string, as pgx reads it), creates the tables if needed, and
// listens for the changes of every replica. Every call, the opening
// included, ends by the store's timeout ([WithTimeout]). The listening
// connection is pinged after a silence ([WithHealthCheck]); when it is
// lost (dropped, reset or stalled) the watchers hear [store.Lost], and
// [store.Resync] after every reconnect, so that they reload what they
// cache.
func OpenPostgres(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	o := buildOptions(opts)
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %w", err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	s := &Store{db: db, pg: true, timeout: o.timeout, health: o.health}
	octx, cancel := s.bound(ctx)
	defer cancel()
	if err := migrate(octx, db, sqlschema.Postgres); err != nil {
		db.Close()
		return nil, err
	}
	conn, err := s.subscribe(octx, dsn)
	if err != nil {
		db.Close()
		return nil, err
	}
	lctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { s.listen(lctx, dsn, conn) })
	s.stopListen = func() { stop(); wg.Wait() }
	return s, nil
}

// subscribe opens a connection that listens on the channel, within the
// store's timeout.
func (s *Store) subscribe(ctx context.Context, dsn string) (*pgx.Conn, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	c, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, failed(ctx, "listen", err)
	}
	if _, err := c.Exec(ctx, "LISTEN "+channel); err != nil {
		s.closeConn(c)
		return nil, failed(ctx, "listen", err)
	}
	return c, nil
}

// closeConn closes c, waiting no longer than the store's timeout.
func (s *Store) closeConn(c *pgx.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	_ = c.Close(ctx)
}

// listen hands each notification to the watchers until ctx ends, and
// reconnects when the connection is lost: Lost when it is, Resync once a
// new connection listens (what was said in between is unknown).
func (s *Store) listen(ctx context.Context, dsn string, conn *pgx.Conn) {
	backoff := 50 * time.Millisecond
	for {
		if conn != nil {
			s.hear(ctx, conn)
			s.closeConn(conn)
			conn = nil
			if ctx.Err() != nil {
				return
			}
			s.publishState(store.Event{Kind: store.Lost})
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
		c, err := s.subscribe(ctx, dsn)
		if err != nil {
			continue
		}
		conn, backoff = c, 50*time.Millisecond
		s.publishState(store.Event{Kind: store.Resync})
	}
}

// hear publishes conn's notifications until ctx ends or conn is lost: it
// fails, or it stays silent for the health-check interval and then does
// not answer a ping within the timeout.
func (s *Store) hear(ctx context.Context, conn *pgx.Conn) {
	for {
		wctx, cancel := context.WithTimeout(ctx, s.health)
		n, err := conn.WaitForNotification(wctx)
		silent := wctx.Err() != nil
		cancel()
		switch {
		case err == nil:
			var w wire
			if json.Unmarshal([]byte(n.Payload), &w) != nil {
				w = wire{Kind: store.Resync}
			}
			s.hub.Publish(store.Event{Kind: w.Kind, Scope: w.Scope, Key: w.Key, ID: w.ID})
			continue
		case ctx.Err() != nil, !silent:
			return
		}
		pctx, cancel := context.WithTimeout(ctx, s.timeout)
		err = conn.Ping(pctx)
		cancel()
		if err != nil {
			return
		}
	}
}
