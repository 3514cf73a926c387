package main

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/toolgate/toolgate/bashguard/runner"
	"github.com/toolgate/toolgate/internal/stattime"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/sandbox"
)

// Confinement of what toolgate check allows.
//
// Under "toolgate": {"confine": true} (the default), check answers an
// allowed Bash or Monitor call with an updatedInput whose command runs the
// original script through "toolgate exec", which confines it with the
// kernel (runner.Shell's Landlock policy) and runs it on Claude Code's own
// streams: the roots read-write with their secret paths hidden, the
// system locations and the user's tool configuration read-only, the
// toolchains' caches read-write, a private TMPDIR, no TCP unless
// toolgate.network is on, and the environment without secret-looking
// variables. The script travels in base64, so it reaches bash byte for
// byte; the policy travels beside it, fixed when the call was judged.

// confinedTools are the tools whose command check wraps.
var confinedTools = map[string]bool{"Bash": true, "Monitor": true}

// confineMaxWalk bounds the entries the launcher walks under the roots to
// hide their secret paths: large enough for a monorepo with its
// dependencies; a larger tree makes the command fail, never run
// unconfined.
const confineMaxWalk = 1_000_000

// confinePolicy is what the launcher needs, carried in the wrapped
// command.
type confinePolicy struct {
	Roots    []string `json:"roots"`
	Network  bool     `json:"network,omitempty"`
	Loopback bool     `json:"loopback,omitempty"`
	PassEnv  []string `json:"passEnv,omitempty"`
}

// confineHomeReadOnly are the files under HOME a confined command may
// read (git's own configuration: not ~/.config/git whole, which may hold
// credentials), and the user's own program directories.
var confineHomeReadOnly = []string{".gitconfig", ".config/git/config", ".config/git/ignore", ".config/git/attributes", ".local/bin", "bin"}

// confineCachesReadOnly are the package caches under HOME that hold code
// a later, unconfined build runs (module sources, crates, jars): a
// confined command may read them, never write them. Downloads go through
// an allowed step outside the confinement. They hold only published
// packages, so they are granted whole (runner.Confinement.Packages),
// without the walk for secret paths the other read-only grants get.
var confineCachesReadOnly = []string{"go/pkg/mod", ".cargo/registry", ".cargo/git", ".m2/repository", ".gradle/caches", ".gradle/wrapper/dists"}

// confineCacheVars are the variables that point the toolchains at the
// confined commands' own cache home (see confineCacheHome), beneath it:
// caches a confined command writes are read only by confined commands.
var confineCacheVars = map[string]string{
	"XDG_CACHE_HOME":    "",
	"GOCACHE":           "go-build",
	"npm_config_cache":  "npm",
	"YARN_CACHE_FOLDER": "yarn",
	"PIP_CACHE_DIR":     "pip",
	"UV_CACHE_DIR":      "uv",
	"PNPM_STORE_DIR":    "pnpm-store",
}

// confineCacheHome is the cache home of confined commands:
// $XDG_CACHE_HOME/toolgate/confined (~/.cache/toolgate/confined), made
// on first use with mode 0700.
func confineCacheHome(environ []string, home string) string {
	base := lookup(environ, "XDG_CACHE_HOME")
	if !filepath.IsAbs(base) {
		if home == "" {
			return ""
		}
		base = filepath.Join(home, ".cache")
	}
	dir := filepath.Join(base, "toolgate", "confined")
	if os.MkdirAll(dir, 0o700) != nil {
		return ""
	}
	return dir
}

// confineIdentityFile is where the runner records the identities of the
// roots' secret paths between commands (runner.Confinement.IdentityFile):
// $XDG_CACHE_HOME/toolgate/identities/<hash of the roots>.json, beside,
// never inside, the confined commands' writable cache home.
func confineIdentityFile(environ []string, home string, roots []string) string {
	base := lookup(environ, "XDG_CACHE_HOME")
	if !filepath.IsAbs(base) {
		if home == "" {
			return ""
		}
		base = filepath.Join(home, ".cache")
	}
	sum := sha256.Sum256([]byte(strings.Join(roots, "\x00")))
	return filepath.Join(base, "toolgate", "identities", hex.EncodeToString(sum[:12])+".json")
}

// confineKept are the files in which the launcher keeps, between
// commands, the sandbox's search for the protected and secret locations
// (sandbox.Config.FactsFile) and the runner's walk of the roots
// (runner.Confinement.WalkFile), and the key that describes the checker
// the walk was judged by.
type confineKept struct {
	facts, walk, key string
}

