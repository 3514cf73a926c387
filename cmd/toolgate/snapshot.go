package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/internal/safefile"
)

// Hooks are read once per session, as Claude Code takes a snapshot of its
// hook settings when a session starts: a hook written into a settings file
// mid-session (by the agent itself, say) does not run until the next
// session. "toolgate check" runs once per event, so the snapshot lives in
// a file of the state directory, one per session.
//
// A session is the event's session_id. It is the only name Claude Code
// gives every event of one session (the process differs per event; the
// transcript path is derived from the id), and a new session — where
// Claude Code reads its hooks afresh — gets a new id. The id is hashed
// into the file name, so no id can name a path.

// maxSnapshotBytes bounds a snapshot file.
const maxSnapshotBytes = 1 << 20

// snapshotMaxAge is how long a snapshot is kept after it was written;
// older ones are removed when a new one is written.
const snapshotMaxAge = 30 * 24 * time.Hour

// snapHook is one command hook as the snapshot keeps it.
type snapHook struct {
	Name    string   `json:"name"`
	Shell   string   `json:"shell"`
	Matcher string   `json:"matcher"`
	Events  []string `json:"events"`
	Timeout float64  `json:"timeoutSeconds"`
}

type snapFile struct {
	Session string     `json:"session"`
	Hooks   []snapHook `json:"hooks"`
}

// defaultStateDir is $XDG_STATE_HOME/toolgate, else ~/.local/state/toolgate.
func defaultStateDir(home string, getenv func(string) string) string {
	if getenv != nil {
		if d := getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "toolgate")
		}
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".local", "state", "toolgate")
}

func snapshotPath(stateDir, session string) string {
	sum := sha256.Sum256([]byte(session))
	return filepath.Join(stateDir, "sessions", hex.EncodeToString(sum[:16])+".json")
}

// snapshotDirs are the directories of the state directory that hold the
// sessions' snapshots and the warm processes' sockets
// (sandbox.Config.StateDirs), none without one.
func snapshotDirs(stateDir string) []string {
	if stateDir == "" {
		return nil
	}
	return []string{filepath.Dir(snapshotPath(stateDir, "")), filepath.Join(stateDir, "warm")}
}

// factsPath is the file in which the sandbox keeps the facts of the
// workspace of project, cwd and home (sandbox.Config.FactsFile): in the
// state directory's facts folder, named by a hash of the three, shared by
// the workspace's sessions, so that a new session's first call
// revalidates what an earlier one found instead of searching the roots
// again. The sandbox trusts the file only for the same roots, working
// directory, home, lists and user, and revalidates it before use, as it
// does between two calls of one session; the folder is pruned when a
// session starts. "" without a state directory.
func factsPath(stateDir, project, cwd, home string) string {
	if stateDir == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(project + "\x00" + cwd + "\x00" + home))
	return filepath.Join(stateDir, "facts", hex.EncodeToString(sum[:16])+".facts")
}

// sessionHooks returns the hooks of the session: those of its snapshot
// when there is one, else current (which become the snapshot). It
// reports whether the snapshot was used. Without a state directory (no
// home, a read-only one) the current hooks are used and a warning says
// so. A snapshot that exists but cannot be read is an error: the caller
// denies.
func sessionHooks(stateDir, session, dir string, env []string, current []hooks.Command) ([]hooks.Command, bool, string, error) {
	if stateDir == "" || session == "" {
		return current, false, "no state directory: hooks are read from the settings on every call", nil
	}
	path := snapshotPath(stateDir, session)
	data, err := safefile.ReadPrivate(path, maxSnapshotBytes)
	switch {
	case err == nil:
		var s snapFile
		if err := json.Unmarshal(data, &s); err != nil || s.Session != session {
			return nil, false, "", fmt.Errorf("the session's hook snapshot %s is damaged: remove it to start afresh", path)
		}
		out := make([]hooks.Command, 0, len(s.Hooks))
		for _, h := range s.Hooks {
			c := hooks.Command{Name: h.Name, Shell: h.Shell, Matcher: h.Matcher, Dir: dir, Env: env,
				Timeout: time.Duration(h.Timeout * float64(time.Second))}
			for _, e := range h.Events {
				switch e {
				case "PreToolUse":
					c.Events = append(c.Events, hooks.EventPreToolUse)
				case "PostToolUse":
					c.Events = append(c.Events, hooks.EventPostToolUse)
				default:
					return nil, false, "", fmt.Errorf("the session's hook snapshot %s is damaged: remove it to start afresh", path)
				}
			}
			out = append(out, c)
		}
		return out, true, "", nil
	case !errors.Is(err, fs.ErrNotExist):
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is named already
		}
		return nil, false, "", fmt.Errorf("cannot read the session's hook snapshot %s: %v", path, err)
	}
	s := snapFile{Session: session, Hooks: []snapHook{}}
	for _, c := range current {
		h := snapHook{Name: c.Name, Shell: c.Shell, Matcher: c.Matcher, Timeout: c.Timeout.Seconds()}
		for _, e := range c.Events {
			switch e {
			case hooks.EventPreToolUse:
				h.Events = append(h.Events, "PreToolUse")
			case hooks.EventPostToolUse:
				h.Events = append(h.Events, "PostToolUse")
			}
		}
		s.Hooks = append(s.Hooks, h)
	}
	if err := writeSnapshot(path, s); err != nil {
		return current, false, "cannot keep the session's hook snapshot (" + err.Error() + "): hooks are read from the settings on every call", nil
	}
	return current, false, "", nil
}

// writeSnapshot writes the snapshot once: created exclusively, so that two
// events racing at a session's start keep the first writer's snapshot
// (both read the same files).
func writeSnapshot(path string, s snapFile) error {
	dir := filepath.Dir(path)
	tmp, err := writeStateTemp(dir, ".snap-", s)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	pruneSnapshots(dir, path, time.Now())
	pruneSnapshots(filepath.Join(filepath.Dir(dir), "facts"), "", time.Now())
	return nil
}

// snapshotPruneEvery is how often a directory of kept state is pruned. A
// session's first call prunes: every hour, not every session, since the
// pruning stats each of the directory's files (a month of sessions), and
// its first call is where the hook is slowest.
const snapshotPruneEvery = time.Hour

// pruneMark is the file whose modification time says when its directory
// was last pruned.
const pruneMark = ".pruned"

// pruneDue reports whether dir was last pruned snapshotPruneEvery or more
// before now (or never), and if so marks it pruned at now. A mark that
// cannot be read or written means a prune now.
func pruneDue(dir string, now time.Time) bool {
	mark := filepath.Join(dir, pruneMark)
	if fi, err := os.Lstat(mark); err == nil && fi.Mode().IsRegular() {
		if age := now.Sub(fi.ModTime()); age >= 0 && age < snapshotPruneEvery {
			return false
		}
	}
	f, err := os.OpenFile(mark, os.O_WRONLY|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err == nil {
		_ = f.Close()
		_ = os.Chtimes(mark, now, now)
	}
	return true
}

// pruneSnapshots removes the files of dir (the sessions' snapshots, the
// workspaces' facts) older than snapshotMaxAge but keep and the mark,
// looking at a bounded number of entries, when a prune is due.
func pruneSnapshots(dir, keep string, now time.Time) {
	if !pruneDue(dir, now) {
		return
	}
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	defer d.Close()
	entries, _ := d.ReadDir(256)
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if p == keep || e.Name() == pruneMark || !e.Type().IsRegular() {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > snapshotMaxAge {
			os.Remove(p)
		}
	}
}
