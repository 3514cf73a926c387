package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/internal/faultproxy"
	"github.com/toolgate/toolgate/runtime/store/sqlstore"
)

// The bounds of the fault tests: each store call ends within timeout; a
// silent listener is pinged after health.
const (
	timeout = 400 * time.Millisecond
	health  = 200 * time.Millisecond
	// bound is the most any call or notice may take under a fault.
	bound = 3 * time.Second
	// stalledBound is the most a call may take on a stalled store: its
	// timeout, and slack for a loaded machine.
	stalledBound = timeout + time.Second
)

// proxiedPG opens a store on the test's PostgreSQL through a fault proxy
// on loopback.
func proxiedPG(t *testing.T) (*sqlstore.Store, *faultproxy.Proxy) {
	t.Helper()
	u, err := url.Parse(postgresDSN(t))
	require.NoError(t, err)
	require.NotEmpty(t, u.Host, "the fault tests need a DSN in URL form")
	px := faultproxy.Start(t, u.Host)
	u.Host = px.Addr()
	// The opening is bounded by the same short timeout as every call; on
	// a loaded machine a connection through the proxy may take longer
	// than that to come up, which is not the fault under test.
	var st *sqlstore.Store
	for try := 1; ; try++ {
		st, err = sqlstore.OpenPostgres(t.Context(), u.String(), sqlstore.WithTimeout(timeout), sqlstore.WithHealthCheck(health))
		if err == nil || !errors.Is(err, store.ErrTimeout) || try == 5 {
			break
		}
		t.Logf("opening through the proxy, try %d: %v", try, err)
	}
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return st, px
}

// openWith opens a pipeline on dir over st for user, asking through asker
// if it is not nil; Read is allowed, so that a call is allowed unless
// something stops it.
func openWith(t *testing.T, dir, user string, st store.Store, asker approval.Asker) *runtime.Pipeline {
	t.Helper()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask, Allow: []string{"Read"}},
		Store: st, User: user, Asker: asker, AskTimeout: time.Minute, Limits: runtime.Limits{MaxSteps: 1 << 20, RepeatLimit: 100, CycleRepeats: 30}})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

func uniq(name string) string { return fmt.Sprintf("%s-%d", name, time.Now().UnixNano()) }

// read is a call of Read on dir's main.go with a new offset each time
// (so that it never counts as a repeated call).
func read(session, dir string, n int) runtime.Call {
	return runtime.Call{Session: session, Tool: "Read", Input: []byte(fmt.Sprintf(`{"file_path":%q,"offset":%d}`, filepath.Join(dir, "main.go"), n))}
}

// within runs fn and fails the test if it has not returned after d.
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() { defer close(done); fn() }()
	select {
	case <-done:
		t.Logf("%s: %s", what, time.Since(start).Round(time.Millisecond))
	case <-time.After(d):
		t.Fatalf("%s still waiting after %s", what, d)
	}
}

// waitRule waits until the live session id on p has the Allow rule.
func waitRule(t *testing.T, p *runtime.Pipeline, id, rule string, d time.Duration) {
	t.Helper()
	s, err := p.Session(t.Context(), runtime.SessionOptions{ID: id})
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		for _, r := range s.Rules().Rules() {
			if r.Decision == permission.Allow && r.Rule == rule {
				return true
			}
		}
		return false
	}, d, 5*time.Millisecond, "session %s never got the rule %s", id, rule)
}

