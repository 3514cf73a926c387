package sqlstore_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

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
// TOOLGATE_TEST_POSTGRES_DSN (CI sets it), or one started by .ci/postgres.
// If neither can be had the test is skipped, saying why.
func postgresDSN(t testing.TB) string {
	t.Helper()
	if dsn := os.Getenv(pgEnv); dsn != "" {
		return dsn
	}
	pg.once.Do(func() {
		script, err := findUp(filepath.Join(".ci", "postgres"))
		if err != nil {
			pg.skip = err.Error()
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, script).Output()
		if err != nil {
			pg.skip = script + " failed: " + err.Error()
			return
		}
		f := strings.Fields(string(out))
		if len(f) == 0 {
			pg.skip = script + " printed no DSN"
			return
		}
		db, err := sql.Open("pgx", f[len(f)-1])
		if err == nil {
			err = db.PingContext(ctx)
			db.Close()
		}
		if err != nil {
			pg.skip = "the server " + script + " started does not answer: " + err.Error()
			return
		}
		pg.dsn = f[len(f)-1]
	})
	if pg.skip != "" {
		t.Skipf("PostgreSQL is unavailable (%s unset and no server could be started): %s", pgEnv, pg.skip)
	}
	return pg.dsn
}

func findUp(rel string) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, rel)
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New(rel + " not found above the test's directory")
		}
		dir = parent
	}
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
