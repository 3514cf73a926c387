// Command toolgate-serve is "toolgate serve": it serves the approval page
// over the store where pipelines park their questions, until SIGINT or
// SIGTERM.
//
//	toolgate serve --store sqlite:PATH|postgres:DSN [--addr 127.0.0.1:7077] [--name NAME] [--allow-remote] [-v] [--log-level LEVEL]
//
// It prints the address to open with its token (TOOLGATE_TOKEN, or a
// random one). A non-loopback address needs --allow-remote (put TLS in
// front); --name is recorded with each answer. -v and --log-level choose
// what it logs with log/slog on standard error: -v shows each request
// (its path, never the query that may hold the token).
//
// It is a program of its own so that the hook, toolgate check, which
// Claude Code starts for every tool call, links neither the SQL stores
// nor the HTTP server. toolgate serve runs the toolgate-serve next to the
// toolgate executable (or else the one on PATH); both are installed by
//
//	go install github.com/toolgate/toolgate/cmd/...@latest
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(runServe(os.Args[1:], env{stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}))
}

// synopsis is the usage line.
const synopsis = "toolgate serve --store sqlite:PATH|postgres:DSN [--addr 127.0.0.1:7077] [--name NAME] [--allow-remote] [-v] [--log-level LEVEL]"

// env is what the command sees of its process.
type env struct {
	stdout, stderr io.Writer
	getenv         func(string) string
}

// helpRequested reports whether err is fs's answer to -h or --help; then
// it has printed the usage and options on standard output.
func helpRequested(fs *flag.FlagSet, err error, e env) bool {
	if !errors.Is(err, flag.ErrHelp) {
		return false
	}
	fmt.Fprintf(e.stdout, "usage: %s\n", synopsis)
	fs.SetOutput(e.stdout)
	fs.PrintDefaults()
	return true
}
