package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
)

// logLevel is the level of the diagnostic log a long-running subcommand
// (serve) writes with log/slog to standard error, never to standard
// output. --log-level=debug|info|warn|error sets it; -v is
// --log-level=debug; the last one given wins; the default is info.
type logLevel struct{ level slog.Level }

// logLevelFlags registers -v and --log-level on fs.
func logLevelFlags(fs *flag.FlagSet) *logLevel {
	l := &logLevel{level: slog.LevelInfo}
	fs.Var(l, "log-level", "the `level` of the diagnostic log on standard error: debug, info (the default), warn or error")
	fs.Var(verboseFlag{l}, "v", "show debug messages (--log-level=debug)")
	return l
}

// logLevels are the names --log-level accepts.
var logLevels = map[string]slog.Level{
	"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError,
}

func (l *logLevel) String() string {
	if l == nil {
		return "info"
	}
	return strings.ToLower(l.level.String())
}

func (l *logLevel) Set(s string) error {
	v, ok := logLevels[strings.ToLower(s)]
	if !ok {
		return fmt.Errorf("unknown log level %q: want debug, info, warn or error", s)
	}
	l.level = v
	return nil
}

// logger returns a logger writing text lines to w at the chosen level.
func (l *logLevel) logger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: l.level}))
}

// verboseFlag is -v: a boolean flag that sets the level to debug.
type verboseFlag struct{ l *logLevel }

func (v verboseFlag) IsBoolFlag() bool { return true }
func (v verboseFlag) String() string   { return "false" }
func (v verboseFlag) Set(s string) error {
	switch s {
	case "true":
		v.l.level = slog.LevelDebug
	case "false":
	default:
		return fmt.Errorf("-v takes no value, got %q", s)
	}
	return nil
}
