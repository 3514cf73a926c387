package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/toolgate/toolgate/runtime/approvalpage"
	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/sqlstore"
)

// runServe serves the approval page until SIGINT or SIGTERM.
func runServe(args []string, e env) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, args, e, nil)
}

// serve serves the approval page over the store --store names until ctx
// ends; ready, if set, is told the address it listens on.
func serve(ctx context.Context, args []string, e env, ready func(addr string)) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	storeArg := fs.String("store", "", "where approvals live: sqlite:PATH or postgres:DSN")
	addr := fs.String("addr", "127.0.0.1:7077", "address to listen on (loopback unless --allow-remote)")
	name := fs.String("name", "", "who answers through this page, recorded with each answer")
	remote := fs.Bool("allow-remote", false, "serve clients that are not on a loopback address (put TLS in front)")
	level := logLevelFlags(fs)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if helpRequested(fs, err, e) {
			return 0
		}
		fmt.Fprintf(e.stderr, "toolgate serve: %v\nusage: %s\n", err, synopsis)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "toolgate serve: unexpected arguments %q\nusage: %s\n", fs.Args(), synopsis)
		return 2
	}
	log := level.logger(e.stderr)
	fail := func(err error) int { fmt.Fprintln(e.stderr, "toolgate serve:", err); return 1 }
	st, closeStore, err := openStore(ctx, *storeArg)
	if err != nil {
		return fail(err)
	}
	defer closeStore()
	log.Debug("store opened", "kind", storeKind(*storeArg))
	token := e.getenv("TOOLGATE_TOKEN")
	if token == "" {
		var b [24]byte
		_, _ = rand.Read(b[:])
		token = hex.EncodeToString(b[:])
	}
	h, err := approvalpage.New(st, approvalpage.Options{Token: token, Name: *name, AllowRemote: *remote})
	if err != nil {
		return fail(err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return fail(err)
	}
	if ip, ok := ln.Addr().(*net.TCPAddr); ok && !ip.IP.IsLoopback() && !*remote {
		ln.Close()
		return fail(fmt.Errorf("%s is not a loopback address: pass --allow-remote (and put TLS in front)", *addr))
	}
	srv := &http.Server{Handler: logRequests(log, h), ReadHeaderTimeout: 10 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	fmt.Fprintf(e.stderr, "toolgate serve: open http://%s/?token=%s\n", ln.Addr(), token)
	log.Info("serving the approval page", "addr", ln.Addr().String(), "name", *name, "allow_remote", *remote)
	if ready != nil {
		ready(ln.Addr().String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
		srv.Close() // the event streams do not end by themselves
		log.Info("stopped", "cause", context.Cause(ctx).Error())
		return 0
	case err := <-done:
		if errors.Is(err, http.ErrServerClosed) {
			return 0
		}
		return fail(err)
	}
}

// logRequests logs each request at debug level: its method, its path
// (never the query, which may carry the token) and the client's address.
func logRequests(log *slog.Logger, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.LogAttrs(r.Context(), slog.LevelDebug, "request",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("remote", r.RemoteAddr))
		h.ServeHTTP(w, r)
	})
}

// storeKind is the kind of store --store names, without its DSN (which
// may hold a password).
func storeKind(arg string) string { kind, _, _ := strings.Cut(arg, ":"); return kind }

// openStore opens the store named sqlite:PATH or postgres:DSN.
func openStore(ctx context.Context, arg string) (store.Store, func(), error) {
	kind, where, _ := strings.Cut(arg, ":")
	var st *sqlstore.Store
	var err error
	switch {
	case kind == "sqlite" && where != "":
		st, err = sqlstore.OpenSQLite(ctx, where)
	case kind == "postgres" && where != "":
		st, err = sqlstore.OpenPostgres(ctx, where)
	default:
		return nil, nil, fmt.Errorf("--store must be sqlite:PATH or postgres:DSN, got %q", arg)
	}
	if err != nil {
		return nil, nil, err
	}
	return st, func() { st.Close() }, nil
}
