package bashguard

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// The effect test: every example a spec allows is run for real, confined,
// under strace, and what it did is held to the property the guard's Allow
// promises (effect_strace_test.go): the command runs no program but
// itself, reads in the work tree only what the judge saw, writes nothing
// outside .git, touches no canary and reaches no network.
//
// The sandbox is bubblewrap: every namespace new (the network one has
// only loopback), the user nobody (65534) with every capability dropped
// (as root, bwrap itself is started as nobody through setpriv), /usr and
// /etc read-only, a private /tmp, a throwaway HOME, the example's copy of
// the specs' repository bound read-write, and canaries: HOME/.ssh/id_ed25519,
// HOME/.git-credentials and a file beside the repository. strace runs
// inside the sandbox, on the command's bash, so it needs no privilege over
// anything outside.

// requireEffectsEnv makes a skip of the effect test a failure (.ci/run sets it).
const requireEffectsEnv = "TOOLGATE_REQUIRE_EFFECTS"

// effectPath is the PATH inside the sandbox: the system's directories,
// and each directory of the test's own PATH beneath /usr, which the
// sandbox binds read-only (Go's toolchain in /usr/local/go/bin).
var effectPath = sandboxPath(os.Getenv("PATH"))

// sandboxPath is effectPath for a test whose PATH is host.
func sandboxPath(host string) string {
	dirs := []string{"/usr/local/bin", "/usr/bin", "/bin"}
	for _, d := range filepath.SplitList(host) {
		if strings.HasPrefix(d, "/usr/") && !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return strings.Join(dirs, ":")
}

// effectNobody is the user and group the sandboxed command runs as.
const effectNobody = 65534

// effectSandbox runs command lines confined, under strace.
type effectSandbox struct {
	bwrap, strace, bash string
	setpriv             string // set when the test runs as root: bwrap starts as nobody
	base                string // where the examples' directories are made
}

// effectDir is one example's directory: the repository, HOME, the
// canaries, and the trace.
type effectDir struct {
	root, repo, home, trace string
	canaries                []string
}

// needEffects skips the test, loudly, or fails it under
// TOOLGATE_REQUIRE_EFFECTS.
func needEffects(t *testing.T, why string) {
	t.Helper()
	if os.Getenv(requireEffectsEnv) != "" {
		t.Fatalf("%s is set, but the effect test cannot run: %s", requireEffectsEnv, why)
	}
	t.Skipf("SKIPPED: the effect test cannot run: %s (.ci/setup installs bubblewrap and strace; set %s=1 to make this a failure)", why, requireEffectsEnv)
}

// newEffectSandbox finds the tools and proves the sandbox works here.
func newEffectSandbox(t *testing.T) *effectSandbox {
	t.Helper()
	sb := &effectSandbox{}
	for _, tool := range []struct {
		name string
		to   *string
	}{{"bwrap", &sb.bwrap}, {"strace", &sb.strace}, {"bash", &sb.bash}} {
		p, err := exec.LookPath(tool.name)
		if err != nil {
			needEffects(t, tool.name+" is not installed: "+err.Error())
		}
		*tool.to = p
	}
	if os.Geteuid() == 0 {
		p, err := exec.LookPath("setpriv")
		if err != nil {
			needEffects(t, "running as root, and setpriv (util-linux), which drops to nobody before bwrap, is not installed: "+err.Error())
		}
		sb.setpriv = p
	}
	var err error
	if sb.bash, err = filepath.EvalSymlinks(sb.bash); err != nil {
		needEffects(t, "bash: "+err.Error())
	}
	base, err := os.MkdirTemp("", "toolgate-effects-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	base, err = filepath.EvalSymlinks(base)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(base, 0o755)) // nobody must reach the directories bwrap binds
	sb.base = base
	// The sandbox works: strace can trace inside it, and the network has
	// only loopback.
	d := sb.makeDir(t, "probe", "")
	out, err := sb.run(context.Background(), d, "cat /proc/net/dev")
	if err != nil {
		needEffects(t, fmt.Sprintf("bubblewrap with strace inside fails here: %v: %s", err, out))
	}
	// /proc/net/dev: two lines of headings, then one line an interface.
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) < 3 {
		needEffects(t, "the sandbox shows no network interfaces: "+out)
	}
	for _, l := range lines[2:] {
		if name, _, ok := strings.Cut(strings.TrimSpace(l), ":"); !ok || name != "lo" {
			t.Fatalf("the sandbox has a network interface besides loopback (%q):\n%s", l, out)
		}
	}
	return sb
}

// makeDir makes an example's directory: a copy of the repository fixture
// (none when fixture is empty), HOME, the canaries, owned by the user the
// sandbox runs as.
func (sb *effectSandbox) makeDir(t *testing.T, name, fixture string) *effectDir {
	t.Helper()
	root := filepath.Join(sb.base, name)
	d := &effectDir{root: root, repo: filepath.Join(root, "repo"), home: filepath.Join(root, "home"), trace: filepath.Join(root, "trace", "strace.log")}
	require.NoError(t, os.MkdirAll(filepath.Join(d.home, ".ssh"), 0o700))
	require.NoError(t, os.MkdirAll(filepath.Dir(d.trace), 0o755))
	if fixture != "" {
		out, err := exec.Command("cp", "-a", fixture, d.repo).CombinedOutput()
		require.NoError(t, err, "copying the fixture: %s", out)
	} else {
		require.NoError(t, os.MkdirAll(d.repo, 0o755))
	}
	for _, c := range []string{filepath.Join(d.home, ".ssh", "id_ed25519"), filepath.Join(d.home, ".git-credentials"), filepath.Join(root, "canary-beside-repo.txt")} {
		require.NoError(t, os.WriteFile(c, []byte("CANARY "+c+"\n"), 0o600))
		d.canaries = append(d.canaries, c)
	}
	if sb.setpriv != "" {
		require.NoError(t, filepath.WalkDir(root, func(p string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Lchown(p, effectNobody, effectNobody)
		}))
	}
	return d
}

// run runs line with bash in d's repository, confined, under strace -f,
// and returns its output (the trace is at d.trace).
func (sb *effectSandbox) run(ctx context.Context, d *effectDir, line string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	var argv []string
	if sb.setpriv != "" {
		argv = append(argv, sb.setpriv, "--reuid", fmt.Sprint(effectNobody), "--regid", fmt.Sprint(effectNobody),
			"--clear-groups", "--inh-caps=-all", "--bounding-set=-all", "--")
	}
	argv = append(argv, sb.bwrap, "--ro-bind", "/usr", "/usr")
	for _, top := range []string{"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"} {
		if target, err := os.Readlink(top); err == nil {
			argv = append(argv, "--symlink", target, top)
		} else if st, err := os.Stat(top); err == nil && st.IsDir() {
			argv = append(argv, "--ro-bind", top, top)
		}
	}
	uid := fmt.Sprint(effectNobody)
	argv = append(argv, "--ro-bind", "/etc", "/etc", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
		"--bind", d.root, d.root,
		"--unshare-user", "--uid", uid, "--gid", uid, "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
		"--unshare-cgroup-try", "--die-with-parent", "--new-session", "--cap-drop", "ALL",
		"--chdir", d.repo, "--clearenv", "--setenv", "HOME", d.home, "--setenv", "PATH", effectPath,
		"--setenv", "LANG", "C", "--setenv", "USER", "nobody",
		"--", sb.strace, "-f", "-qq", "-y", "-s", "65535", "-e", "signal=none", "-e", "trace=%file,%process,connect",
		"-o", d.trace, "--", sb.bash, "-c", line)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = []string{"PATH=" + effectPath}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// recordingJudge is a PathJudge that records every path the guard asks
// about, and its Access, before asking next.
type recordingJudge struct {
	next PathJudge
	mu   sync.Mutex
	seen []judgedPath
}

func (r *recordingJudge) JudgePath(p string, a Access) permission.Result {
	r.mu.Lock()
	r.seen = append(r.seen, judgedPath{path: p, access: a})
	r.mu.Unlock()
	return r.next.JudgePath(p, a)
}

// judged returns the recorded paths cleaned, with links resolved where
// the path exists, as the trace names what the kernel opened.
func (r *recordingJudge) judged() []judgedPath {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]judgedPath, 0, len(r.seen))
	for _, j := range r.seen {
		p := filepath.Clean(j.path)
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		out = append(out, judgedPath{path: p, access: j.access})
	}
	return out
}

