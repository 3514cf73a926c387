package bashguard

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

var updatePeers = flag.Bool("update-peers", false, "rewrite testdata/peers_*.jsonl with the guard's answers (review the diff)")

// peerSafeFloor is the share of the cases a peer's suite calls safe that
// the guard must allow, judged as toolgate check judges them: under
// Policy.Confined, since it runs what it allows confined. None of those
// a peer calls unsafe may be allowed, either way.
const peerSafeFloor = 0.90

// peerFloorOpen is the same share for a host that runs what is allowed
// unconfined: Gemini CLI allows unquoted substitutions of allowed
// commands (echo $(git log)), whose output bash splits and globs, so that
// a glob in it (a commit message of /home/*/.ssh/*) lists directories
// outside the roots; unconfined, the guard takes only quoted output as
// data. It only rises, to peerSafeFloor.
var peerFloorOpen = map[string]float64{"codex": peerSafeFloor, "gemini": 0.60}

// peerCase is one line of testdata/peers_*.jsonl: a case of another
// agent's command-safety tests (Codex's command_safety and legacy
// execpolicy tests; Gemini CLI's shell permission, policy engine and
// sandbox tests; testdata/PEERS.md lists the files and their licences),
// translated into this guard's terms.
//
// The peers' placeholder for a program their configuration lets run
// ("goodCommand") is translated as a Policy.ExtraSafe entry; programs
// their lists name that are on the safe list here already need nothing.
// A case whose peer verdict rests on something the guard does not judge
// (a wildcard allow of every command, a list of exact commands that an
// allow rule of the host expresses here, another platform, a peer
// parser's limit) says so in NotApplicable: it keeps its decision here
// but does not count in the rates.
type peerCase struct {
	Script string `json:"script"`
	// Peer is the peer's verdict: "safe" (runs without asking) or
	// "unsafe" (asked or refused).
	Peer string `json:"peer"`
	// Source names the peer's test.
	Source        string   `json:"source"`
	ExtraSafe     []string `json:"extra_safe,omitempty"`
	NotApplicable string   `json:"not_applicable,omitempty"`
	Decision      string   `json:"decision"`
	Rule          string   `json:"rule"`
	Reason        string   `json:"reason"` // a substring of the verdict's reason
	// Confined is the verdict under Policy.Confined where it differs.
	Confined *caseWant `json:"confined,omitempty"`
}

// peerRepo is benignRepo with the files the peers' cases name.
func peerRepo(t *testing.T) string {
	dir := benignRepo(t)
	for name, body := range map[string]string{
		"Cargo.toml": "[package]\nname = \"p\"\n", "file.txt": "one\ntwo\n", "files": "x\n",
		"foo": "foo\n", "bar": "bar\n", "baz": "baz\n", "hello.txt": "y\ny\n", "src/extension.ts": "export {}\n",
	} {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return dir
}

// TestPeerSuites judges the peers' command-safety cases: each keeps its
// recorded decision and reason; of the applicable cases a peer calls
// safe at least peerSafeFloor are allowed, and of those it calls unsafe
// none is.
func TestPeerSuites(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("SKIP: the peer tables need git for their repository: " + err.Error())
	}
	dir := peerRepo(t)
	home := t.TempDir()
	paths := CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})
	for _, peer := range []string{"codex", "gemini"} {
		t.Run(peer, func(t *testing.T) {
			file := "testdata/peers_" + peer + ".jsonl"
			cases := loadPeerCases(t, file)
			require.NotEmpty(t, cases)
			tl := peerTally{peer: peer, dir: dir, home: home, paths: paths,
				safeAllowed: map[bool]int{}, unsafeAllowed: map[bool]int{}}
			var out []byte
			for _, c := range cases {
				got := tl.judge(t, c)
				if *updatePeers {
					out = append(out, recordPeerCase(t, c, got, tl.show)...)
				}
			}
			if *updatePeers {
				require.NoError(t, os.WriteFile(file, out, 0o644))
			}
			tl.rates(t)
		})
	}
}

// peerTally judges one peer's cases and counts them: the applicable
// cases it calls safe and unsafe, and of each how many are allowed,
// confined and not.
type peerTally struct {
	peer, dir, home            string
	paths                      PathJudge
	safe, unsafe, skipped      int
	safeAllowed, unsafeAllowed map[bool]int
}