// A database behind a proxy that stalls, drops or resets every
// connection costs session start, Check, BeginStep and Cancel at most the
// store's timeout: each ends in bounded time with its answer or a Deny (or
// error) that says the store did not answer; none allows a call it should
// not. Once the network is back, asks are recorded again.
func TestPostgresFaultsNeverHang(t *testing.T) {
	for _, fault := range []string{"stall", "drop", "reset"} {
		t.Run(fault, func(t *testing.T) {
			st, px := proxiedPG(t)
			dir := workspace(t)
			p := openWith(t, dir, "ann", st, nil)
			asker := approval.NewStoreAsker(st, dir, "ann")
			defer asker.Close()
			pa := openWith(t, dir, "ann", st, asker)
			id := uniq(fault)
			s, err := p.Session(t.Context(), runtime.SessionOptions{ID: id})
			require.NoError(t, err)
			_, err = pa.Session(t.Context(), runtime.SessionOptions{ID: id})
			require.NoError(t, err)
			switch fault {
			case "stall":
				px.Stall()
			case "drop":
				px.Drop(faultproxy.All)
			case "reset":
				px.Reset(faultproxy.All)
			}
			stalled := fault == "stall"
			limit := bound
			if stalled {
				limit = stalledBound
			}

			within(t, limit, "session start", func() {
				_, err := p.Session(t.Context(), runtime.SessionOptions{ID: id + "-2"})
				if stalled {
					require.ErrorIs(t, err, store.ErrTimeout)
					assert.ErrorContains(t, err, "runtime: loading session grants: ")
				}
			})
			within(t, limit, "Check parking an ask", func() {
				v := p.Check(t.Context(), bash(id, "make build"))
				switch {
				case v.Decision == permission.Ask:
					assert.False(t, stalled, "a stalled store recorded the ask")
					assert.NotEmpty(t, v.Ticket, v.Reason)
				case v.Decision == permission.Deny:
					assert.Equal(t, runtime.RuleStore, v.Rule, v.Reason)
					if stalled {
						assert.Contains(t, v.Reason, "no answer before the deadline")
					}
				default:
					t.Errorf("Check under %s: %s %s", fault, v.Decision, v.Reason)
				}
			})
			within(t, limit, "Check asking through the store", func() {
				done := make(chan runtime.Verdict, 1)
				go func() { done <- pa.Check(t.Context(), bash(id, "make test")) }()
				var v runtime.Verdict
			wait:
				for {
					select {
					case v = <-done:
						break wait
					case <-time.After(20 * time.Millisecond):
					}
					if stalled {
						continue
					}
					// Recorded: the person denies it.
					ps, _ := st.Pending(t.Context())
					for _, ap := range ps {
						if ap.Session == id {
							_ = st.AnswerApproval(t.Context(), ap.ID, store.Answer{Choice: store.ChoiceDeny, Reason: "not now"})
						}
					}
				}
				assert.Equal(t, permission.Deny, v.Decision, v.Reason)
				if stalled {
					assert.Contains(t, v.Reason, "no answer before the deadline", v.Reason)
				} else {
					assert.Regexp(t, `^(the person denied it: not now|approval failed: .*|the store's change feed was lost .*)$`, v.Reason)
				}
			})
			within(t, limit, "BeginStep", func() { s.BeginStep() })
			within(t, limit, "Cancel", func() {
				err := p.Cancel(t.Context(), id, "stop")
				if stalled {
					assert.ErrorIs(t, err, store.ErrTimeout)
				}
			})
			v := p.Check(t.Context(), read(id, dir, 1))
			assert.Equal(t, permission.Deny, v.Decision, "a cancelled session's call: %s", v.Reason)
			assert.Equal(t, runtime.RuleCancelled, v.Rule, v.Reason)

			px.Resume()
			require.EventuallyWithT(t, func(c *assert.CollectT) {
				other := uniq(fault + "-after")
				_, err := p.Session(t.Context(), runtime.SessionOptions{ID: other})
				if !assert.NoError(c, err) {
					return
				}
				v := p.Check(t.Context(), bash(other, "make build"))
				assert.Equal(c, permission.Ask, v.Decision, v.Reason)
				assert.NotEmpty(c, v.Ticket, v.Reason)
			}, 10*time.Second, 50*time.Millisecond, "the store never came back")
		})
	}
}