// confineKeptFiles are the kept files for the roots, the working
// directory and the home directory: in the state directory's confine
// folder ($XDG_STATE_HOME/toolgate/confine, by default
// ~/.local/state/toolgate/confine, found as the hook finds it: not where
// a workspace's settings point XDG_STATE_HOME), named by a hash of the
// three; none without a state directory. Each is trusted only where the
// sandbox and the runner trust it (the user's, private, outside the roots
// and the writable locations); the key holds the toolgate binary's
// identity, so that another version, whose lists may differ, walks
// afresh.
func confineKeptFiles(state, home string, roots []string, dir string) confineKept {
	if state == "" {
		return confineKept{}
	}
	b, _ := json.Marshal(struct {
		Roots     []string
		Dir, Home string
		Exe       string
	}{roots, dir, home, selfStamp()})
	sum := sha256.Sum256(b)
	base := filepath.Join(state, "confine", hex.EncodeToString(sum[:16]))
	return confineKept{facts: base + ".facts", walk: base + ".walk", key: string(b)}
}

// selfStamp names the running binary's file: its path, device, inode,
// size and modification time; "" when it cannot be named.
func selfStamp() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	var st syscall.Stat_t
	if syscall.Stat(exe, &st) != nil {
		return ""
	}
	mtime, _ := stattime.Times(&st)
	return fmt.Sprintf("%s|%d|%d|%d|%d.%d", exe, st.Dev, st.Ino, st.Size, mtime.Sec, mtime.Nsec)
}

// errHomeRoot refuses a root that is the home directory or holds it.
var errHomeRoot = errors.New("a root is the home directory or holds it")

// homeRoot returns the first root that is home or a directory above it.
func homeRoot(roots []string, home string) (string, bool) {
	if home == "" {
		return "", false
	}
	for _, r := range roots {
		if h, d := filepath.Clean(home), filepath.Clean(r); h == d || within(h, d) {
			return r, true
		}
	}
	return "", false
}

// confineShell is the runner that runs one confined command on the
// launcher's own streams, in the current directory.
func confineShell(pol confinePolicy, dir, home, state string, environ []string, stdin io.Reader, stdout, stderr io.Writer) (*runner.Shell, error) {
	if r, ok := homeRoot(pol.Roots, home); ok {
		return nil, fmt.Errorf("%w: %s holds %s, whose start-up files and agent settings a confined command could then rewrite; start the agent in a project directory", errHomeRoot, r, home)
	}
	// With the home directory, so that the user's configuration linked into
	// the roots is hidden and judged as what it is (sandbox identity.go).
	// The sandbox's search and the runner's walk are kept between
	// commands in the state directory (see confineKeptFiles).
	kept := confineKeptFiles(state, home, pol.Roots, dir)
	sb, err := sandbox.New(sandbox.Config{Roots: pol.Roots, WorkDir: dir, Home: home, FactsFile: kept.facts})
	if err != nil {
		return nil, err
	}
	readOnly, packages, writable := runner.DefaultConfineReadOnly(), []string(nil), []string(nil)
	env := confineEnv(environ, pol.PassEnv)
	if home != "" {
		for _, p := range confineHomeReadOnly {
			readOnly = append(readOnly, filepath.Join(home, p))
		}
		for _, p := range confineCachesReadOnly {
			packages = append(packages, filepath.Join(home, p))
		}
	}
	for _, name := range []string{"GOMODCACHE", "CARGO_HOME"} {
		if v := lookup(environ, name); filepath.IsAbs(v) {
			if name == "CARGO_HOME" {
				packages = append(packages, filepath.Join(v, "registry"), filepath.Join(v, "git"))
				continue
			}
			packages = append(packages, v)
		}
	}
	progs, installs := pathGrants(lookup(environ, "PATH"), home)
	readOnly, packages = append(readOnly, progs...), append(packages, installs...)
	identities := confineIdentityFile(environ, home, pol.Roots)
	if cache := confineCacheHome(environ, home); cache != "" {
		writable = append(writable, cache)
		for name, sub := range confineCacheVars {
			env = setEnv(env, name, filepath.Join(cache, sub))
		}
	}
	// Never the home or a directory above it, whatever named it ($GOPATH
	// or a PATH entry equal to $HOME, "/" on PATH).
	aboveHome := func(p string) bool {
		h, d := filepath.Clean(home), filepath.Clean(p)
		return home != "" && (h == d || within(h, d))
	}
	readOnly = slices.DeleteFunc(readOnly, aboveHome)
	packages = slices.DeleteFunc(packages, aboveHome)
	return &runner.Shell{
		Dir:     dir,
		Checker: sb.Pin(),
		Home:    home,
		Env:     withoutTemp(env),
		Confinement: runner.Confinement{
			Roots: pol.Roots, Network: pol.Network, Loopback: pol.Loopback, ReadOnly: readOnly, Packages: packages, Writable: writable, MaxWalk: confineMaxWalk,
			Protect: confineProtectNames, IdentityFile: identities, WalkFile: kept.walk, WalkKey: kept.key,
			// The hook probed them before it wrapped the command
			// (confinement); where they are gone since, the launcher
			// fails and the command does not run.
			NamespacesProbed: true,
			// toolgate exec and shell-prefix run one command each: the
			// runner starts the launcher's second stage itself.
			OwnProcess: true,
		},
		Stream: &runner.Stream{Stdin: stdin, Stdout: stdout, Stderr: stderr},
	}, nil
}

