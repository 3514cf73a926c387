package bashguard

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// testCase is one line of testdata/cases.jsonl.
type testCase struct {
	Script   string `json:"script"`
	Opts     string `json:"opts,omitempty"` // "net", "loopback", "nochk", "nohome"
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
	Reason   string `json:"reason"` // a substring of the verdict's reason
	// Files, when set, are made in a fresh workspace that is the working
	// directory and the only root (a name ending in "/" is a directory),
	// for cases about what globs and git find there.
	Files []string `json:"files,omitempty"`
	// Home, when set, are files made in a fresh directory that is the
	// policy's Home, by name and content (the user's git config).
	Home map[string]string `json:"home,omitempty"`
	// CDPath, when set, is the policy's CDPath; "$W" in it stands for
	// the workspace of Files.
	CDPath string `json:"cdpath,omitempty"`
	// Confined, when set, is the verdict under Policy.Confined where it
	// differs from the one above; every case is judged both ways.
	Confined *caseWant `json:"confined,omitempty"`
	// Comment says why a row expects what it does, where the script
	// alone does not show it (a row of the benign table that is asked
	// on purpose).
	Comment string `json:"comment,omitempty"`
}

// caseWant is an expected verdict: its decision, rule and a substring of
// its reason.
type caseWant struct {
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
	Reason   string `json:"reason"`
}

// want is the verdict c expects with the run confined or not.
func (c testCase) want(confined bool) caseWant {
	if confined && c.Confined != nil {
		return *c.Confined
	}
	return caseWant{c.Decision, c.Rule, c.Reason}
}

// record sets c's expectations to the verdicts judged unconfined (open)
// and confined, with reason as the reason the table keeps; the confined
// one only where it differs.
func (c *testCase) record(open, confined Verdict, reason func(string) string) {
	c.Decision, c.Rule, c.Reason = open.Decision.String(), string(open.Rule), reason(open.Reason)
	c.Confined = nil
	if confined.Decision != open.Decision || confined.Rule != open.Rule || confined.Reason != open.Reason {
		c.Confined = &caseWant{confined.Decision.String(), string(confined.Rule), reason(confined.Reason)}
	}
}

// confinedToo is the two ways every table case is judged: as a host that
// runs what is allowed unconfined, and under Policy.Confined.
var confinedToo = []bool{false, true}

// workspace makes the files of c in a fresh directory and returns it with
// a path judge whose only root it is.
func workspace(t *testing.T, c testCase) (string, PathJudge) {
	dir := t.TempDir()
	for _, f := range c.Files {
		p := filepath.Join(dir, f)
		if strings.HasSuffix(f, "/") {
			require.NoError(t, os.MkdirAll(p, 0o755))
			continue
		}
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("x\n"), 0o644))
	}
	return dir, CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})
}

// homeFiles makes the files of a case's Home in a fresh directory and
// returns it.
func homeFiles(t *testing.T, files map[string]string) string {
	home := t.TempDir()
	for name, body := range files {
		p := filepath.Join(home, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	return home
}

const (
	testHome = "/home/user"
	testWork = "/work/project"
)

// casePolicy is the policy the cases are written against, with the path
// judge they are judged with in testWork: the project in /work/project
// and a scratch directory are the roots; home is outside.
func casePolicy(opts string) (Policy, PathJudge) {
	p := DefaultPolicy()
	p.Home = testHome
	p.LookupHome = func(name string) (string, error) {
		if name == "root" {
			return "/root", nil
		}
		return "", errors.New("unknown user " + name)
	}
	var paths PathJudge = caseJudge{CheckerJudge(rootChecker{dir: testWork, roots: []string{testWork, "/tmp/scratch"}})}
	for _, o := range strings.Fields(opts) {
		switch o {
		case "net":
			p.AllowNetwork = true
		case "loopback":
			// toolgate's "network": "loopback": network commands asked,
			// and a confined command's own loopback only.
			p.AllowNetwork, p.Loopback = true, true
		case "nochk":
			paths = nil
		case "nohome":
			p.Home = ""
		}
	}
	return p, paths
}

// caseJudge adds to a sandbox judge the path rules the cases are written
// against, as a host's path pipeline does: a Read deny rule for
// private.txt, an Edit deny rule for locked.txt, a Read ask rule for
// ask.txt and a Read allow rule for /opt/shared.
type caseJudge struct{ sandbox PathJudge }

func (j caseJudge) JudgePath(p string, access Access) permission.Result {
	rule := func(d permission.Decision, rule permission.RuleID) permission.Result {
		return permission.Result{Decision: d, Layer: permission.LayerRules, Rule: rule,
			Reason: d.String() + " by rule " + string(rule)}
	}
	p = filepath.Clean(p)
	switch {
	case access == Read && p == testWork+"/private.txt":
		return rule(permission.Deny, "Read(./private.txt)")
	case access == Write && p == testWork+"/locked.txt":
		return rule(permission.Deny, "Edit(./locked.txt)")
	case access == Read && p == testWork+"/ask.txt":
		return rule(permission.Ask, "Read(./ask.txt)")
	case access == Read && strings.HasPrefix(p, "/opt/shared/"):
		return rule(permission.Allow, "Read(//opt/shared/**)")
	}
	return j.sandbox.JudgePath(p, access)
}

func loadCases(t testing.TB) []testCase {
	return loadCaseFile(t, "testdata/cases.jsonl")
}

// loadCaseFile reads a table of testCase lines.
func loadCaseFile(t testing.TB, file string) []testCase {
	f, err := os.Open(file)
	require.NoError(t, err)
	defer f.Close()
	var cases []testCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c testCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), "line %d", n)
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}

// TestCases runs every case in testdata/cases.jsonl and checks the
// decision, the rule and the reason of the verdict.
func TestCases(t *testing.T) {
	cases := loadCases(t)
	require.GreaterOrEqual(t, len(cases), 300)
	type key struct {
		opts     string
		confined bool
	}
	guards := map[key]*Guard{}
	for _, c := range cases {
		for _, confined := range confinedToo {
			k := key{c.Opts, confined}
			g := guards[k]
			pol, paths := casePolicy(c.Opts)
			pol.Confined = confined
			if g == nil {
				g = New(pol)
				guards[k] = g
			}
			dir := testWork
			if len(c.Files) > 0 {
				dir, paths = workspace(t, c)
			}
			if c.CDPath != "" {
				pol.CDPath = strings.ReplaceAll(c.CDPath, "$W", dir)
				g = New(pol)
			}
			if len(c.Home) > 0 {
				pol.Home = homeFiles(t, c.Home)
				g = New(pol)
			}
			v := g.Judge(context.Background(), dir, paths, c.Script)
			w := c.want(confined)
			assert.Equal(t, w.Decision, v.Decision.String(), "decision for %q, confined %v (%s)", c.Script, confined, v.Reason)
			assert.Equal(t, w.Rule, string(v.Rule), "rule for %q, confined %v (%s)", c.Script, confined, v.Reason)
			assert.Contains(t, v.Reason, w.Reason, "reason for %q, confined %v", c.Script, confined)
			assert.NotEmpty(t, w.Reason, "case %q must name a reason", c.Script)
		}
	}
}