// A listener whose connection stalls (a NAT forgot it) is noticed in
// bounded time: the replica denies from then on, and a session cancelled
// on another replica meanwhile ends with its cancellation once the
// listener is back.
func TestPostgresStalledListenerIsNoticed(t *testing.T) {
	stA, px := proxiedPG(t)
	dir := workspace(t)
	a := openWith(t, dir, "ann", stA, nil)
	b := openWith(t, dir, "ann", openPG(t), nil)
	id := uniq("listen-stall")
	_, err := a.Session(t.Context(), runtime.SessionOptions{ID: id})
	require.NoError(t, err)
	v := a.Check(t.Context(), read(id, dir, 0))
	require.Equal(t, permission.Allow, v.Decision, v.Reason)

	px.StallOpen(faultproxy.Listeners)
	require.NoError(t, b.Cancel(t.Context(), id, "stopped on b"))
	cancelled := time.Now()
	n := 1
	for {
		n++
		v = a.Check(t.Context(), read(id, dir, n))
		if v.Decision == permission.Deny {
			break
		}
		if time.Since(cancelled) > bound {
			t.Fatalf("%s after the cancel on another replica, the call is still allowed: %s", bound, v.Reason)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("denied %s after the cancel: %s", time.Since(cancelled).Round(time.Millisecond), v.Reason)
	assert.Contains(t, []permission.RuleID{runtime.RuleStore, runtime.RuleCancelled}, v.Rule, v.Reason)
	require.Eventually(t, func() bool { n++; return a.Check(t.Context(), read(id, dir, n)).Rule == runtime.RuleCancelled },
		2*bound, 10*time.Millisecond, "the cancellation never arrived")
	n++
	v = a.Check(t.Context(), read(id, dir, n))
	assert.Contains(t, v.Reason, "stopped on b")

	// Back in sync: another session's calls are allowed again.
	id2 := uniq("listen-stall-2")
	_, err = a.Session(t.Context(), runtime.SessionOptions{ID: id2})
	require.NoError(t, err)
	require.Eventually(t, func() bool { n++; return a.Check(t.Context(), read(id2, dir, n)).Decision == permission.Allow },
		2*bound, 10*time.Millisecond, "the replica never came back in sync")
}

// What another replica does while this one's listener reconnects (and its
// pooled connections are dead) is not lost: the change heard, or read
// again after the reconnect, reaches the live sessions even though the
// first reads fail.
func TestPostgresChangesAroundReconnectHold(t *testing.T) {
	stA, px := proxiedPG(t)
	dir := workspace(t)
	a := openWith(t, dir, "ann", stA, nil)
	b := openWith(t, dir, "ann", openPG(t), nil)
	id, id2 := uniq("reconnect"), uniq("reconnect-grant")
	for _, s := range []string{id, id2} {
		_, err := a.Session(t.Context(), runtime.SessionOptions{ID: s})
		require.NoError(t, err)
	}
	v := a.Check(t.Context(), read(id, dir, 0))
	require.Equal(t, permission.Allow, v.Decision, v.Reason)

	px.StallOpen(faultproxy.Others) // the pool's connections die silently
	px.Reset(faultproxy.Listeners)  // and the listener's loudly: it reconnects
	require.NoError(t, b.Cancel(t.Context(), id, "stopped on b"))
	require.NoError(t, b.Grant(t.Context(), store.ScopeSession, id2, "Bash(make build)"))
	cancelled := time.Now()
	n := 1
	for {
		n++
		v = a.Check(t.Context(), read(id, dir, n))
		if v.Decision == permission.Deny {
			break
		}
		if time.Since(cancelled) > bound {
			t.Fatalf("%s after the cancel on another replica, the call is still allowed: %s", bound, v.Reason)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("denied %s after the cancel: %s", time.Since(cancelled).Round(time.Millisecond), v.Reason)
	require.Eventually(t, func() bool { n++; return a.Check(t.Context(), read(id, dir, n)).Rule == runtime.RuleCancelled },
		2*bound, 10*time.Millisecond, "the cancellation was lost")
	waitRule(t, a, id2, "Bash(make build)", 2*bound)
	// The rule may arrive before the resync that ends the outage: the
	// replica denies until it is back in sync, then allows.
	var seen []string
	// (Polled slowly: the same call denied again and again would meet
	// the pipeline's repeat limit, which the pipelines here set high.)
	ok := assert.Eventually(t, func() bool {
		start := time.Now()
		v = a.Check(t.Context(), bash(id2, "make build"))
		seen = append(seen, fmt.Sprintf("%s %s (%s)", time.Since(cancelled).Round(time.Millisecond), v.Reason, time.Since(start).Round(time.Millisecond)))
		return v.Decision == permission.Allow
	}, 5*bound, 200*time.Millisecond, "the grant never applied after the reconnect")
	if !ok {
		t.Fatalf("checks: %q", seen)
	} // the pool's stalled connections each cost a re-read its deadline first
	assert.Equal(t, "Bash(make build)", string(v.Rule), v.Reason)
}

// Two replicas, each with a session whose model names its call
// "toolu_1", ask through the shared store at once: both asks are
// recorded, and each session gets its own answer. On PostgreSQL (two
// stores, as two processes have) and SQLite (one file).
func TestStoreAskerSameCallIDOnReplicas(t *testing.T) {
	sqlite := func(t *testing.T) (store.Store, store.Store) {
		st, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "state.db"))
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		return st, st
	}
	pg := func(t *testing.T) (store.Store, store.Store) { return openPG(t), openPG(t) }
	for name, stores := range map[string]func(*testing.T) (store.Store, store.Store){"postgres": pg, "sqlite": sqlite} {
		t.Run(name, func(t *testing.T) {
			st1, st2 := stores(t)
			dir := workspace(t)
			var ps []*runtime.Pipeline
			for _, st := range []store.Store{st1, st2} {
				asker := approval.NewStoreAsker(st, dir, "ann")
				t.Cleanup(func() { asker.Close() })
				ps = append(ps, openWith(t, dir, "ann", st, asker))
			}
			sessions := []string{uniq("same-id-1"), uniq("same-id-2")}
			got := make([]chan runtime.Verdict, 2)
			for i, p := range ps {
				_, err := p.Session(t.Context(), runtime.SessionOptions{ID: sessions[i]})
				require.NoError(t, err)
				got[i] = make(chan runtime.Verdict, 1)
				go func() {
					call := bash(sessions[i], "make build")
					call.ID = "toolu_1"
					got[i] <- p.Check(context.Background(), call)
				}()
			}
			ids := map[string]string{}
			require.Eventually(t, func() bool {
				pend, err := st1.Pending(t.Context())
				if err != nil {
					return false
				}
				for _, a := range pend {
					if a.Session == sessions[0] || a.Session == sessions[1] {
						ids[a.Session] = a.ID
					}
				}
				return len(ids) == 2
			}, 10*time.Second, 10*time.Millisecond, "both asks reach the store")
			require.NoError(t, st1.AnswerApproval(t.Context(), ids[sessions[0]], store.Answer{Choice: store.ChoiceAllowOnce, By: "ann"}))
			require.NoError(t, st1.AnswerApproval(t.Context(), ids[sessions[1]], store.Answer{Choice: store.ChoiceDeny, Reason: "not now", By: "ann"}))
			for i, want := range []string{"the person allowed it (allow-once) after: ", "the person denied it: not now"} {
				select {
				case v := <-got[i]:
					assert.Contains(t, v.Reason, want, sessions[i])
					assert.Equal(t, []permission.Decision{permission.Allow, permission.Deny}[i], v.Decision, v.Reason)
				case <-time.After(10 * time.Second):
					t.Fatalf("session %s never got its answer", sessions[i])
				}
			}
		})
	}
}

// A session grant in one workspace does not reach the session of the same
// id in another workspace, or of another user, sharing the store: on
// PostgreSQL and SQLite.
func TestSessionGrantsKeyedOnReplicas(t *testing.T) {
	sqlite := func(t *testing.T) store.Store {
		st, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "state.db"))
		require.NoError(t, err)
		t.Cleanup(func() { st.Close() })
		return st
	}
	pg := func(t *testing.T) store.Store { return openPG(t) }
	for name, open := range map[string]func(*testing.T) store.Store{"postgres": pg, "sqlite": sqlite} {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			d1, d2 := workspace(t), workspace(t)
			id := uniq("keyed")
			p1 := openWith(t, d1, "ann", st, nil)
			_, err := p1.Session(t.Context(), runtime.SessionOptions{ID: id})
			require.NoError(t, err)
			require.NoError(t, p1.Grant(t.Context(), store.ScopeSession, id, "Bash(make build)"))
			waitRule(t, p1, id, "Bash(make build)", 5*time.Second)
			v := p1.Check(t.Context(), bash(id, "make build"))
			require.Equal(t, permission.Allow, v.Decision, v.Reason)
			for other, p := range map[string]*runtime.Pipeline{"another workspace": openWith(t, d2, "ann", st, nil), "another user": openWith(t, d1, "bob", st, nil)} {
				_, err := p.Session(t.Context(), runtime.SessionOptions{ID: id})
				require.NoError(t, err)
				v := p.Check(t.Context(), bash(id, "make build"))
				assert.Equal(t, permission.Ask, v.Decision, "%s: %s", other, v.Reason)
			}
		})
	}
}

