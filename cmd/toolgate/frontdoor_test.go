package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/runtime"
)

// openVerdict judges the event on stdin through the library's front door,
// runtime.Open, with the settings toolgate check reads for it (env are
// the variables of the check's process): the decision and reason that
// the library alone gives. Every file-tool case compares it with the
// check's answer, so that the two front doors cannot drift apart.
func openVerdict(t *testing.T, managed, stdin string, env []string) (decision, reason string) {
	t.Helper()
	vars := map[string]string{}
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		vars[k] = v
	}
	getenv := func(k string) string { return vars[k] }
	ev, err := parseEvent([]byte(stdin))
	require.NoError(t, err)
	src := eventSource(ev, getenv, managed, nil)
	pol, err := loadPolicy(src)
	if err != nil {
		return "deny", err.Error()
	}
	mode, _ := modeOf(ev.PermissionMode, pol.cfg)
	reg, err := registryFor(ev.ToolName)
	require.NoError(t, err)
	sc := pol.sandboxConfig()
	pl, err := runtime.Open(runtime.Workspace{Dir: src.projectDir(), Cwd: ev.Cwd, Home: src.home, Rules: pol.cfg, Tools: reg,
		Protected: sc.Protected, Secret: sc.Secret})
	if err != nil {
		return "deny", err.Error()
	}
	ctx := context.Background()
	sess, err := pl.Session(ctx, runtime.SessionOptions{ID: ev.SessionID, Mode: &mode, Cwd: ev.Cwd})
	require.NoError(t, err)
	defer sess.End("done", "", nil)
	v := pl.Check(ctx, runtime.Call{Session: ev.SessionID, ID: ev.ToolUseID, Tool: ev.ToolName, Input: ev.ToolInput})
	// The settings' warnings, which the check adds to its reason.
	if w := warningsNote(pol.warnings); w != "" {
		v.Reason += " (" + w + ")"
	}
	return v.Decision.String(), v.Reason
}
