package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/internal/safefile"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// Confinement at the shell: CLAUDE_CODE_SHELL_PREFIX.
//
// Claude Code 2.1.332 runs every shell script of its own through the
// program CLAUDE_CODE_SHELL_PREFIX names, as one program (the value is
// quoted as one word) with one argument: the whole script it built. For a
// Bash call that is its shell snapshot, the eval of the user's command,
// then "pwd -P" into a file of /tmp, which is how a cd carries over to the
// next call; its hook commands run through the prefix too, verbatim.
// Because the command is not rewritten, Claude Code's own rules
// (--disallowedTools, its deny list) see the user's command.
//
// The prefix judges nothing. "toolgate check", when it sees the prefix in
// its environment, does not rewrite an allowed Bash command: it records
// the confinement it decided for that exact command, in that directory,
// in that session, in a private directory of its state directory; the
// prefix finds the user's command in Claude Code's script, takes the
// record (once) and runs the whole script under it. What the prefix cannot
// match to a record runs confined to its working directory with the
// network off, never with the user's rights, except a hook command of the
// user's own or managed settings, which must run as it is for toolgate
// check itself to work.

// shellPrefixName is the name the toolgate binary answers to as
// CLAUDE_CODE_SHELL_PREFIX (a link to it): Claude Code runs the prefix as
// one word, so the subcommand is in the program's name.
const shellPrefixName = "toolgate-shell-prefix"

// prefixRecordMaxAge bounds how long a recorded decision waits for its
// command: the person may take a while to answer an Ask.
const prefixRecordMaxAge = time.Hour

// maxPrefixRecordBytes bounds a record file.
const maxPrefixRecordBytes = 1 << 20

// The modes of a recorded decision.
const (
	prefixConfine = "confine" // run confined by the record's policy
	prefixFull    = "full"    // run with the user's rights: asked (and answered by the person), or toolgate.confine false
)

// prefixRecord is the decision toolgate check hands to the prefix for one
// command. The command, directory and session are kept whole beside the
// hash that names the file, and compared.
type prefixRecord struct {
	Session string        `json:"session"`
	Cwd     string        `json:"cwd"`
	Command string        `json:"command"`
	Mode    string        `json:"mode"`
	Policy  confinePolicy `json:"policy,omitzero"`
	Expires int64         `json:"expires"`
}

