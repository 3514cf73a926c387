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
// listens for the changes of every replica. If the listening connection
// drops, it reconnects and tells the watchers to reload ([store.Resync]).
func OpenPostgres(ctx context.Context, dsn string) (*Store, error) {
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("sqlstore: %w", err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	if err := pgSchema(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	s := &Store{db: db, pg: true}
	conn, err := pgx.Connect(ctx, dsn)
	if err == nil {
		_, err = conn.Exec(ctx, "LISTEN "+channel)
	}
	if err != nil {
		if conn != nil {
			conn.Close(ctx)
		}
		db.Close()
		return nil, fmt.Errorf("sqlstore: listen: %w", err)
	}
	lctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { s.listen(lctx, dsn, conn) })
	s.stopListen = func() { cancel(); wg.Wait() }
	return s, nil
}

// pgSchema creates the tables under an advisory lock, so that replicas
// starting together do not race on CREATE TABLE.
func pgSchema(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("sqlstore: %w", err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7165431)`); err != nil {
		return fmt.Errorf("sqlstore: schema lock: %w", err)
	}
	if err := execAll(ctx, tx, schema("BIGSERIAL PRIMARY KEY")); err != nil {
		return err
	}
	return tx.Commit()
}

// listen hands each notification to the watchers until ctx ends.
func (s *Store) listen(ctx context.Context, dsn string, conn *pgx.Conn) {
	backoff := 50 * time.Millisecond
	for {
		for conn != nil {
			n, err := conn.WaitForNotification(ctx)
			if err != nil {
				conn.Close(context.Background())
				conn = nil
				break
			}
			var w wire
			if json.Unmarshal([]byte(n.Payload), &w) != nil {
				w = wire{Kind: store.Resync}
			}
			s.hub.Publish(store.Event{Kind: w.Kind, Scope: w.Scope, Key: w.Key, ID: w.ID})
		}
		if ctx.Err() != nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
		c, err := pgx.Connect(ctx, dsn)
		if err == nil {
			if _, err = c.Exec(ctx, "LISTEN "+channel); err != nil {
				c.Close(context.Background())
			}
		}
		if err != nil {
			continue
		}
		conn, backoff = c, 50*time.Millisecond
		// Changes made while no one listened are unknown: reload.
		s.hub.Publish(store.Event{Kind: store.Resync})
	}
}
