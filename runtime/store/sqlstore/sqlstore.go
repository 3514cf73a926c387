// Package sqlstore keeps the pipeline's state ([store.Store]) in SQL:
// [OpenSQLite] for one machine (the state survives a restart) and
// [OpenPostgres] for many replicas sharing one PostgreSQL, which hear of
// each other's changes through LISTEN/NOTIFY.
//
// Every change is one transaction; an approval's first answer wins
// whichever replica gives it. The pipeline reads the store when a session
// starts and when an event says something changed, never per call.
package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolgate/toolgate/runtime/store"
)

// Store is a [store.Store] over a SQL database. It is safe for concurrent
// use. Close it when done.
type Store struct {
	db      *sql.DB
	pg      bool
	hub     store.Hub
	timeout time.Duration // bounds every call
	health  time.Duration // PostgreSQL: the longest silence before the listener is pinged
	// stopListen stops the PostgreSQL listener; nil for SQLite.
	stopListen func()
	// stateMu orders the listener's Lost and Resync with Watch: lost is
	// set from a Lost until the next Resync, and a watcher that comes in
	// between hears the Lost first.
	stateMu sync.Mutex
	lost    bool
}

// publishState publishes the listener's Lost or Resync.
func (s *Store) publishState(e store.Event) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	s.lost = e.Kind == store.Lost
	s.hub.Publish(e)
}

// bound gives ctx the store's deadline.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, s.timeout, fmt.Errorf("%w (sqlstore, %s)", store.ErrTimeout, s.timeout))
}

// failed wraps err, saying so when the store's deadline ended the call.
func failed(ctx context.Context, what string, err error) error {
	if cause := context.Cause(ctx); cause != nil && errors.Is(cause, store.ErrTimeout) {
		return fmt.Errorf("sqlstore: %s: %w: %w", what, cause, err)
	}
	return fmt.Errorf("sqlstore: %s: %w", what, err)
}

var _ store.Store = (*Store)(nil)

// Close stops listening and closes the database.
func (s *Store) Close() error {
	if s.stopListen != nil {
		s.stopListen()
	}
	return s.db.Close()
}

// Watch implements [store.Store]. With PostgreSQL it sees the changes of
// every replica; with SQLite, those made through this Store. A watcher
// that comes while the PostgreSQL listener is lost hears [store.Lost]
// first.
func (s *Store) Watch(fn func(store.Event)) (stop func()) {
	s.stateMu.Lock()
	defer s.stateMu.Unlock()
	if s.lost {
		return s.hub.WatchFrom(fn, store.Event{Kind: store.Lost})
	}
	return s.hub.Watch(fn)
}

// tx runs fn in a transaction and, once it commits, makes its events
// known.
func (s *Store) tx(ctx context.Context, fn func(ctx context.Context, tx *sql.Tx, emit func(store.Event)) error) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return failed(ctx, "begin", err)
	}
	var events []store.Event
	emit := func(e store.Event) { events = append(events, e) }
	if err := fn(ctx, tx, emit); err != nil {
		_ = tx.Rollback()
		if ctx.Err() != nil && !errors.Is(err, store.ErrTimeout) {
			return failed(ctx, "transaction", err)
		}
		return err
	}
	if s.pg {
		for _, e := range events {
			b, _ := json.Marshal(wireEvent(e))
			if len(b) > 7900 {
				b, _ = json.Marshal(wireEvent(store.Event{Kind: store.Resync}))
			}
			if _, err := tx.ExecContext(ctx, `SELECT pg_notify($1, $2)`, channel, string(b)); err != nil {
				_ = tx.Rollback()
				return failed(ctx, "notify", err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		return failed(ctx, "commit", err)
	}
	if !s.pg {
		for _, e := range events {
			s.hub.Publish(e)
		}
	}
	return nil
}

// AddGrant implements [store.Grants].
func (s *Store) AddGrant(ctx context.Context, g store.Grant) error {
	if !g.Scope.Valid() || g.Key == "" || g.Rule == "" {
		return fmt.Errorf("sqlstore: a grant needs a valid scope, a key and a rule")
	}
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx, emit func(store.Event)) error {
		return addGrant(ctx, tx, emit, g)
	})
}

func addGrant(ctx context.Context, tx *sql.Tx, emit func(store.Event), g store.Grant) error {
	r, err := tx.ExecContext(ctx, `INSERT INTO toolgate_grants (scope, gkey, rule, created) VALUES ($1, $2, $3, $4)
		ON CONFLICT (scope, gkey, rule) DO NOTHING`, int(g.Scope), g.Key, g.Rule, time.Now().UnixNano())
	if err != nil {
		return fmt.Errorf("sqlstore: grant: %w", err)
	}
	if n, _ := r.RowsAffected(); n > 0 {
		emit(store.Event{Kind: store.GrantAdded, Scope: g.Scope, Key: g.Key})
	}
	return nil
}