// effectRun runs line confined in d and checks the property, with the
// judge's paths judged; it returns the effects and the paths found absent.
func (sb *effectSandbox) effectRun(t *testing.T, d *effectDir, line string, id *programIdentity, judged []judgedPath, s *spec) ([]effect, []string, string) {
	t.Helper()
	out, err := sb.run(context.Background(), d, line)
	trace, rerr := os.ReadFile(d.trace)
	require.NoError(t, rerr, "%q left no trace (%v): %s", line, err, out)
	// The command's own exit status is not the property (a grep that
	// finds nothing exits 1); the sandbox's failing is seen as an empty
	// trace.
	calls := parseStrace(string(trace))
	require.NotEmpty(t, calls, "%q: an empty trace (%v): %s", line, err, out)
	ec := effectCase{
		repo: d.repo, workdir: d.repo, shell: sb.bash, itself: id.is,
		judged: judged, canaries: d.canaries,
		isDir: func(p string) bool { st, err := os.Lstat(p); return err == nil && st.IsDir() },
	}
	if s != nil {
		ec.scans, ec.lists = s.scans, s.operands == kProbe
		for _, st := range s.state {
			ec.state = append(ec.state, filepath.Join(d.home, st))
		}
	}
	if s != nil && len(s.helpers) > 0 {
		own := ec.itself
		ec.itself = func(p string) bool {
			dir := filepath.Dir(p)
			// The helper as a script's "#!/usr/bin/env" finds it: in
			// the standard directories of PATH.
			return own(p) || (dir == "/usr/bin" || dir == "/bin" || dir == "/usr/local/bin") && slices.Contains(s.helpers, filepath.Base(p))
		}
	}
	if w := wrappedProgram(s, line); w != "" {
		// A wrapper runs the command its operands start, looked up on
		// PATH, whose effects are held to the same property.
		own := ec.itself
		ec.itself = func(p string) bool {
			return own(p) || filepath.Base(p) == w && slices.Contains(filepath.SplitList(effectPath), filepath.Dir(p))
		}
	}
	effects, absent := checkEffects(calls, ec)
	return effects, absent, out
}

