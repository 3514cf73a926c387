package main

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/sqlstore"
)

// toolgate serve shows what a pipeline parked in the SQLite store, and
// only to a request carrying its token.
func TestServe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := sqlstore.OpenSQLite(t.Context(), path)
	require.NoError(t, err)
	now := time.Now()
	require.NoError(t, st.PutApproval(t.Context(), store.Approval{ID: "ask-1", Session: "s1", Tool: "Bash",
		Input: []byte(`{"command":"make build"}`), Created: now, Expires: now.Add(time.Minute)}))
	require.NoError(t, st.Close())

	ctx, cancel := context.WithCancel(t.Context())
	addrs := make(chan string, 1)
	var stderr strings.Builder
	done := make(chan int, 1)
	getenv := func(k string) string {
		if k == "TOOLGATE_TOKEN" {
			return "serve-test-token-0123456789"
		}
		return ""
	}
	go func() {
		done <- serve(ctx, []string{"--store", "sqlite:" + path, "--addr", "127.0.0.1:0"},
			env{stdout: io.Discard, stderr: &stderr, getenv: getenv}, func(a string) { addrs <- a })
	}()
	addr := <-addrs
	res, err := http.Get("http://" + addr + "/pending")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode, "no token, no page")

	req, _ := http.NewRequest("GET", "http://"+addr+"/pending", nil)
	req.Header.Set("Authorization", "Bearer serve-test-token-0123456789")
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)
	assert.Contains(t, string(b), `"id":"ask-1"`)
	assert.Contains(t, string(b), `make build`)
	cancel()
	assert.Equal(t, 0, <-done)
	assert.Contains(t, stderr.String(), "/?token=serve-test-token-0123456789")

	var errs strings.Builder
	code := serve(t.Context(), []string{"--store", "mysql:x"}, env{stderr: &errs, getenv: getenv}, nil)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs.String(), "--store must be sqlite:PATH or postgres:DSN")
	errs.Reset()
	code = serve(t.Context(), []string{"--store", "sqlite:" + path, "--addr", "0.0.0.0:0"}, env{stderr: &errs, getenv: getenv}, nil)
	assert.Equal(t, 1, code)
	assert.Contains(t, errs.String(), "not a loopback address")
}