// Grants implements [store.Grants].
func (s *Store) Grants(ctx context.Context, scope store.Scope, key string) ([]string, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	rows, err := s.db.QueryContext(ctx, `SELECT rule FROM toolgate_grants WHERE scope = $1 AND gkey = $2 ORDER BY id`, int(scope), key)
	if err != nil {
		return nil, failed(ctx, "grants", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var r string
		if err := rows.Scan(&r); err != nil {
			return nil, failed(ctx, "grants", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, failed(ctx, "grants", err)
	}
	return out, nil
}

// approvalBody is what an approval row keeps as JSON: everything but its
// id, times and answer.
type approvalBody struct {
	Session     string                  `json:"session"`
	Project     string                  `json:"project,omitempty"`
	User        string                  `json:"user,omitempty"`
	Tool        string                  `json:"tool"`
	Input       json.RawMessage         `json:"input,omitempty"`
	Reason      string                  `json:"reason,omitempty"`
	Explanation string                  `json:"explanation,omitempty"`
	AlwaysRules []string                `json:"alwaysRules,omitempty"`
	Answerers   []string                `json:"answerers,omitempty"`
	Agent       string                  `json:"agent,omitempty"`
	Script      string                  `json:"script,omitempty"`
	Commands    []store.ApprovalCommand `json:"commands,omitempty"`
}

// PutApproval implements [store.Approvals].
func (s *Store) PutApproval(ctx context.Context, a store.Approval) error {
	if a.ID == "" {
		return errors.New("sqlstore: an approval needs an id")
	}
	if len(a.Input) > 0 && !json.Valid(a.Input) {
		return errors.New("sqlstore: an approval's input must be JSON")
	}
	body, err := json.Marshal(approvalBody{a.Session, a.Project, a.User, a.Tool, a.Input, a.Reason, a.Explanation, a.AlwaysRules, a.Answerers,
		a.Agent, a.Script, a.Commands})
	if err != nil {
		return fmt.Errorf("sqlstore: %w", err)
	}
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx, emit func(store.Event)) error {
		r, err := tx.ExecContext(ctx, `INSERT INTO toolgate_approvals (id, session, body, created, expires, answered)
			VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (id) DO NOTHING`,
			a.ID, a.Session, string(body), nanos(a.Created), nanos(a.Expires))
		if err != nil {
			return fmt.Errorf("sqlstore: approval: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return fmt.Errorf("%w: %q", store.ErrExists, a.ID)
		}
		emit(store.Event{Kind: store.ApprovalAdded, ID: a.ID, Key: a.Session})
		return nil
	})
}

func nanos(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixNano()
}

func fromNanos(n int64) time.Time {
	if n == 0 {
		return time.Time{}
	}
	return time.Unix(0, n)
}

const approvalCols = `id, body, created, expires, answered, choice, areason, aby, ascope`

type scanner interface{ Scan(...any) error }

func scanApproval(r scanner) (store.Approval, error) {
	var a store.Approval
	var body string
	var created, expires int64
	var answered, choice, scope int
	if err := r.Scan(&a.ID, &body, &created, &expires, &answered, &choice, &a.Answer.Reason, &a.Answer.By, &scope); err != nil {
		return a, err
	}
	var b approvalBody
	if err := json.Unmarshal([]byte(body), &b); err != nil {
		return a, fmt.Errorf("sqlstore: approval %q: %w", a.ID, err)
	}
	a.Session, a.Project, a.User, a.Tool, a.Input = b.Session, b.Project, b.User, b.Tool, b.Input
	a.Reason, a.Explanation, a.AlwaysRules, a.Answerers = b.Reason, b.Explanation, b.AlwaysRules, b.Answerers
	a.Agent, a.Script, a.Commands = b.Agent, b.Script, b.Commands
	a.Created, a.Expires = fromNanos(created), fromNanos(expires)
	a.Answered = answered != 0
	a.Answer.Choice, a.Answer.Scope = uint8(choice), store.Scope(scope)
	return a, nil
}

// Approval implements [store.Approvals].
func (s *Store) Approval(ctx context.Context, id string) (store.Approval, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := scanApproval(s.db.QueryRowContext(ctx, `SELECT `+approvalCols+` FROM toolgate_approvals WHERE id = $1`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return a, fmt.Errorf("%w: approval %q", store.ErrNotFound, id)
	}
	if err != nil {
		return a, failed(ctx, "approval", err)
	}
	return a, nil
}

// Pending implements [store.Approvals].
func (s *Store) Pending(ctx context.Context) ([]store.Approval, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	now := time.Now().UnixNano()
	rows, err := s.db.QueryContext(ctx, `SELECT `+approvalCols+` FROM toolgate_approvals
		WHERE answered = 0 AND (expires = 0 OR expires > $1) ORDER BY created, id`, now)
	if err != nil {
		return nil, failed(ctx, "pending", err)
	}
	defer rows.Close()
	var out []store.Approval
	for rows.Next() {
		a, err := scanApproval(rows)
		if err != nil {
			return nil, failed(ctx, "pending", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, failed(ctx, "pending", err)
	}
	return out, nil
}

// AnswerApproval implements [store.Approvals].
func (s *Store) AnswerApproval(ctx context.Context, id string, ans store.Answer) error {
	if ans.Choice > store.ChoiceAllowAlways || ans.Scope != 0 && !ans.Scope.Valid() {
		return fmt.Errorf("sqlstore: invalid answer (choice %d, scope %d)", ans.Choice, ans.Scope)
	}
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx, emit func(store.Event)) error {
		lock := ""
		if s.pg {
			lock = " FOR UPDATE"
		}
		a, err := scanApproval(tx.QueryRowContext(ctx, `SELECT `+approvalCols+` FROM toolgate_approvals WHERE id = $1`+lock, id))
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("%w: approval %q", store.ErrNotFound, id)
		case err != nil:
			return fmt.Errorf("sqlstore: answer: %w", err)
		case a.Answered:
			return fmt.Errorf("%w: %q", store.ErrAnswered, id)
		case !a.Expires.IsZero() && !time.Now().Before(a.Expires):
			return fmt.Errorf("%w: %q", store.ErrExpired, id)
		}
		r, err := tx.ExecContext(ctx, `UPDATE toolgate_approvals SET answered = 1, choice = $2, areason = $3, aby = $4, ascope = $5, answered_at = $6
			WHERE id = $1 AND answered = 0`, id, int(ans.Choice), ans.Reason, ans.By, int(ans.Scope), time.Now().UnixNano())
		if err != nil {
			return fmt.Errorf("sqlstore: answer: %w", err)
		}
		if n, _ := r.RowsAffected(); n != 1 {
			return fmt.Errorf("%w: %q", store.ErrAnswered, id)
		}
		if ans.Choice == store.ChoiceAllowAlways {
			for _, g := range store.AlwaysGrants(a, ans.Scope) {
				if err := addGrant(ctx, tx, emit, g); err != nil {
					return err
				}
			}
		}
		emit(store.Event{Kind: store.ApprovalAnswered, ID: id, Key: a.Session})
		return nil
	})
}

// CancelSession implements [store.Cancels].
func (s *Store) CancelSession(ctx context.Context, session, reason string) error {
	return s.tx(ctx, func(ctx context.Context, tx *sql.Tx, emit func(store.Event)) error {
		r, err := tx.ExecContext(ctx, `INSERT INTO toolgate_cancels (session, reason, created) VALUES ($1, $2, $3)
			ON CONFLICT (session) DO NOTHING`, session, reason, time.Now().UnixNano())
		if err != nil {
			return fmt.Errorf("sqlstore: cancel: %w", err)
		}
		if n, _ := r.RowsAffected(); n > 0 {
			emit(store.Event{Kind: store.SessionCancelled, Key: session})
		}
		return nil
	})
}

// Cancelled implements [store.Cancels].
func (s *Store) Cancelled(ctx context.Context, session string) (string, bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var reason string
	err := s.db.QueryRowContext(ctx, `SELECT reason FROM toolgate_cancels WHERE session = $1`, session).Scan(&reason)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, failed(ctx, "cancelled", err)
	}
	return reason, true, nil
}

// SaveCounters implements [store.CounterStore].
func (s *Store) SaveCounters(ctx context.Context, session string, c store.Counters) error {
	b, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("sqlstore: %w", err)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err = s.db.ExecContext(ctx, `INSERT INTO toolgate_counters (session, body, updated) VALUES ($1, $2, $3)
		ON CONFLICT (session) DO UPDATE SET body = excluded.body, updated = excluded.updated`, session, string(b), time.Now().UnixNano())
	if err != nil {
		return failed(ctx, "counters", err)
	}
	return nil
}

// Counters implements [store.CounterStore].
func (s *Store) Counters(ctx context.Context, session string) (store.Counters, bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var body string
	err := s.db.QueryRowContext(ctx, `SELECT body FROM toolgate_counters WHERE session = $1`, session).Scan(&body)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Counters{}, false, nil
	}
	if err != nil {
		return store.Counters{}, false, failed(ctx, "counters", err)
	}
	var c store.Counters
	if err := json.Unmarshal([]byte(body), &c); err != nil {
		return c, false, fmt.Errorf("sqlstore: counters of %q: %w", session, err)
	}
	return c, true, nil
}

// Prune deletes the approvals answered or expired before cutoff, so that
// the table stays small. Hosts call it now and then.
func (s *Store) Prune(ctx context.Context, before time.Time) error {
	n := before.UnixNano()
	ctx, cancel := s.bound(ctx)
	defer cancel()
	_, err := s.db.ExecContext(ctx, `DELETE FROM toolgate_approvals WHERE (answered = 1 AND answered_at < $1)
		OR (answered = 0 AND expires <> 0 AND expires < $1)`, n)
	if err != nil {
		return failed(ctx, "prune", err)
	}
	return nil
}