// confineProtectNames are files the agent reads as its instructions,
// bound read-only for a confined command besides the sandbox's protected
// paths (the Edit tool, which Claude Code runs itself, still edits them,
// as the sandbox judges).
var confineProtectNames = []string{"CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", "GEMINI.md"}

// setEnv sets name to value in environ, replacing an entry of the name.
func setEnv(environ []string, name, value string) []string {
	out := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool { return strings.HasPrefix(kv, name+"=") })
	return append(out, name+"="+value)
}

// confineCall wraps the command of an allowed call of a confined tool, or
// turns the Allow into an Ask when the kernel cannot confine it here. The
// other decisions, and the other tools, pass unchanged.
func confineCall(v runtime.Verdict, tool string, pol *policy, self string) runtime.Verdict {
	if v.Decision != permission.Allow || !confinedTools[tool] || !pol.confine {
		return v
	}
	cp, v, ok := confinement(v, pol, self)
	if !ok {
		return v
	}
	var in map[string]json.RawMessage
	var script string
	if err := json.Unmarshal(v.Input, &in); err != nil || json.Unmarshal(in["command"], &script) != nil {
		return askInstead(v, ruleConfineInput, "toolgate cannot read the command to confine it")
	}
	wrapped, err := json.Marshal(wrapCommand(self, cp, script))
	if err != nil {
		return askInstead(v, ruleConfineInput, "toolgate cannot wrap the command: "+err.Error())
	}
	in["command"] = wrapped
	out, err := json.Marshal(in)
	if err != nil {
		return askInstead(v, ruleConfineInput, "toolgate cannot wrap the command: "+err.Error())
	}
	v.Input = out
	return v
}

// confinement is the policy that confines an allowed call of pol's
// project, or v turned into an Ask (ok false) when the kernel cannot
// confine it here.
func confinement(v runtime.Verdict, pol *policy, self string) (confinePolicy, runtime.Verdict, bool) {
	if r, ok := homeRoot(pol.roots, pol.src.home); ok {
		return confinePolicy{}, askInstead(v, ruleConfineUnavailable, "toolgate cannot confine this command: the root "+r+" is the home directory or holds it, so a confined command could rewrite its start-up files and the agent's settings; confirm it runs with your full rights, or start the agent in a project directory"), false
	}
	network, loopback := pol.kernelNet == networkOn, pol.kernelNet == networkLoopback
	namespaces := keptNamespaces(nsKeptPath(pol.src.stateDir))
	if w := pol.src.warm; w != nil {
		namespaces = keptNamespacesOf(nsKeptPath(pol.src.stateDir), w.bootID, w.userNS)
	}
	sh := runner.Shell{Confinement: runner.Confinement{Roots: pol.roots, Network: network, Loopback: loopback, Launcher: self},
		Namespaces: namespaces}
	if ok, why := sh.CanConfine(); !ok || self == "" {
		if self == "" {
			why = "the toolgate binary cannot name its own path"
		}
		return confinePolicy{}, askInstead(v, ruleConfineUnavailable, "toolgate cannot confine this command here ("+why+"); confirm it runs with your full rights, or set \"toolgate\": {\"confine\": false} in your user settings"), false
	}
	return confinePolicy{Roots: pol.roots, Network: network, Loopback: loopback, PassEnv: pol.passEnv}, v, true
}