// bashBuiltin reports whether bash runs the command name itself, and has
// no program of that name on the sandbox's PATH.
func bashBuiltin(name string) bool {
	out, err := exec.Command("bash", "-c", "PATH="+effectPath+"; type -at "+name).Output()
	return err == nil && strings.TrimSpace(string(out)) == "builtin"
}

// wrappedProgram returns the program the wrapper s runs on the command
// line line (an example of plain words), as the guard reads it, or "".
func wrappedProgram(s *spec, line string) string {
	if s == nil || s.operands != kCommand {
		return ""
	}
	words := strings.Fields(line)
	v := argv{vals: words, flags: make([]wordFlags, len(words))}
	i := scanSpec(s, &v, 1, true, func(*scanned) {})
	if s.firstOperand == kWord {
		i++ // timeout's duration
	}
	for i < len(words) && (words[i] == "-" || isAssignWord(words[i])) {
		i++ // env's
	}
	if i >= len(words) {
		return ""
	}
	return words[i]
}

// keepTrace copies a failing run's trace where it survives the test, and
// says where.
func keepTrace(t *testing.T, d *effectDir, out string) {
	t.Helper()
	keep, err := os.MkdirTemp("", "toolgate-effects-failed-")
	if err != nil {
		t.Logf("cannot keep the trace: %v", err)
		return
	}
	data, _ := os.ReadFile(d.trace)
	_ = os.WriteFile(filepath.Join(keep, "strace.log"), data, 0o644)
	_ = os.WriteFile(filepath.Join(keep, "output.txt"), []byte(out), 0o644)
	t.Logf("the trace and output of this run are kept in %s", keep)
}