// shellPrefixMode reports whether Claude Code runs its scripts through
// toolgate's prefix: CLAUDE_CODE_SHELL_PREFIX, in the hook's environment
// (a variable the workspace's settings set is not seen: see distrustEnv),
// names a program called toolgate-shell-prefix that is the running
// toolgate binary. The variable Claude Code reads for the prefix is the one
// its hooks inherit, so the hook cannot believe in a prefix Claude Code
// does not use.
func shellPrefixMode(getenv func(string) string, self string) bool {
	if getenv == nil || self == "" {
		return false
	}
	p := getenv("CLAUDE_CODE_SHELL_PREFIX")
	if p == "" || filepath.Base(p) != shellPrefixName {
		return false
	}
	if !filepath.IsAbs(p) {
		found, err := exec.LookPath(p)
		if err != nil {
			return false
		}
		p = found
	}
	a, err1 := os.Stat(p)
	b, err2 := os.Stat(self)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// The rule ID of a call denied because its decision could not be handed
// to the prefix.
const ruleConfineHandover permission.RuleID = "confine:handover"

// handOver records, for the prefix, how the call v decided runs:
// confined by the policy confineCall would have put in the rewrite, or
// with the user's rights when v asks (the person answers), the settings
// turn confinement off, or the command was rewritten (rewritten: it runs
// "toolgate exec", which confines itself). A Deny records nothing, and
// removes what an earlier check recorded for the same command: Claude
// Code does not run it. A record that cannot be written denies the call.
func handOver(v runtime.Verdict, ev event, pol *policy, self, stateDir string, rewritten bool) runtime.Verdict {
	var in struct {
		Command *string `json:"command"`
	}
	if v.Decision == permission.Deny {
		if json.Unmarshal(v.Input, &in) == nil && in.Command != nil {
			if dir, err := prefixDir(stateDir); err == nil {
				_ = os.Remove(filepath.Join(dir, prefixKey(ev.SessionID, ev.Cwd, *in.Command)))
			}
		}
		return v
	}
	rec := prefixRecord{Session: ev.SessionID, Cwd: ev.Cwd, Mode: prefixFull}
	if v.Decision == permission.Allow && pol.confine && !rewritten {
		cp, w, ok := confinement(v, pol, self)
		v = w
		if ok {
			rec.Mode, rec.Policy = prefixConfine, cp
		}
	}
	if err := json.Unmarshal(v.Input, &in); err != nil || in.Command == nil {
		return denyInstead(v, ruleConfineHandover, "toolgate cannot read the command to hand its confinement to toolgate-shell-prefix")
	}
	rec.Command = *in.Command
	if r, ok := holdsRecords(stateDir, pol.roots); ok {
		return denyInstead(v, ruleConfineHandover, "toolgate cannot hand the confinement of this command to toolgate-shell-prefix: its records would lie in "+r+", which a confined command may write; set XDG_STATE_HOME outside the project")
	}
	if err := writePrefixRecord(stateDir, rec, time.Now()); err != nil {
		return denyInstead(v, ruleConfineHandover, "toolgate cannot hand the confinement of this command to toolgate-shell-prefix: "+err.Error())
	}
	return v
}

// denyInstead turns v into a Deny of the shell layer, keeping what it was
// in the conflict log.
func denyInstead(v runtime.Verdict, rule permission.RuleID, reason string) runtime.Verdict {
	v.Conflicts.Add(permission.Conflict{Decision: v.Decision, Layer: v.Layer, Source: v.Source, Rule: v.Rule, Reason: v.Reason})
	v.Decision, v.Layer, v.Source, v.Rule, v.Reason = permission.Deny, permission.LayerShell, permission.SourceToolDeny, rule, reason
	return v
}

// holdsRecords reports the directory of dirs that holds the records
// directory of stateDir (or is it), if any: records there a confined
// command could forge.
func holdsRecords(stateDir string, dirs []string) (string, bool) {
	if stateDir == "" {
		return "", false
	}
	records := canonicalDir(filepath.Join(stateDir, "prefix"))
	for _, d := range dirs {
		if c := canonicalDir(d); c == records || within(records, c) {
			return d, true
		}
	}
	return "", false
}

// prefixKey names the record of one command in one directory of one
// session.
func prefixKey(session, cwd, command string) string {
	sum := sha256.Sum256([]byte("toolgate-shell-prefix/1\x00" + session + "\x00" + canonicalDir(cwd) + "\x00" + command))
	return hex.EncodeToString(sum[:16]) + ".json"
}

// canonicalDir is dir with its links resolved, or dir cleaned when it
// cannot be resolved: the hook's event and the prefix's getcwd may spell
// one directory differently.
func canonicalDir(dir string) string {
	if r, err := filepath.EvalSymlinks(dir); err == nil {
		return r
	}
	return filepath.Clean(dir)
}

// prefixDir is the private directory of the records: <state>/prefix,
// made with mode 0700 and checked to be the user's own and closed to
// everyone else, as is the state directory above it.
func prefixDir(stateDir string) (string, error) {
	if stateDir == "" || !filepath.IsAbs(stateDir) {
		return "", errors.New("no state directory (set XDG_STATE_HOME or HOME)")
	}
	dir := filepath.Join(stateDir, "prefix")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	for _, d := range []string{stateDir, dir} {
		if err := privateDir(d); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// privateDir checks that dir is a directory (not a link), owned by the
// user, that no one else may write (and, for the records' own, read).
func privateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case !ok || int(st.Uid) != os.Getuid():
		return fmt.Errorf("%s is not owned by the user", dir)
	case filepath.Base(dir) == "prefix" && fi.Mode().Perm()&0o077 != 0:
		return fmt.Errorf("%s is open to others (mode %v); it must be 0700", dir, fi.Mode().Perm())
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("%s is writable by others (mode %v)", dir, fi.Mode().Perm())
	}
	return nil
}

// writePrefixRecord writes rec atomically (a temporary file renamed over
// the name), mode 0600.
func writePrefixRecord(stateDir string, rec prefixRecord, now time.Time) error {
	dir, err := prefixDir(stateDir)
	if err != nil {
		return err
	}
	rec.Expires = now.Add(prefixRecordMaxAge).Unix()
	tmp, err := writeStateTemp(dir, ".rec-", rec)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, prefixKey(rec.Session, rec.Cwd, rec.Command))); err != nil {
		_ = os.Remove(tmp)
		return err
	}
	sweepPrefixRecords(dir, now)
	return nil
}

// maxPrefixSweep bounds the entries one sweep visits.
const maxPrefixSweep = 4096

