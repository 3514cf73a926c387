package sqlstore_test

import (
	"context"
	"database/sql"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/testenv"
	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/sqlstore"
	"github.com/toolgate/toolgate/runtime/store/storetest"
)

// pgEnv names the DSN of the PostgreSQL server for these tests.
const pgEnv = "TOOLGATE_TEST_POSTGRES_DSN"

var pg struct {
	once      sync.Once
	dsn, skip string
}

// postgresDSN returns the DSN of a real PostgreSQL server: the one in
// TOOLGATE_TEST_POSTGRES_DSN, or the one .ci/setup started and wrote to
// its file (internal/testenv). The tests start no server of their own:
// with neither, or with a server that does not answer, they skip, saying
// to run .ci/setup.
func postgresDSN(t testing.TB) string {
	t.Helper()
	if dsn := os.Getenv(pgEnv); dsn != "" {
		return dsn
	}
	pg.once.Do(func() {
		dsn, from := testenv.Lookup(pgEnv)
		if dsn == "" {
			pg.skip = testenv.Missing("PostgreSQL", from)
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		db, err := sql.Open("pgx", dsn)
		if err == nil {
			err = db.PingContext(ctx)
			db.Close()
		}
		if err != nil {
			pg.skip = testenv.Missing("PostgreSQL", "the server "+from+" names does not answer: "+err.Error())
			return
		}
		pg.dsn = dsn
	})
	if pg.skip != "" {
		t.Skip(pg.skip)
	}
	return pg.dsn
}

func openPG(t testing.TB) *sqlstore.Store {
	t.Helper()
	st, err := sqlstore.OpenPostgres(context.Background(), postgresDSN(t))
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return st
}

func TestPostgres(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openPG(t) })
}

// A change made through one Store reaches the watchers of another on the
// same server: what replicas rely on.
func TestPostgresNotifiesOtherStores(t *testing.T) {
	a, b := openPG(t), openPG(t)
	got := make(chan store.Event, 16)
	stop := b.Watch(func(e store.Event) { got <- e })
	defer stop()
	key := "notify-" + time.Now().Format(time.RFC3339Nano)
	require.NoError(t, a.AddGrant(t.Context(), store.Grant{Scope: store.ScopeUser, Key: key, Rule: "Bash(make build)"}))
	deadline := time.After(5 * time.Second)
	for {
		select {
		case e := <-got:
			if e.Kind == store.GrantAdded && e.Key == key {
				require.Equal(t, store.ScopeUser, e.Scope)
				return
			}
		case <-deadline:
			t.Fatal("the other store never heard of the grant")
		}
	}
}
