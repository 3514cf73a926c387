package bashguard

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testCase is one line of testdata/cases.jsonl.
type testCase struct {
	Script   string `json:"script"`
	Opts     string `json:"opts,omitempty"` // "net", "nochk", "nohome"
	Decision string `json:"decision"`
	Rule     string `json:"rule"`
	Reason   string `json:"reason"` // a substring of the verdict's reason
}

const (
	testHome = "/home/user"
	testWork = "/work/project"
)

// casePolicy is the policy the cases are written against: the project in
// /work/project and a scratch directory are the roots; home is outside.
func casePolicy(opts string) Policy {
	p := DefaultPolicy()
	p.Home, p.WorkDir = testHome, testWork
	p.Paths = rootChecker{dir: testWork, roots: []string{testWork, "/tmp/scratch"}}
	for _, o := range strings.Fields(opts) {
		switch o {
		case "net":
			p.AllowNetwork = true
		case "nochk":
			p.Paths = nil
		case "nohome":
			p.Home = ""
		}
	}
	return p
}

func loadCases(t testing.TB) []testCase {
	f, err := os.Open("testdata/cases.jsonl")
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
	guards := map[string]*Guard{}
	for _, c := range cases {
		g := guards[c.Opts]
		if g == nil {
			g = New(casePolicy(c.Opts))
			guards[c.Opts] = g
		}
		v := g.Judge(context.Background(), c.Script)
		assert.Equal(t, c.Decision, v.Decision.String(), "decision for %q (%s)", c.Script, v.Reason)
		assert.Equal(t, c.Rule, v.Rule, "rule for %q (%s)", c.Script, v.Reason)
		assert.Contains(t, v.Reason, c.Reason, "reason for %q", c.Script)
		assert.NotEmpty(t, c.Reason, "case %q must name a reason", c.Script)
	}
}
