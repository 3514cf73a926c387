package sqlstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/sqlstore"
)

func workspace(t testing.TB) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n"), 0o644))
	return dir
}

func open(t testing.TB, dir string, st store.Store) *runtime.Pipeline {
	t.Helper()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask},
		Store: st, User: "ann", AskTimeout: time.Minute,
		Limits: runtime.Limits{MaxSteps: 1 << 20}})
	require.NoError(t, err)
	t.Cleanup(func() { p.Close() })
	return p
}

func bash(session, command string) runtime.Call {
	in, _ := json.Marshal(map[string]string{"command": command})
	return runtime.Call{Session: session, Tool: "Bash", Input: in}
}

// With SQLite, an "allow always" answer survives the process: a pipeline
// opened afresh on the same file starts the session with it, and the
// pending approvals are still there.
func TestSQLiteGrantsSurviveRestart(t *testing.T) {
	dir := workspace(t)
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := sqlstore.OpenSQLite(t.Context(), path)
	require.NoError(t, err)
	p := open(t, dir, st)
	_, err = p.Session(t.Context(), runtime.SessionOptions{ID: "s1"})
	require.NoError(t, err)
	v := p.Check(t.Context(), bash("s1", "make build"))
	require.Equal(t, permission.Ask, v.Decision, v.Reason)
	require.NotEmpty(t, v.Ticket)
	require.NoError(t, st.AnswerApproval(t.Context(), v.Ticket, store.Answer{Choice: store.ChoiceAllowAlways, Scope: store.ScopeProject, By: "ann"}))
	rv, err := p.Resume(t.Context(), v.Ticket)
	require.NoError(t, err)
	require.Equal(t, permission.Allow, rv.Decision, rv.Reason)
	assert.Contains(t, rv.Reason, "added project rules Bash(make build)")
	pending := p.Check(t.Context(), bash("s1", "make test"))
	require.NotEmpty(t, pending.Ticket)
	p.Close()
	require.NoError(t, st.Close())

	st, err = sqlstore.OpenSQLite(t.Context(), path)
	require.NoError(t, err)
	defer st.Close()
	p = open(t, dir, st)
	_, err = p.Session(t.Context(), runtime.SessionOptions{ID: "s2"})
	require.NoError(t, err)
	v = p.Check(t.Context(), bash("s2", "make build"))
	assert.Equal(t, permission.Allow, v.Decision, "the project grant did not survive the restart: %s", v.Reason)
	assert.Equal(t, "Bash(make build)", string(v.Rule))
	v = p.Check(t.Context(), bash("s2", "make clean"))
	assert.Equal(t, permission.Ask, v.Decision, "the grant is of one exact command: %s", v.Reason)

	ps, err := st.Pending(t.Context())
	require.NoError(t, err)
	require.Len(t, ps, 2, "the two unanswered asks")
	ids := []string{ps[0].ID, ps[1].ID}
	assert.Contains(t, ids, pending.Ticket, "the pending approval survived the restart")
}

// Two replicas on one PostgreSQL: an ask raised on one is answered through
// the other's store and resumed there; the allow-always grant and a cancel
// reach the first.
func TestPostgresReplicas(t *testing.T) {
	dir := workspace(t)
	sa, sb := openPG(t), openPG(t)
	a, b := open(t, dir, sa), open(t, dir, sb)
	id := fmt.Sprintf("pg-%d", time.Now().UnixNano())
	sess, err := a.Session(t.Context(), runtime.SessionOptions{ID: id})
	require.NoError(t, err)
	defer sess.End("test over", "", nil)

	v := a.Check(t.Context(), bash(id, "make build"))
	require.Equal(t, permission.Ask, v.Decision, v.Reason)
	require.NotEmpty(t, v.Ticket)
	require.NoError(t, sb.AnswerApproval(t.Context(), v.Ticket, store.Answer{Choice: store.ChoiceAllowAlways, By: "ann"}))
	rv, err := b.Resume(t.Context(), v.Ticket)
	require.NoError(t, err)
	assert.Equal(t, permission.Allow, rv.Decision, rv.Reason)

	rules := sess.Rules()
	require.Eventually(t, func() bool {
		for _, r := range rules.Rules() {
			if r.Rule == "Bash(make build)" {
				return true
			}
		}
		return false
	}, 5*time.Second, time.Millisecond, "the grant never reached replica a")
	v = a.Check(t.Context(), bash(id, "make build"))
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)

	require.NoError(t, b.Cancel(t.Context(), id, "stop from b"))
	select {
	case <-sess.Context().Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the cancel never reached replica a")
	}
	assert.ErrorContains(t, context.Cause(sess.Context()), "stop from b")
}

// BenchmarkCheckStores: the same allowed call (granted by the store at the
// session's start) checked with the in-memory, SQLite and PostgreSQL
// stores, side by side. The check reads the session's cache in every case.
func BenchmarkCheckStores(b *testing.B) {
	dir := workspace(b)
	inputs := make([]json.RawMessage, 1024)
	for i := range inputs {
		inputs[i] = json.RawMessage(fmt.Sprintf(`{"command":"make build","description":"step %d"}`, i))
	}
	for _, tc := range []struct {
		name string
		open func(b *testing.B) store.Store
	}{
		{"memory", func(*testing.B) store.Store { return store.NewMemory() }},
		{"sqlite", func(b *testing.B) store.Store {
			st, err := sqlstore.OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "state.db"))
			require.NoError(b, err)
			b.Cleanup(func() { st.Close() })
			return st
		}},
		{"postgres", func(b *testing.B) store.Store { return openPG(b) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			st := tc.open(b)
			p := open(b, dir, st)
			id := fmt.Sprintf("bench-%s-%d", tc.name, time.Now().UnixNano())
			require.NoError(b, st.AddGrant(context.Background(), store.Grant{Scope: store.ScopeSession, Key: id, Rule: "Bash(make build)"}))
			sess, err := p.Session(context.Background(), runtime.SessionOptions{ID: id})
			require.NoError(b, err)
			defer sess.End("bench over", "", nil)
			ctx := context.Background()
			call := runtime.Call{Session: id, Tool: "Bash"}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				call.Input = inputs[i%len(inputs)]
				i++
				if v := p.Check(ctx, call); v.Decision != permission.Allow {
					b.Fatalf("%s: %s", v.Decision, v.Reason)
				}
			}
		})
	}
}