// show writes a reason with the test's directories as $WORK and $HOME.
func (tl *peerTally) show(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, tl.dir, "$WORK"), tl.home, "$HOME")
}

// judge judges c unconfined and confined, counts it, and (unless the
// cases are being rewritten) asserts its recorded decision, rule and
// reason; it returns the two verdicts.
func (tl *peerTally) judge(t *testing.T, c peerCase) [2]Verdict {
	require.Contains(t, []string{"safe", "unsafe"}, c.Peer, "peer verdict of %q", c.Script)
	require.NotEmpty(t, c.Source, "source of %q", c.Script)
	switch {
	case c.NotApplicable != "":
		tl.skipped++
	case c.Peer == "safe":
		tl.safe++
	default:
		tl.unsafe++
	}
	var got [2]Verdict
	for k, confined := range confinedToo {
		pol := DefaultPolicy()
		pol.Home = tl.home
		pol.ExtraSafe = c.ExtraSafe
		pol.Confined = confined
		v := New(pol).Judge(context.Background(), tl.dir, tl.paths, c.Script)
		got[k] = v
		if v.Decision != permission.Allow {
			assert.NotEmpty(t, strings.TrimSpace(v.Reason), "%q is %s without a reason", c.Script, v.Decision)
		}
		tl.count(t, c, v, confined)
		if *updatePeers {
			continue
		}
		w := caseWant{c.Decision, c.Rule, c.Reason}
		if confined && c.Confined != nil {
			w = *c.Confined
		}
		assert.Equal(t, w.Decision, v.Decision.String(), "decision for %q, confined %v (%s)", c.Script, confined, v.Reason)
		assert.Equal(t, w.Rule, string(v.Rule), "rule for %q, confined %v", c.Script, confined)
		assert.Contains(t, tl.show(v.Reason), w.Reason, "reason for %q, confined %v", c.Script, confined)
	}
	return got
}

// count counts the verdict v of an applicable case c against the peer's
// own: an unsafe case allowed is an error.
func (tl *peerTally) count(t *testing.T, c peerCase, v Verdict, confined bool) {
	switch {
	case c.NotApplicable != "":
	case c.Peer == "safe":
		if v.Decision == permission.Allow {
			tl.safeAllowed[confined]++
		} else {
			t.Logf("asked where %s allows (confined %v): %q (%s)", tl.peer, confined, c.Script, v.Reason)
		}
	case v.Decision == permission.Allow:
		tl.unsafeAllowed[confined]++
		t.Errorf("allowed where %s does not (confined %v): %q (%s)", tl.peer, confined, c.Script, c.Source)
	}
}

// rates asserts the shares: of the safe cases at least the floor are
// allowed, of the unsafe ones none.
func (tl *peerTally) rates(t *testing.T) {
	require.Positive(t, tl.safe, "%s has safe cases", tl.peer)
	require.Positive(t, tl.unsafe, "%s has unsafe cases", tl.peer)
	for _, confined := range confinedToo {
		rate := float64(tl.safeAllowed[confined]) / float64(tl.safe)
		t.Logf("%s, confined %v: safe cases allowed %d of %d (%.1f%%); unsafe cases allowed %d of %d; %d not applicable",
			tl.peer, confined, tl.safeAllowed[confined], tl.safe, 100*rate, tl.unsafeAllowed[confined], tl.unsafe, tl.skipped)
		floor := peerSafeFloor
		if !confined {
			floor = peerFloorOpen[tl.peer]
		}
		assert.GreaterOrEqual(t, rate, floor, "%s: the share of its safe cases allowed is below the floor (confined %v)", tl.peer, confined)
		assert.Zero(t, tl.unsafeAllowed[confined], "%s: a case it calls unsafe is allowed (confined %v)", tl.peer, confined)
	}
}

// recordPeerCase is c's line of the rewritten cases, with the verdicts
// got as its recorded ones.
func recordPeerCase(t *testing.T, c peerCase, got [2]Verdict, show func(string) string) []byte {
	tc := testCase{}
	tc.record(got[0], got[1], show)
	c.Decision, c.Rule, c.Reason, c.Confined = tc.Decision, tc.Rule, tc.Reason, tc.Confined
	b, err := json.Marshal(c)
	require.NoError(t, err)
	return append(b, '\n')
}

func loadPeerCases(t *testing.T, file string) []peerCase {
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var cases []peerCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c peerCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "%s line %d", file, n)
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}