// The rule IDs of an Allow the confinement turns into an Ask.
const (
	ruleConfineUnavailable permission.RuleID = "confine:unavailable" // no confinement on this system
	ruleConfineInput       permission.RuleID = "confine:input"       // the command cannot be read or wrapped
)

// askInstead turns an Allow into an Ask of the shell layer, keeping the
// Allow in the conflict log.
func askInstead(v runtime.Verdict, rule permission.RuleID, reason string) runtime.Verdict {
	v.Conflicts.Add(permission.Conflict{Decision: v.Decision, Layer: v.Layer, Source: v.Source, Rule: v.Rule, Reason: v.Reason})
	v.Decision, v.Layer, v.Source, v.Rule, v.Reason = permission.Ask, permission.LayerShell, permission.SourceToolAsk, rule, reason
	return v
}

// wrapCommand is the command Claude Code runs in place of script: toolgate
// exec with the policy and the script, each in base64 inside single
// quotes, so that no byte of either means anything to the shell.
func wrapCommand(self string, pol confinePolicy, script string) string {
	p, _ := json.Marshal(pol) // strings and a bool always encode
	return shellQuote(self) + " exec --policy " + base64.StdEncoding.EncodeToString(p) +
		" --script " + base64.StdEncoding.EncodeToString([]byte(script))
}

// shellQuote quotes s for bash in single quotes.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// The exit statuses the launchers (toolgate exec, toolgate-shell-prefix)
// report of their own, in place of the command's: each outside what bash
// reports itself (1 and 2 for its errors, 127 for a command not found,
// 128+N for a signal), so that a caller tells them from the command's
// own failure and from a kill; the reason is on standard error.
const (
	// exitOutputExceeded: the runner killed the command because it wrote
	// more than runner.Shell.MaxOutputBytes to its standard output and
	// standard error together (runner.Result.OutputExceeded); the bytes
	// past the cap were never passed on. 125, the status GNU timeout and
	// docker run give their own failures, as 126 and 127 are the shell's;
	// the runner's own Result.ExitCode stays 137, the kill's.
	exitOutputExceeded = 125
	// exitNotRun: the command did not run (a bad policy, a confinement
	// the kernel cannot give).
	exitNotRun = 126
)

// launcherStatus is the exit status a launcher reports for res: the
// command's own, unless the runner ended it for its output.
func launcherStatus(res runner.Result) int {
	if res.OutputExceeded {
		return exitOutputExceeded
	}
	return res.ExitCode
}