// sweepPrefixRecords removes the records older than prefixRecordMaxAge,
// left by calls Claude Code did not run (its own rule refused them, the
// person said no), at most maxPrefixSweep entries a time.
func sweepPrefixRecords(dir string, now time.Time) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	defer d.Close()
	ents, _ := d.ReadDir(maxPrefixSweep)
	for _, e := range ents {
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && now.Sub(fi.ModTime()) > prefixRecordMaxAge {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// takePrefixRecord consumes the record of command in cwd of session:
// renamed to a name of its own first, so that one run alone takes it, then
// read and removed. ok is false when there is none, or it is not the
// user's, is for another command, or has expired.
func takePrefixRecord(stateDir, session, cwd, command string, now time.Time) (prefixRecord, bool, error) {
	var rec prefixRecord
	dir, err := prefixDir(stateDir)
	if err != nil {
		return rec, false, err
	}
	name := filepath.Join(dir, prefixKey(session, cwd, command))
	var nonce [8]byte
	_, _ = rand.Read(nonce[:])
	taken := name + ".taken-" + hex.EncodeToString(nonce[:])
	if err := os.Rename(name, taken); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return rec, false, nil
		}
		return rec, false, err
	}
	defer os.Remove(taken)
	b, err := safefile.ReadPrivate(taken, maxPrefixRecordBytes)
	if err != nil {
		return rec, false, fmt.Errorf("the record %s is not a private file of the user's: %w", name, err)
	}
	if err := json.Unmarshal(b, &rec); err != nil {
		return rec, false, fmt.Errorf("the record %s: %v", name, err)
	}
	if rec.Session != session || canonicalDir(rec.Cwd) != canonicalDir(cwd) || rec.Command != command || now.Unix() > rec.Expires {
		return rec, false, nil
	}
	switch rec.Mode {
	case prefixFull:
	case prefixConfine:
		if len(rec.Policy.Roots) == 0 {
			return rec, false, fmt.Errorf("the record %s has no roots", name)
		}
	default:
		return rec, false, fmt.Errorf("the record %s has mode %q", name, rec.Mode)
	}
	return rec, true, nil
}

// bashScript is what the prefix reads in a script Claude Code built for
// a Bash call.
type bashScript struct {
	// Command is the user's command: the eval's argument, unquoted.
	Command string
	// CwdFile is the file "pwd -P" writes the final directory into.
	CwdFile string
}

// cwdFileName is the name of the file of /tmp where Claude Code 2.1.332
// reads a Bash call's final directory: /tmp/claude-<hex>-cwd.
var cwdFileName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^claude-[0-9a-f]{4,32}-cwd$`) })

// parseBashScript reads a script of the shape Claude Code 2.1.332 builds
// for a Bash call, as recorded from the real client:
//
//	source SNAPSHOT 2>/dev/null || true && … && eval 'COMMAND' < /dev/null && pwd -P >| /tmp/claude-XXXX-cwd
//
// (without "< /dev/null" when the command reads a here-document; the
// prologue before the eval may be absent, for a client without a
// snapshot). The eval's one argument must be literal text, unquoted as
// bash would (no expansion), the last command exactly pwd -P into a file
// named as Claude Code names it. ok is false for anything else.
func parseBashScript(script string) (bashScript, bool) {
	var bs bashScript
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil || len(f.Stmts) != 1 {
		return bs, false
	}
	top := f.Stmts[0]
	if top.Negated || top.Background || top.Coprocess || len(top.Redirs) > 0 {
		return bs, false
	}
	and, ok := top.Cmd.(*syntax.BinaryCmd)
	if !ok || and.Op != syntax.AndStmt {
		return bs, false
	}
	// The last command: pwd -P >| FILE.
	pwd, ok := plainCall(and.Y)
	if !ok || len(pwd.Args) != 2 || litOf(pwd.Args[0]) != "pwd" || litOf(pwd.Args[1]) != "-P" || len(and.Y.Redirs) != 1 {
		return bs, false
	}
	r := and.Y.Redirs[0]
	if r.Op != syntax.ClbOut || r.N != nil || r.Word == nil {
		return bs, false
	}
	file := litOf(r.Word)
	if !filepath.IsAbs(file) || filepath.Clean(file) != file || !cwdFileName().MatchString(filepath.Base(file)) {
		return bs, false
	}
	// Before it: eval WORD [< /dev/null], first or after the prologue.
	evStmt := and.X
	if prev, ok := and.X.Cmd.(*syntax.BinaryCmd); ok {
		if x := and.X; prev.Op != syntax.AndStmt || x.Negated || x.Background || x.Coprocess || len(x.Redirs) > 0 {
			return bs, false
		}
		evStmt = prev.Y
	}
	ev, ok := plainCall(evStmt)
	if !ok || len(ev.Args) != 2 || litOf(ev.Args[0]) != "eval" {
		return bs, false
	}
	switch len(evStmt.Redirs) {
	case 0:
	case 1:
		if in := evStmt.Redirs[0]; in.Op != syntax.RdrIn || in.N != nil || litOf(in.Word) != "/dev/null" {
			return bs, false
		}
	default:
		return bs, false
	}
	cmd, ok := quotedText(ev.Args[1])
	if !ok {
		return bs, false
	}
	return bashScript{Command: cmd, CwdFile: file}, true
}

// plainCall is the simple command of s, with no assignments, when s is
// one.
func plainCall(s *syntax.Stmt) (*syntax.CallExpr, bool) {
	if s == nil || s.Negated || s.Background || s.Coprocess {
		return nil, false
	}
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Assigns) > 0 {
		return nil, false
	}
	return c, true
}

// litOf is the text of a word of one unquoted literal, or "".
func litOf(w *syntax.Word) string {
	if w == nil || len(w.Parts) != 1 {
		return ""
	}
	if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, `\'"$`+"`") {
		return l.Value
	}
	return ""
}

