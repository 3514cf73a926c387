package approval_test

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/runtime/approval"
)

func TestTerminalAsker(t *testing.T) {
	req := approval.Request{Session: "s1", Tool: "Bash", Input: []byte(`{"command":"make build"}`),
		Reason: "make is not a known command", Explanation: "ask Bash: make is not a known command by L5 shell\n",
		AlwaysRules: []string{"Bash(make build)"}}
	for _, tc := range []struct {
		in   string
		want approval.Answer
		note string
	}{
		{"o\n", approval.Answer{Choice: approval.AllowOnce}, "o allows once"},
		{"what\nalways\n", approval.Answer{Choice: approval.AllowAlways}, "an unknown word asks again"},
		{"d not on Fridays\n", approval.Answer{Reason: "not on Fridays"}, "d denies with the reason"},
		{"", approval.Answer{Reason: "the terminal closed without an answer"}, "the end of input denies"},
	} {
		var out strings.Builder
		a := approval.NewTerminalAsker(strings.NewReader(tc.in), &out)
		got, err := a.Ask(t.Context(), req)
		require.NoError(t, err, tc.note)
		assert.Equal(t, tc.want, got, tc.note)
		assert.Contains(t, out.String(), "s1 wants to run Bash {\"command\":\"make build\"}", tc.note)
		assert.Contains(t, out.String(), "| ask Bash: make is not a known command by L5 shell", tc.note)
		assert.Contains(t, out.String(), "always would add: Bash(make build)", tc.note)
	}

	// No rules to add: "a" is not offered and asks again.
	var out strings.Builder
	a := approval.NewTerminalAsker(strings.NewReader("a\nd\n"), &out)
	got, err := a.Ask(t.Context(), approval.Request{Tool: "Write", Reason: "writes outside"})
	require.NoError(t, err)
	assert.Equal(t, approval.Answer{}, got)
	assert.NotContains(t, out.String(), "[a] allow always")

	// A question gives up when its context ends, whatever the terminal does.
	r, w := io.Pipe()
	defer w.Close()
	a = approval.NewTerminalAsker(r, &out)
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Millisecond)
	defer cancel()
	ans := approval.AskWithTimeout(ctx, a, req, time.Minute)
	assert.Equal(t, approval.Deny, ans.Choice)
	assert.Contains(t, ans.Reason, "context deadline exceeded")
	w.Close()
}
