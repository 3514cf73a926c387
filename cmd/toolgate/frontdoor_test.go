package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
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
	decision, reason, err := judgeOpen(managed, stdin, env)
	require.NoError(t, err)
	return decision, reason
}

// judgeOpen is openVerdict's work, with an error where the test itself
// cannot go on; it also runs in a child process (see openVerdictMain).
func judgeOpen(managed, stdin string, env []string) (decision, reason string, err error) {
	vars := map[string]string{}
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		vars[k] = v
	}
	getenv := func(k string) string { return vars[k] }
	ev, err := parseEvent([]byte(stdin))
	if err != nil {
		return "", "", err
	}
	src := eventSource(ev, getenv, managed, nil)
	pol, err := loadPolicy(src)
	if err != nil {
		return "deny", err.Error(), nil
	}
	mode, _ := modeOf(ev.PermissionMode, pol.cfg)
	reg, err := registryFor(ev.ToolName)
	if err != nil {
		return "", "", err
	}
	sc := pol.sandboxConfig()
	pl, err := runtime.Open(runtime.Workspace{Dir: src.projectDir(), Cwd: ev.Cwd, Home: src.home, Rules: pol.cfg, Tools: reg,
		Protected: sc.Protected, Secret: sc.Secret})
	if err != nil {
		return "deny", err.Error(), nil
	}
	ctx := context.Background()
	sess, err := pl.Session(ctx, runtime.SessionOptions{ID: ev.SessionID, Mode: &mode, Cwd: ev.Cwd})
	if err != nil {
		return "", "", err
	}
	defer sess.End("done", "", nil)
	v := pl.Check(ctx, runtime.Call{Session: ev.SessionID, ID: ev.ToolUseID, Tool: ev.ToolName, Input: ev.ToolInput})
	if why := fsDisagrees(pl, ev.ToolName, ev.ToolInput, v); why != "" {
		return "", "", errors.New("the pipeline's FS disagrees with its decision: " + why)
	}
	// The settings' warnings, which the check adds to its reason.
	if w := warningsNote(pol.warnings); w != "" {
		v.Reason += " (" + w + ")"
	}
	return v.Decision.String(), v.Reason, nil
}

// openVerdictEnv, set to the managed settings' path, makes the test
// binary judge the event on its stdin through runtime.Open and print
// {"decision", "reason"}, with its own environment as the check's: the
// library's front door in a process of its own, which a test starts where
// it cannot judge itself (in a private mount namespace).
const openVerdictEnv = "TOOLGATE_TEST_OPEN_VERDICT"

// openVerdictMain is the test binary's work when openVerdictEnv is set.
func openVerdictMain(managed string) int {
	stdin, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var env []string
	for _, e := range os.Environ() {
		if !strings.HasPrefix(e, openVerdictEnv+"=") {
			env = append(env, e)
		}
	}
	d, why, err := judgeOpen(managed, string(stdin), env)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	out, _ := json.Marshal(map[string]string{"decision": d, "reason": why})
	os.Stdout.Write(out)
	return 0
}
