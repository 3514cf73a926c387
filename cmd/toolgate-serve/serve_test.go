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

// serveLog runs toolgate serve with args until one request for /pending
// has been answered, and returns its standard error.
func serveLog(t *testing.T, path string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	addrs := make(chan string, 1)
	var stderr strings.Builder
	done := make(chan int, 1)
	getenv := func(string) string { return "" }
	go func() {
		done <- serve(ctx, append([]string{"--store", "sqlite:" + path, "--addr", "127.0.0.1:0"}, args...),
			env{stdout: io.Discard, stderr: &stderr, getenv: getenv}, func(a string) { addrs <- a })
	}()
	res, err := http.Get("http://" + <-addrs + "/pending?token=not-logged")
	require.NoError(t, err)
	res.Body.Close()
	cancel()
	require.Equal(t, 0, <-done, "stderr: %s", stderr.String())
	return stderr.String()
}

// The log level chooses which messages toolgate serve writes to standard
// error: -v adds each request (its path, never its query), error drops
// the informational lines; the token line for the person stays.
func TestServeLogLevel(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	for _, tc := range []struct {
		args     []string
		has, not []string
	}{
		{nil, []string{`level=INFO msg="serving the approval page"`, "level=INFO msg=stopped"}, []string{"level=DEBUG"}},
		{[]string{"-v"}, []string{`level=DEBUG msg=request method=GET path=/pending`, "level=DEBUG msg=\"store opened\" kind=sqlite", "level=INFO msg=stopped"}, []string{"not-logged"}},
		{[]string{"--log-level=debug"}, []string{`level=DEBUG msg=request method=GET path=/pending`}, nil},
		{[]string{"--log-level", "WARN"}, nil, []string{"level=INFO", "level=DEBUG"}},
		{[]string{"-v", "--log-level=error"}, nil, []string{"level=INFO", "level=DEBUG"}},
	} {
		out := serveLog(t, path, tc.args...)
		assert.Contains(t, out, "toolgate serve: open http://", "%v: the page's address is printed at every level", tc.args)
		for _, s := range tc.has {
			assert.Contains(t, out, s, "%v", tc.args)
		}
		for _, s := range tc.not {
			assert.NotContains(t, out, s, "%v", tc.args)
		}
	}
}

// An unknown level is a usage error: exit 2, the message and the usage on
// standard error, before any store is opened.
func TestServeBadLogLevel(t *testing.T) {
	for _, args := range [][]string{{"--log-level=loud"}, {"--log-level", ""}, {"-v=maybe"}} {
		var out, errb strings.Builder
		code := runServe(append([]string{"--store", "mysql:x"}, args...), env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
		assert.Equal(t, 2, code, "%v", args)
		assert.Contains(t, errb.String(), "usage: "+synopsis, "%v", args)
		assert.NotContains(t, errb.String(), "--store must be", "%v: refused before the store", args)
		assert.Empty(t, out.String(), "%v", args)
	}
	var errb strings.Builder
	runServe([]string{"--log-level=loud"}, env{stdout: io.Discard, stderr: &errb, getenv: func(string) string { return "" }})
	assert.Contains(t, errb.String(), `invalid value "loud" for flag -log-level: unknown log level "loud": want debug, info, warn or error`)
}

// -h and --help print the usage on standard output and exit 0; a bad flag
// exits 2 and says so on standard error.
func TestServeHelp(t *testing.T) {
	for _, h := range []string{"-h", "--help"} {
		var out, errb strings.Builder
		code := runServe([]string{h}, env{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
		assert.Equal(t, 0, code, "%s: %s", h, errb.String())
		assert.Contains(t, out.String(), "usage: "+synopsis, h)
		assert.Contains(t, out.String(), "-store", h)
	}
	var errb strings.Builder
	code := runServe([]string{"--no-such-flag"}, env{stdout: io.Discard, stderr: &errb, getenv: func(string) string { return "" }})
	assert.Equal(t, 2, code)
	assert.Contains(t, errb.String(), "flag provided but not defined: -no-such-flag")
}