// quotedText is the value of w as bash reads it, when it holds no
// expansion: literals, single quotes and double quotes of literals only,
// as Claude Code quotes the command. An unquoted literal with a character
// that bash would glob, brace-expand or tilde-expand is refused rather
// than expanded.
func quotedText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(p.Value, "*?[]{}~") {
				return "", false
			}
			unescape(&b, p.Value, "")
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				unescape(&b, l.Value, "$`\"\\\n")
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// unescape writes s with bash's quote removal of backslashes: outside
// quotes (only "") a backslash escapes any character, in double quotes
// only those of only; a backslash before a newline joins the lines.
func unescape(b *strings.Builder, s, only string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++ // a line continuation
		case only == "" || strings.IndexByte(only, next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
}

// userHookCommands are the command hooks (and the status line command)
// of the user's own and the managed settings files, as Claude Code runs
// them: the only scripts the prefix runs with the user's rights without a
// record.
func userHookCommands(home string, getenv func(string) string, managed string) map[string]bool {
	var files []string
	if managed != "" {
		files = append(append(files, managed), managedDropIns(managed)...)
	}
	if dir := userConfigDir(home, getenv); dir != "" {
		files = append(files, filepath.Join(dir, "settings.json"))
	}
	out := map[string]bool{}
	for _, f := range files {
		b, err := safefile.Read(f, maxSettingsBytes)
		if err != nil {
			continue
		}
		var s struct {
			StatusLine struct {
				Type    string `json:"type"`
				Command string `json:"command"`
			} `json:"statusLine"`
			Hooks map[string][]struct {
				Hooks []struct {
					Type    string `json:"type"`
					Command string `json:"command"`
				} `json:"hooks"`
			} `json:"hooks"`
		}
		if json.Unmarshal(b, &s) != nil {
			continue
		}
		if s.StatusLine.Type == "command" && s.StatusLine.Command != "" {
			out[s.StatusLine.Command] = true
		}
		for _, ms := range s.Hooks {
			for _, m := range ms {
				for _, h := range m.Hooks {
					if h.Type == "command" && h.Command != "" {
						out[h.Command] = true
					}
				}
			}
		}
	}
	return out
}

// runShellPrefix is "toolgate shell-prefix SCRIPT" (or the binary run as
// toolgate-shell-prefix): it runs one script of Claude Code's, confined
// as toolgate check decided, and exits with its status (exitNotRun when it
// could not run it, exitOutputExceeded when it was killed for its output;
// each with the reason on standard error).
func runShellPrefix(args []string, e env) int {
	if wantsHelp(args) {
		fmt.Fprintf(e.stdout, "usage: %s\n", synopses["shell-prefix"])
		return 0
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "toolgate: the command did not run: %v\n", err)
		return exitNotRun
	}
	defer execPauseGC(execGCPause, execGCLimit)()
	if len(args) != 1 {
		return fail(fmt.Errorf("%s takes one argument, the script (got %d)", shellPrefixName, len(args)))
	}
	script := args[0]
	dir, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	// Where the records and the user's settings are, found as the hook
	// finds them: what a workspace's settings set in their env block
	// (HOME, XDG_STATE_HOME, CLAUDE_CONFIG_DIR, …) is not believed, so it
	// cannot point the prefix at records or hooks of its own.
	src := eventSource(event{Cwd: dir, SessionID: e.getenv("CLAUDE_CODE_SESSION_ID")}, e.getenv, defaultManagedSettings(), nil)
	home := src.home
	bs, isBash := parseBashScript(script)
	if !isBash && userHookCommands(home, src.getenv, src.managed)[script] {
		return runFull(script, e)
	}
	pol := confinePolicy{Roots: []string{dir}}
	if isBash {
		rec, ok, err := takePrefixRecord(src.stateDir, src.session, dir, bs.Command, time.Now())
		if r, in := holdsRecords(src.stateDir, append([]string{dir, src.projectDir()}, rec.Policy.Roots...)); ok && in {
			ok, err = false, fmt.Errorf("the records lie in %s, which a confined command may write", r)
		}
		switch {
		case err != nil:
			fmt.Fprintf(e.stderr, "toolgate: %v; the command runs confined to %s with the network off\n", err, dir)
		case !ok:
			fmt.Fprintf(e.stderr, "toolgate: no decision of toolgate check is recorded for this command; it runs confined to %s with the network off\n", dir)
		case rec.Mode == prefixFull:
			return runFull(script, e)
		default:
			pol = rec.Policy
		}
	} else {
		fmt.Fprintf(e.stderr, "toolgate: a script that is neither a Bash call nor a hook of the user's settings runs confined to %s with the network off\n", dir)
	}
	sh, err := confineShell(pol, dir, home, src.stateDir, os.Environ(), e.stdin, e.stdout, e.stderr)
	if err != nil {
		return fail(err)
	}
	if isBash {
		if f, created, ok := prepareCwdFile(bs.CwdFile, e.getenv("TMPDIR")); ok {
			sh.Confinement.Writable = append(sh.Confinement.Writable, f)
			if created {
				// A command that failed never reached pwd -P: leave no
				// empty file where Claude Code would find none.
				defer removeIfEmpty(f)
			}
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	res, err := sh.Run(ctx, script)
	if err != nil && !errors.Is(err, ctx.Err()) {
		return fail(err)
	}
	return launcherStatus(res)
}

// prepareCwdFile makes the file "pwd -P" writes the final directory into,
// so that the confinement can grant that one file (Landlock grants an
// existing file; creating one would need the whole of /tmp). It must lie
// directly in /tmp or $TMPDIR, and be (or become) a regular file of the
// user's with one link; otherwise it is not granted, and only the cd is
// lost. created reports that this call made it.
func prepareCwdFile(path, tmpdir string) (name string, created, ok bool) {
	d := filepath.Dir(path)
	if d != "/tmp" && (tmpdir == "" || d != filepath.Clean(tmpdir)) {
		return "", false, false
	}
	flags := syscall.O_WRONLY | syscall.O_NOFOLLOW | syscall.O_NONBLOCK | syscall.O_CLOEXEC
	fd, err := syscall.Open(path, flags|syscall.O_CREAT|syscall.O_EXCL, 0o600)
	created = err == nil
	if errors.Is(err, syscall.EEXIST) {
		fd, err = syscall.Open(path, flags, 0)
	}
	if err != nil {
		return "", false, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || int(st.Uid) != os.Getuid() || st.Nlink != 1 {
		return "", false, false
	}
	return path, created, true
}

// removeIfEmpty removes the regular file at path when it is empty.
func removeIfEmpty(path string) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		_ = os.Remove(path)
	}
}

// runFull runs script with the user's rights, as Claude Code would
// without a prefix: bash -c, in place of this process.
func runFull(script string, e env) int {
	bash, err := exec.LookPath("bash")
	if err != nil {
		fmt.Fprintf(e.stderr, "toolgate: the command did not run: %v\n", err)
		return 126
	}
	argv := []string{"bash", "-c", script}
	if e.execve != nil {
		if err := e.execve(bash, argv, os.Environ()); err != nil && !errors.Is(err, errors.ErrUnsupported) {
			fmt.Fprintf(e.stderr, "toolgate: the command did not run: %v\n", err)
			return 126
		}
	}
	cmd := exec.Command(bash, argv[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = orEmpty(e.stdin), e.stdout, e.stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		fmt.Fprintf(e.stderr, "toolgate: the command did not run: %v\n", err)
		return 126
	}
	return 0
}

// orEmpty is r, or an empty reader for nil.
func orEmpty(r io.Reader) io.Reader {
	if r == nil {
		return strings.NewReader("")
	}
	return r
}
