package runtime_test

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

var updateShellHosts = flag.Bool("update-shell-hosts", false, "rewrite testdata/shell_hosts.jsonl with the pipeline's answers (review the diff)")

// shellHostCase is one line of testdata/shell_hosts.jsonl: a Bash command
// judged with WebFetch domain rules ("domains") or without ("none"), and
// the verdict wanted.
type shellHostCase struct {
	Rules    string `json:"rules"`
	Command  string `json:"command"`
	Decision string `json:"decision"`
	Layer    string `json:"layer"`
	Rule     string `json:"rule"`
	Reason   string `json:"reason"` // a substring of the verdict's reason
}

// TestShellHostsAreJudgedByDomainRules runs testdata/shell_hosts.jsonl
// through a Pipeline whose shell policy allows the network and whose
// rules allow curl, git clone and ssh: the hosts those commands reach are
// held against the WebFetch domain rules when there are any.
func TestShellHostsAreJudgedByDomainRules(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	ws, home := filepath.Join(base, "ws"), filepath.Join(base, "home")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(home, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".git", "config"),
		[]byte("[remote \"origin\"]\n\turl = https://good.example/o/r.git\n[remote \"fork\"]\n\turl = git@evil.example:o/r.git\n"), 0o644))
	pol := bashguard.DefaultPolicy()
	pol.AllowNetwork = true
	allow := []string{"Bash(curl:*)", "Bash(git clone:*)", "Bash(git fetch:*)", "Bash(ssh:*)", "Bash(pip install:*)"}
	pipes := map[string]*runtime.Pipeline{}
	for name, cfg := range map[string]permission.Config{
		"domains": {Allow: append([]string{"WebFetch(domain:good.example)", "WebFetch(domain:*.docs.example)"}, allow...),
			Deny: []string{"WebFetch(domain:evil.example)"}, Default: permission.Ask},
		"none": {Allow: allow, Default: permission.Ask},
	} {
		p, err := runtime.Open(runtime.Workspace{Dir: ws, Home: home, Rules: cfg, Shell: &pol})
		require.NoError(t, err)
		pipes[name] = p
	}
	ctx := context.Background()
	back := strings.NewReplacer(ws, "$WS", home, "$HOME")

	f, err := os.Open("testdata/shell_hosts.jsonl")
	require.NoError(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	var out []byte
	n := 0
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c shellHostCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), sc.Text())
		p := pipes[c.Rules]
		require.NotNil(t, p, "rules %q", c.Rules)
		n++
		id := "h" + strconv.Itoa(n)
		s, err := p.Session(ctx, runtime.SessionOptions{ID: id})
		require.NoError(t, err)
		input, err := json.Marshal(map[string]string{"command": c.Command})
		require.NoError(t, err)
		v := p.Check(ctx, runtime.Call{Session: id, ID: id, Tool: "Bash", Input: input})
		s.End("done", "", nil)
		reason := back.Replace(v.Reason)
		if *updateShellHosts {
			c.Decision, c.Layer, c.Rule, c.Reason = v.Decision.String(), v.Layer.String(), back.Replace(string(v.Rule)), reason
			b, err := json.Marshal(c)
			require.NoError(t, err)
			out = append(append(out, b...), '\n')
			continue
		}
		require.NotEmpty(t, c.Reason, "case %s %s must name a reason", c.Rules, c.Command)
		what := c.Rules + ": " + c.Command
		assert.Equal(t, c.Decision, v.Decision.String(), "decision for %s (%s)", what, reason)
		assert.Equal(t, c.Layer, v.Layer.String(), "layer for %s (%s)", what, reason)
		assert.Equal(t, c.Rule, back.Replace(string(v.Rule)), "rule for %s (%s)", what, reason)
		assert.Contains(t, reason, c.Reason, "reason for %s", what)
	}
	require.NoError(t, sc.Err())
	require.GreaterOrEqual(t, n, 15)
	if *updateShellHosts {
		require.NoError(t, os.WriteFile("testdata/shell_hosts.jsonl", out, 0o644))
	}
}
