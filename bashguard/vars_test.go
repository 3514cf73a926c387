package bashguard

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// varCase is one line of testdata/vars.jsonl: in script, the command
// judged with exactly args has the decision and a reason holding reason.
// The args show what the guard took a variable to hold: its value, or
// the word as written when it is unknown or data.
type varCase struct {
	Script   string   `json:"script"`
	Args     []string `json:"args"`
	Decision string   `json:"decision"`
	Reason   string   `json:"reason"`
}

// TestAssignedVariables checks, command by command, what the guard takes
// the variables a script assigns itself to hold, in the order the script
// runs.
func TestAssignedVariables(t *testing.T) {
	data, err := os.ReadFile("testdata/vars.jsonl")
	require.NoError(t, err)
	pol, paths := casePolicy("")
	g := New(pol)
	n := 0
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var c varCase
		require.NoError(t, json.Unmarshal([]byte(line), &c), line)
		n++
		v := g.Judge(context.Background(), testWork, paths, c.Script)
		k := slices.IndexFunc(v.Commands, func(cmd Command) bool { return slices.Equal(cmd.Args, c.Args) })
		var judged [][]string
		for _, cmd := range v.Commands {
			judged = append(judged, cmd.Args)
		}
		if !assert.GreaterOrEqual(t, k, 0, "script %q: no command judged as %q (judged: %q)", c.Script, c.Args, judged) {
			continue
		}
		cmd := v.Commands[k]
		assert.Equal(t, c.Decision, cmd.Decision.String(), "decision of %q in %q (%s)", c.Args, c.Script, cmd.Reason)
		assert.Contains(t, cmd.Reason, c.Reason, "reason of %q in %q", c.Args, c.Script)
	}
	require.GreaterOrEqual(t, n, 30, "the table of assigned variables")
}
