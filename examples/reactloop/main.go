// Command reactloop runs a whole ReAct loop through toolgate's Pipeline with
// a scripted model: no network and no real model, only a fixed list of
// turns, each a batch of tool calls that run for real in a temporary
// workspace.
//
// The calls are chosen to meet every layer: a deny rule, a hook that
// blocks, a sandbox escape through a symbolic link and through "..", a
// shell command that is always denied, a compound command allowed command
// by command, a question to a person answered "allow always" and the same
// command allowed without asking afterwards, a call repeated until it is
// denied, a subagent whose write is denied because it cannot ask the person,
// the step limit, and a cancelled session. The program prints one
// line per call: the tool, what it was asked to do, the decision, the
// layer that decided and the reason. Paths are printed relative to the
// workspace, so the output is the same on every run.
//
// Run it with:
//
//	go run ./examples/reactloop
//
// The script is in script.go: one [turn] per model turn, so a step is added
// by appending a turn (and, for a new tool, an entry in the host's tool map
// in host.go).
package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"

	"github.com/toolgate/toolgate/bashguard/runner"
	_ "modernc.org/sqlite" // the audit log's database
)

func main() {
	// A Runner starts this program again to confine each shell command.
	runner.ConfineMain()
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "reactloop:", err)
		os.Exit(1)
	}
}

// run builds the workspace and the pipeline, plays the script and prints
// what happened to w. The workspace is removed before it returns.
func run(ctx context.Context, w io.Writer) (err error) {
	ws, err := newWorkspace()
	if err != nil {
		return err
	}
	defer func() {
		if rerr := ws.remove(); err == nil {
			err = rerr
		}
	}()
	db, err := sql.Open("sqlite", ws.outsidePath("audit.db"))
	if err != nil {
		return err
	}
	defer db.Close()
	h, err := newHost(ws, db, w)
	if err != nil {
		return err
	}
	loopErr := h.converse(ctx, "conversation-1", script())
	return h.close(ctx, loopErr)
}