// programOf returns the program a spec's command line starts, resolved
// on the sandbox's PATH, and its identity.
func programOf(t *testing.T, cmd string) *programIdentity {
	t.Helper()
	id := installedProgram(t, cmd)
	if id == nil {
		needEffects(t, cmd+" is not installed on "+effectPath)
	}
	return id
}

// installedProgram returns the identity of the program cmd on the
// sandbox's PATH, or nil when it is not installed.
func installedProgram(t *testing.T, cmd string) *programIdentity {
	t.Helper()
	for _, dir := range filepath.SplitList(effectPath) {
		p := filepath.Join(dir, cmd)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			id, err := newProgramIdentity(p)
			require.NoError(t, err)
			return id
		}
	}
	return nil
}

// Every example a spec allows, run for real inside the sandbox, runs no
// program but itself, reads in the work tree only what the judge saw,
// writes nothing outside .git and touches no canary.
func TestSpecEffects(t *testing.T) {
	fixture, _ := specRepo(t)
	sb := newEffectSandbox(t)
	ids := map[string]*programIdentity{}
	var ran, bad atomic.Int64
	n := 0
	var missing []string
	t.Run("examples", func(t *testing.T) {
		for _, at := range allSpecs() {
			id, known := ids[at.cmd]
			if !known {
				id = specProgram(t, at.cmd)
				ids[at.cmd] = id
				if id == nil && slices.ContainsFunc(at.s.examples, func(e example) bool { return e.want == "allow" }) {
					missing = append(missing, at.cmd)
				}
			}
			for _, ex := range at.s.examples {
				if ex.want != "allow" || id == nil {
					continue
				}
				n++
				name, line := fmt.Sprintf("ex%03d", n), ex.line
				t.Run(line, func(t *testing.T) {
					t.Parallel()
					bad.Add(int64(sb.exampleEffects(t, name, fixture, at.s, line, id)))
					ran.Add(1) // not reached when the example is not allowed here
				})
			}
		}
	})
	reportMissingTools(t, missing)
	t.Logf("effects: %d allowed examples run confined, %d unexpected effects", ran.Load(), bad.Load())
	assert.Equal(t, int64(n), ran.Load(), "every allowed example ran")
	assert.Greater(t, n, 20, "allowed examples in the specs")
}

// specProgram returns the identity of the program that runs cmd in the
// sandbox (bash for its builtins: command, builtin, exec), or nil.
func specProgram(t *testing.T, cmd string) *programIdentity {
	id := installedProgram(t, cmd)
	if id == nil && bashBuiltin(cmd) {
		id = installedProgram(t, "bash")
	}
	return id
}