// SQLite: a database another connection holds locked costs a call the
// store's timeout, not the driver's busy wait.
func TestSQLiteLockedEndsByTheDeadline(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := sqlstore.OpenSQLite(t.Context(), path, sqlstore.WithTimeout(timeout))
	require.NoError(t, err)
	defer st.Close()
	db, err := sql.Open("sqlite", "file:"+path)
	require.NoError(t, err)
	defer db.Close()
	conn, err := db.Conn(t.Context())
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(t.Context(), "BEGIN EXCLUSIVE")
	require.NoError(t, err)
	defer conn.ExecContext(context.Background(), "ROLLBACK")
	within(t, bound, "AddGrant on a locked database", func() {
		err := st.AddGrant(t.Context(), store.Grant{Scope: store.ScopeUser, Key: "ann", Rule: "Bash(make build)"})
		assert.ErrorIs(t, err, store.ErrTimeout)
	})
}

// A watcher that comes while the listener is lost (a pipeline opened
// during the outage) hears Lost first, then the Resync once the listener
// is back: it never takes a stale cache for a fresh one.
func TestPostgresLateWatcherHearsLost(t *testing.T) {
	st, px := proxiedPG(t)
	early := make(chan store.Event, 64)
	stop := st.Watch(func(e store.Event) { early <- e })
	defer stop()
	px.Stall()
	waitKind(t, early, store.Lost, bound)
	late := make(chan store.Event, 64)
	stop2 := st.Watch(func(e store.Event) { late <- e })
	defer stop2()
	select {
	case e := <-late:
		assert.Equal(t, store.Lost, e.Kind, "the first event a late watcher hears")
	case <-time.After(bound):
		t.Fatal("a watcher that came during the outage heard nothing")
	}
	px.Resume()
	waitKind(t, late, store.Resync, 2*bound)
}

func waitKind(t *testing.T, c <-chan store.Event, k store.EventKind, d time.Duration) {
	t.Helper()
	deadline := time.After(d)
	for {
		select {
		case e := <-c:
			if e.Kind == k {
				return
			}
		case <-deadline:
			t.Fatalf("no event of kind %d within %s", k, d)
		}
	}
}