// runExec is "toolgate exec --policy P --script S": the launcher that runs
// one confined command on its own streams and exits with its status
// (exitNotRun when it could not run it, exitOutputExceeded when it was
// killed for its output; each with the reason on stderr).
func runExec(args []string, e env) int {
	if wantsHelp(args) {
		fmt.Fprintf(e.stdout, "usage: %s\n", synopses["exec"])
		return 0
	}
	fail := func(err error) int {
		fmt.Fprintf(e.stderr, "toolgate: the command did not run: %v\n", err)
		return exitNotRun
	}
	defer execPauseGC(execGCPause, execGCLimit)()
	pol, script, err := parseExecArgs(args)
	if err != nil {
		return fail(err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	// The state directory as the hook finds it, whatever a workspace's
	// settings set in their env block.
	state := eventSource(event{Cwd: dir}, e.getenv, defaultManagedSettings(), nil).stateDir
	sh, err := confineShell(pol, dir, e.getenv("HOME"), state, os.Environ(), e.stdin, e.stdout, e.stderr)
	if err != nil {
		return fail(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer stop()
	res, err := sh.Run(ctx, script)
	if err != nil && !errors.Is(err, ctx.Err()) {
		return fail(err)
	}
	return launcherStatus(res)
}

// The garbage collector of the launcher. What toolgate exec allocates
// before the command starts, most of it the kept walk of the roots (tens
// of megabytes in a project of 100,000 entries, garbage once the rules
// are made), is allocated on the path of every command, and a collection
// then only delays the command: the launcher leaves the collector off
// until execGCPause after its start, by when the command runs (or, for a
// walk of a very large project, the collector catches up while it goes
// on), and bounds its memory meanwhile at execGCLimit, past which the
// collector runs anyway.
const (
	execGCPause = 250 * time.Millisecond
	execGCLimit = 512 << 20
)

// execPauseGC turns the garbage collector off, under a memory limit of at
// most limit, until d has passed or the returned func is called,
// whichever comes first: both are then put back as they were.
func execPauseGC(d time.Duration, limit int64) func() {
	percent := debug.SetGCPercent(-1)
	was := debug.SetMemoryLimit(-1) // a negative limit only reads it
	debug.SetMemoryLimit(min(was, limit))
	restore := sync.OnceFunc(func() {
		debug.SetMemoryLimit(was)
		debug.SetGCPercent(percent)
	})
	t := time.AfterFunc(d, restore)
	return func() {
		t.Stop()
		restore()
	}
}

// parseExecArgs reads the command line of toolgate exec: the policy and
// the script, each in base64.
func parseExecArgs(args []string) (confinePolicy, string, error) {
	var pol confinePolicy
	fs := flag.NewFlagSet("exec", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	polArg := fs.String("policy", "", "the confinement policy, JSON in base64")
	scriptArg := fs.String("script", "", "the script, in base64")
	if err := fs.Parse(args); err != nil {
		return pol, "", err
	}
	if fs.NArg() > 0 {
		return pol, "", fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	p, err := base64.StdEncoding.DecodeString(*polArg)
	if err == nil {
		err = json.Unmarshal(p, &pol)
	}
	if err != nil {
		return pol, "", fmt.Errorf("bad --policy: %v", err)
	}
	if len(pol.Roots) == 0 {
		return pol, "", errors.New("bad --policy: no roots")
	}
	script, err := base64.StdEncoding.DecodeString(*scriptArg)
	if err != nil {
		return pol, "", fmt.Errorf("bad --script: %v", err)
	}
	return pol, string(script), nil
}

// secretEnvWords are the parts of a variable name, between underscores,
// that mark its value as a secret (GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY,
// NPM_AUTH, PGPASSWORD is caught by its prefix below). Whole parts only:
// GIT_AUTHOR_NAME and PWD stay.
var secretEnvWords = map[string]bool{
	"TOKEN": true, "TOKENS": true, "SECRET": true, "SECRETS": true, "PASSWORD": true, "PASSWD": true, "PASS": true,
	"PASSPHRASE": true, "CREDENTIAL": true, "CREDENTIALS": true, "CREDS": true, "APIKEY": true, "KEY": true,
	"COOKIE": true, "DSN": true, "AUTH": true, "PAT": true, "PRIVATE": true,
}

// secretEnvNames are further variables that hand a command the user's
// credentials: agent sockets, credential files, passwords of clients.
var secretEnvNames = map[string]bool{
	"SSH_AUTH_SOCK": true, "GPG_AGENT_INFO": true, "GOOGLE_APPLICATION_CREDENTIALS": true, "KUBECONFIG": true,
	"DOCKER_CONFIG": true, "PGPASSWORD": true, "PGPASSFILE": true, "MYSQL_PWD": true, "NETRC": true,
	"DATABASE_URL": true,
}

// scrubEnv is environ without the variables whose names look secret, or
// whose values carry a password in a URL.
func scrubEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, ok := strings.Cut(kv, "=")
		if !ok || name == "" || secretEnv(name, value) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func secretEnv(name, value string) bool {
	upper := strings.ToUpper(name)
	if secretEnvNames[upper] {
		return true
	}
	if strings.HasPrefix(upper, "AWS_") && upper != "AWS_REGION" && upper != "AWS_DEFAULT_REGION" && upper != "AWS_PROFILE" {
		return true
	}
	for part := range strings.SplitSeq(upper, "_") {
		if secretEnvWords[part] {
			return true
		}
	}
	// scheme://user:password@host/...
	if i := strings.Index(value, "://"); i >= 0 {
		authority, _, _ := strings.Cut(value[i+3:], "/")
		if at := strings.LastIndexByte(authority, '@'); at >= 0 && strings.IndexByte(authority[:at], ':') >= 0 {
			return true
		}
	}
	return false
}

// lookup is the value of name in environ.
func lookup(environ []string, name string) string {
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, name+"="); ok {
			return v
		}
	}
	return ""
}

// withoutTemp is environ without the variables that name a temporary
// directory: the runner's private TMPDIR takes their place (the caller's
// /tmp is not granted), and TMP and TEMP follow it.
func withoutTemp(environ []string) []string {
	out := environ[:0:0]
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "TMPDIR", "TMP", "TEMP", "TEMPDIR":
			continue
		}
		out = append(out, kv)
	}
	return out
}

// within reports whether p lies strictly inside dir.
func within(p, dir string) bool {
	return strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}