// exampleEffects runs the allowed example line of s in a new copy of the
// fixture, confined, reports each unexpected effect as an error and
// returns how many there were.
func (sb *effectSandbox) exampleEffects(t *testing.T, name, fixture string, s *spec, line string, id *programIdentity) int {
	d := sb.makeDir(t, name, fixture)
	rec := &recordingJudge{next: CheckerJudge(rootChecker{dir: d.repo, roots: []string{d.repo}})}
	pol := DefaultPolicy()
	pol.Home = d.home // the home the example runs with: git config prints its config
	v := New(pol).Judge(context.Background(), d.repo, rec, line)
	require.Equal(t, permission.Allow, v.Decision,
		"%s: %q is an allowed example, but in a copy of the repository it is %s (%s)", s.name, line, v.Decision, v.Reason)
	effects, absent, out := sb.effectRun(t, d, line, id, rec.judged(), s)
	if len(absent) > 0 {
		// Not effects, but what a richer repository would show (a
		// .gitattributes, a .mailmap).
		t.Logf("%q tried to read, and found absent: %s", line, strings.Join(relAll(d.repo, absent), " "))
	}
	for _, e := range effects {
		t.Errorf("%s: %q is allowed (%s), but run confined it %s", s.name, line, v.Reason, e)
	}
	if len(effects) > 0 {
		t.Logf("the judge saw: %v", rec.judged())
		keepTrace(t, d, out)
	}
	return len(effects)
}

// reportMissingTools says which spec'd tools with allowed examples did
// not run: loudly those installed only where the sandbox cannot reach
// (rustup's in root's home, which nobody cannot read); those not
// installed at all fail where CI requires the effect test.
func reportMissingTools(t *testing.T, missing []string) {
	var absentAll, unreachable []string
	for _, m := range missing {
		if p, err := exec.LookPath(m); err == nil {
			unreachable = append(unreachable, m+" ("+p+")")
		} else {
			absentAll = append(absentAll, m)
		}
	}
	if len(unreachable) > 0 {
		t.Log("SKIPPED PART: installed outside what the sandbox binds (it runs as nobody, beneath /usr only), so their allowed examples did not run: " + strings.Join(unreachable, ", "))
	}
	if len(absentAll) > 0 {
		msg := "not installed on " + effectPath + ", so their allowed examples did not run: " + strings.Join(absentAll, ", ")
		if os.Getenv(requireEffectsEnv) != "" {
			t.Error(msg)
		} else {
			t.Log("SKIPPED PART: " + msg)
		}
	}
}

// relAll returns paths relative to base, each once, in order.
func relAll(base string, paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		if r, err := filepath.Rel(base, p); err == nil {
			p = r
		}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// The checker catches what it is there to catch, on real runs of lines
// the guard would refuse, run the same way but not through the guard: an
// alias that runs sh and reads the canary beside the repository, a log
// written into the work tree, a file read that no judge saw.
func TestSpecEffectsNegativeControl(t *testing.T) {
	fixture, _ := specRepo(t)
	sb := newEffectSandbox(t)
	id := programOf(t, "git")
	for i, tc := range []struct {
		line string
		want []string // a part of each effect that must be reported
	}{
		{`git -c alias.x='!cat ../canary-beside-repo.txt' x`, []string{"runs /bin/sh", "touches the canary"}},
		{`git log --output=out.txt`, []string{"writes " + "REPO/out.txt"}},
		{`git diff --no-index a.txt src/main.go`, []string{"reads a.txt, which the judge did not see", "reads src/main.go, which the judge did not see"}},
		// And no false alarm: without a terminal git starts no pager,
		// whatever -p and core.pager say, so nothing ran but git.
		{`git -c core.pager='cat ~/.ssh/id_ed25519' -p log`, nil},
	} {
		t.Run(tc.line, func(t *testing.T) {
			d := sb.makeDir(t, fmt.Sprintf("neg%d", i), fixture)
			effects, _, out := sb.effectRun(t, d, tc.line, id, nil, nil)
			var got []string
			for _, e := range effects {
				got = append(got, e.String())
			}
			all := strings.Join(got, "\n")
			for _, w := range tc.want {
				w = strings.ReplaceAll(w, "REPO", d.repo)
				assert.Contains(t, all, w, "%q: the checker must report it; it reported:\n%s\noutput: %s", tc.line, all, out)
			}
			if tc.want == nil {
				assert.Empty(t, got, "%q: output: %s", tc.line, out)
			}
			t.Logf("%q: %d effects reported", tc.line, len(effects))
		})
	}
}
