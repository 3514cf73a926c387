// Command toolgate-mcp is "toolgate mcp": a gateway that fronts the MCP
// servers of a configuration file (Claude Code's .mcp.json shape) and
// serves them to any MCP client over stdio, or over streamable HTTP with
// --listen, every tool call judged by toolgate's pipeline under the rules
// of the usual Claude Code settings files.
//
//	toolgate-mcp --config .mcp.json [--listen 127.0.0.1:8080] [--audit audit.db]
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	_ "modernc.org/sqlite"

	"github.com/toolgate/toolgate/contrib/mcpgateway"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "toolgate mcp:", err)
		os.Exit(1)
	}
}

func run() error {
	config := flag.String("config", "", "the MCP servers to front (.mcp.json shape); required")
	listen := flag.String("listen", "", "serve streamable HTTP on this address instead of stdio")
	dir := flag.String("dir", "", "the workspace directory (default: the current one)")
	audit := flag.String("audit", "", "record every decision in this SQLite file")
	flag.Parse()
	if *config == "" {
		return errors.New("--config is required")
	}
	if *dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return err
		}
		*dir = wd
	}
	home, _ := os.UserHomeDir()
	var settings []*permission.Settings
	for _, f := range []struct {
		path  string
		scope permission.Scope
	}{
		{filepath.Join(home, ".claude", "settings.json"), permission.ScopeUser},
		{filepath.Join(*dir, ".claude", "settings.json"), permission.ScopeProject},
		{filepath.Join(*dir, ".claude", "settings.local.json"), permission.ScopeLocal},
	} {
		if home == "" && f.scope == permission.ScopeUser {
			continue
		}
		s, err := permission.LoadSettings(f.path, f.scope)
		if err != nil {
			return err
		}
		if s != nil {
			settings = append(settings, s)
		}
	}
	w := runtime.Workspace{Dir: *dir, Home: home, Settings: settings}
	if *audit != "" {
		db, err := sql.Open("sqlite", "file:"+*audit)
		if err != nil {
			return err
		}
		defer db.Close()
		if w.Audit, err = hooks.NewAuditLog(db, hooks.AuditOptions{}); err != nil {
			return err
		}
		defer w.Audit.Close(context.Background())
	}
	p, err := runtime.Open(w)
	if err != nil {
		return err
	}
	cfg, err := mcpgateway.LoadConfig(*config)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	g, err := mcpgateway.New(ctx, p, cfg, mcpgateway.Options{})
	if err != nil {
		return err
	}
	defer g.Close()
	if err := g.Skipped(); err != nil {
		fmt.Fprintln(os.Stderr, "toolgate mcp: tools not served:", err)
	}
	if *listen == "" {
		return g.Server().Run(ctx, &mcp.StdioTransport{})
	}
	srv := &http.Server{Addr: *listen, Handler: mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.Server() }, nil)}
	go func() { <-ctx.Done(); srv.Close() }()
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
