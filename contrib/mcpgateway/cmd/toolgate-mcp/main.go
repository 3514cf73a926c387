// Command toolgate-mcp is "toolgate mcp": a gateway that fronts the MCP
// servers of a configuration file (Claude Code's .mcp.json shape) and
// serves them to any MCP client over stdio, or over streamable HTTP with
// --listen, every tool call judged by toolgate's pipeline under the rules
// of the usual Claude Code settings files.
//
//	toolgate-mcp --config .mcp.json [--listen 127.0.0.1:8080] [--allow-remote] [--dir DIR] [--audit audit.db]
//	             [--settings FILE]... [--ask-timeout 2m] [--idle-timeout 30m] [-v] [--log-level LEVEL]
//
// The rules are those of $HOME/.claude/settings.json and of DIR's
// .claude/settings.json and .claude/settings.local.json; the hooks are
// those of the configuration file's "hooks" member. With --listen it
// prints "toolgate mcp: serving http://ADDR/" on stderr once it listens
// (ADDR may end in :0 for a free port), and it refuses an address that is
// not loopback unless --allow-remote says so: the endpoint has no
// authentication of its own.
//
// It logs with log/slog to stderr, never to stdout (the stdio transport's):
// warnings about the settings and the tools not served, and, with -v or
// --log-level=debug, the files it read and every call's decision (tool,
// decision, layer, rule, reason; never the input). --log-level takes
// debug, info (the default), warn or error; another value is a usage
// error (exit status 2), as is an unknown flag; -h prints the usage and
// exits 0.
package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

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
	askTimeout := flag.Duration("ask-timeout", 0, "how long a question to the person may wait for an answer (default 2m)")
	idleTimeout := flag.Duration("idle-timeout", 0, "end a client's session after this long without a call (default 30m)")
	var files multiFlag
	flag.Var(&files, "settings", "a further settings file, of command-line precedence (repeatable)")
	remote := flag.Bool("allow-remote", false, "listen on an address that is not loopback (put authentication and TLS in front)")
	level := logLevelFlags(flag.CommandLine)
	flag.Parse() // a bad flag or level: the usage and exit status 2; -h: exit status 0
	log := level.logger(os.Stderr)
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
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
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	*dir = abs
	home, _ := os.UserHomeDir()
	var settings []*permission.Settings
	type source struct {
		path  string
		scope permission.Scope
	}
	sources := []source{
		{filepath.Join(home, ".claude", "settings.json"), permission.ScopeUser},
		{filepath.Join(*dir, ".claude", "settings.json"), permission.ScopeProject},
		{filepath.Join(*dir, ".claude", "settings.local.json"), permission.ScopeLocal},
	}
	for _, f := range files {
		sources = append(sources, source{f, permission.ScopeCommandLine})
	}
	for _, f := range sources {
		if home == "" && f.scope == permission.ScopeUser {
			continue
		}
		s, err := permission.LoadSettings(f.path, f.scope)
		if err != nil {
			return err
		}
		log.Debug("settings file", "path", f.path, "scope", f.scope.String(), "found", s != nil)
		if s != nil {
			settings = append(settings, s)
		}
	}
	cfg, err := mcpgateway.LoadConfig(*config)
	if err != nil {
		return err
	}
	log.Debug("configuration", "path", *config, "servers", len(cfg.Servers))
	cmds, err := cfg.HookCommands(*dir)
	if err != nil {
		return err
	}
	set := hooks.NewSet()
	set.Logger = log
	defer set.Close()
	for _, c := range cmds {
		h, err := c.Hook()
		if err != nil {
			return err
		}
		set.Add(h)
		log.Debug("hook", "name", h.Name)
	}
	set.Add(logDecisions(log))
	// The workspace's own settings only narrow: their allow rules and
	// added directories are set aside (the gateway does not read Claude
	// Code's trust records), and the warnings say so.
	_, warnings := permission.Merge(permission.Config{WorkDir: *dir, Home: home}, settings...)
	for _, w := range warnings {
		log.Warn("settings: " + w)
	}
	w := runtime.Workspace{Dir: *dir, Home: home, Settings: settings, Hooks: set}
	if *audit != "" {
		// Each row keeps the call's input, masked by hooks.RedactSecrets
		// (the hooks of the configuration are commands, whose masking
		// the log cannot share).
		db, err := sql.Open("sqlite", "file:"+*audit)
		if err != nil {
			return err
		}
		defer db.Close()
		if w.Audit, err = hooks.NewAuditLog(db, hooks.AuditOptions{Logger: log, Redact: hooks.RedactSecrets}); err != nil {
			return err
		}
		defer w.Audit.Close(context.Background())
	}
	p, err := runtime.Open(w)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *askTimeout < 0 || *idleTimeout < 0 {
		return errors.New("--ask-timeout and --idle-timeout cannot be negative")
	}
	g, err := mcpgateway.New(ctx, p, cfg, mcpgateway.Options{AskTimeout: *askTimeout, IdleTimeout: *idleTimeout})
	if err != nil {
		return err
	}
	defer g.Close()
	if err := g.Skipped(); err != nil {
		log.Warn("tools not served: " + err.Error())
	}
	if *listen == "" {
		log.Info("serving on stdio")
		return g.Server().Run(ctx, &mcp.StdioTransport{})
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		return err
	}
	if a, ok := ln.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() && !*remote {
		ln.Close()
		return fmt.Errorf("%s is not a loopback address: pass --allow-remote (and put authentication and TLS in front)", *listen)
	}
	// An HTTP session idle as long as a pipeline session may be is
	// closed, and the pipeline session with it.
	idle := *idleTimeout
	if idle == 0 {
		idle = 30 * time.Minute
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return g.Server() },
		&mcp.StreamableHTTPOptions{SessionTimeout: idle})
	srv := &http.Server{Handler: h,
		ReadHeaderTimeout: 10 * time.Second}
	go func() { <-ctx.Done(); srv.Close() }()
	fmt.Fprintf(os.Stderr, "toolgate mcp: serving http://%s/\n", ln.Addr())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// logDecisions is a PostToolUse hook that logs each call's verdict at
// debug level: the tool, the decision, the layer and rule that decided,
// the reason. It logs no input or output, which may hold secrets.
func logDecisions(log *slog.Logger) hooks.Hook {
	return hooks.Hook{
		Name:    "log",
		Timeout: hooks.NoTimeout,
		PostToolUse: func(ctx context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			log.LogAttrs(ctx, slog.LevelDebug, "tool call",
				slog.String("session", e.SessionID), slog.String("tool", e.ToolName),
				slog.String("decision", e.Decision.String()), slog.String("layer", e.Layer.String()),
				slog.String("rule", string(e.Rule)), slog.String("reason", e.Reason),
				slog.Duration("elapsed", e.Elapsed))
			return hooks.PostToolUseResult{}, nil
		},
	}
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }
