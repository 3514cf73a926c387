package subagent_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/hooks/hookstest"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/subagent"
)

// explorerModel reads the README, tries to build (which would ask, so it
// is denied), and answers.
func explorerModel(ctx context.Context, turn subagent.Turn) ([]runtime.Call, string, error) {
	switch turn.Step {
	case 1:
		return []runtime.Call{
			{ID: "e1", Tool: "Read", Input: in("file_path", "README.md")},
			{ID: "e2", Tool: "Bash", Input: in("command", "make build")},
		}, "", nil
	}
	return nil, fmt.Sprintf("README says %q; building was denied", turn.Results[0].Output), nil
}

// parentWithRunner runs one Task call in session lead through the
// pipeline's executor, with a Runner behind the Task tool.
func parentWithRunner(t *testing.T, w *world, specs ...subagent.Spec) runtime.Result {
	t.Helper()
	runner := &subagent.Runner{Pipeline: w.p, Specs: specs, Model: explorerModel}
	runner.Run = func(ctx context.Context, call runtime.Call) (string, error) {
		switch call.Tool {
		case "Task":
			return runner.RunCall(ctx, call)
		case "Read":
			return "# hi\n", nil
		}
		return "", fmt.Errorf("no tool %s here", call.Tool)
	}
	sess := w.start(t, "lead", permission.ModeDefault)
	w.step(t, "lead")
	task, _ := json.Marshal(subagent.Input{Type: "explorer", Prompt: "find the README"})
	res := w.p.Executor(runner.Run).Execute(sess.Context(), []runtime.Call{{Session: "lead", ID: "t1", Tool: "Task", Input: task}})
	require.Len(t, res, 1)
	return res[0]
}

// TestHooksSeeTheChild: SubagentStart and SubagentStop fire on the
// parent's hooks with the child's name, and every event inside the child
// carries the child's name.
func TestHooksSeeTheChild(t *testing.T) {
	rec := &hookstest.Recorder{}
	w := newWorld(t, permission.Config{Default: permission.Allow}, rec.Hook())
	r := parentWithRunner(t, w, subagent.Spec{Name: "explorer", Tools: []string{"Read", "Bash"}})

	require.True(t, r.Ran)
	assert.Equal(t, permission.Allow, r.Verdict.Decision)
	assert.Equal(t, "no rule matched; the default for subagent tools is allow", r.Verdict.Reason)
	assert.NoError(t, r.Err)
	assert.Equal(t, `README says "# hi\n"; building was denied`, r.Output)

	var got []string
	for _, rc := range rec.Records() {
		switch e := rc.Payload.(type) {
		case hooks.SessionStartEvent:
			got = append(got, fmt.Sprintf("SessionStart %s %s", e.AgentName, e.SessionID))
		case hooks.SubagentStartEvent:
			got = append(got, fmt.Sprintf("SubagentStart %s %s: %s %s call=%s task=%q", e.AgentName, e.SessionID, e.Subagent, e.ChildSessionID, e.CallID, e.Task))
		case hooks.PreToolUseEvent:
			got = append(got, fmt.Sprintf("PreToolUse %s %s: %s", e.AgentName, e.SessionID, e.ToolName))
		case hooks.PostToolUseEvent:
			got = append(got, fmt.Sprintf("PostToolUse %s %s: %s %s %q", e.AgentName, e.SessionID, e.ToolName, e.Decision, e.Reason))
		case hooks.StepCompleteEvent:
			got = append(got, fmt.Sprintf("StepComplete %s %s: %d", e.AgentName, e.SessionID, e.Step))
		case hooks.SessionStopEvent:
			got = append(got, fmt.Sprintf("SessionStop %s %s: %s", e.AgentName, e.SessionID, e.Reason))
		case hooks.SubagentStopEvent:
			got = append(got, fmt.Sprintf("SubagentStop %s %s: %s %s call=%s output=%q err=%v", e.AgentName, e.SessionID, e.Subagent, e.ChildSessionID, e.CallID, e.Output, e.Err))
		default:
			got = append(got, rc.Event.String())
		}
	}
	assert.Equal(t, []string{
		"SessionStart lead lead",
		"PreToolUse lead lead: Task",
		"SessionStart explorer lead/t1",
		`SubagentStart lead lead: explorer lead/t1 call=t1 task="find the README"`,
		"PreToolUse explorer lead/t1: Read",
		"PreToolUse explorer lead/t1: Bash",
		`PostToolUse explorer lead/t1: Read allow "no rule matched; the default for read tools is allow"`,
		`PostToolUse explorer lead/t1: Bash deny "subagent \"explorer\" cannot ask the person, and this call would ask: make: not on the safe list"`,
		"StepComplete explorer lead/t1: 1",
		"SessionStop explorer lead/t1: completed: final answer",
		`SubagentStop lead lead: explorer lead/t1 call=t1 output="README says \"# hi\\n\"; building was denied" err=<nil>`,
		`PostToolUse lead lead: Task allow "no rule matched; the default for subagent tools is allow"`,
	}, got)
}

// TestAuditRowsNameTheAgent: the audit log on SQLite records the child's
// calls under the child's name and the parent's under the parent's.
func TestAuditRowsNameTheAgent(t *testing.T) {
	db, err := sql.Open("sqlite", filepath.Join(t.TempDir(), "audit.db"))
	require.NoError(t, err)
	defer db.Close()
	audit, err := hooks.NewAuditLog(db, hooks.AuditOptions{})
	require.NoError(t, err)
	w := newWorld(t, permission.Config{Default: permission.Allow}, audit.Hook())
	parentWithRunner(t, w, subagent.Spec{Name: "explorer", Tools: []string{"Read", "Bash"}})
	lead, err := w.p.Session(context.Background(), runtime.SessionOptions{ID: "lead"}) // live: a get
	require.NoError(t, err)
	require.True(t, lead.End("done", "", nil))
	require.NoError(t, audit.Close(context.Background()))
	st := audit.Stats()
	require.Equal(t, int64(0), st.Lost+st.Fallback, "every row in the table")

	rows, err := db.Query("SELECT agent_name, session_id, tool_name, status, decision, reason FROM agent_audit_log ORDER BY id")
	require.NoError(t, err)
	defer rows.Close()
	var got []string
	for rows.Next() {
		var agent, sess, tool, status, decision, reason string
		require.NoError(t, rows.Scan(&agent, &sess, &tool, &status, &decision, &reason))
		got = append(got, fmt.Sprintf("%s|%s|%s|%s|%s|%s", agent, sess, tool, status, decision, reason))
	}
	require.NoError(t, rows.Err())
	assert.Equal(t, []string{
		"explorer|lead/t1|Read|OK|allow|no rule matched; the default for read tools is allow",
		`explorer|lead/t1|Bash|FAIL|deny|subagent "explorer" cannot ask the person, and this call would ask: make: not on the safe list`,
		"explorer|lead/t1|session|SESSION_STOP||completed: final answer",
		"lead|lead|Task|OK|allow|no rule matched; the default for subagent tools is allow",
		"lead|lead|session|SESSION_STOP||done",
	}, got)
}

// TestRunnerRefusals: the subagent tool's refusals reach the parent's
// model as the tool's error, with the reason.
func TestRunnerRefusals(t *testing.T) {
	w := newWorld(t, permission.Config{Default: permission.Allow})
	w.start(t, "lead", permission.ModeDefault)
	runner := &subagent.Runner{Pipeline: w.p, Model: explorerModel, Specs: []subagent.Spec{
		{Name: "explorer", Tools: []string{"Read"}},
		{Name: "wide", Tools: []string{"Launch"}},
	}}
	for _, tc := range []struct{ input, err string }{
		{`{"subagent_type":"nobody","prompt":"x"}`, `subagent: unknown subagent type "nobody"`},
		{`{"subagent_type":"wide","prompt":"x"}`, `subagent "wide": tool "Launch" is not in the parent's tool set`},
		{`[1]`, "subagent: input: json: cannot unmarshal array into Go value of type subagent.Input"},
	} {
		out, err := runner.RunCall(context.Background(), runtime.Call{Session: "lead", ID: "t", Tool: "Task", Input: json.RawMessage(tc.input)})
		assert.Empty(t, out)
		assert.ErrorContains(t, err, tc.err, tc.input)
	}
	_, err := runner.RunCall(context.Background(), runtime.Call{Session: "gone", ID: "t", Tool: "Task",
		Input: json.RawMessage(`{"subagent_type":"explorer","prompt":"x"}`)})
	assert.EqualError(t, err, `subagent "explorer": runtime: no live session "gone"`)
}

// TestRunnerNestingNarrows: through a Runner, a subagent starts subagents
// no deeper than its own spec allows, whatever the nested spec says.
func TestRunnerNestingNarrows(t *testing.T) {
	for _, tc := range []struct {
		name          string
		explorerDepth int
		want          string
	}{
		{"the explorer may not nest", 0, `nested: subagent "deep": runtime: a child session cannot hold more rights than its parent: nesting depth 2 is past the bound of 1`},
		{"the explorer may nest one level", 2, "nested: deep done"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, permission.Config{Default: permission.Allow})
			w.start(t, "lead", permission.ModeDefault)
			runner := &subagent.Runner{Pipeline: w.p, Specs: []subagent.Spec{
				{Name: "explorer", Tools: []string{"Read", "Task"}, MaxDepth: tc.explorerDepth},
				{Name: "deep", Tools: []string{"Read"}, MaxDepth: 5},
			}}
			runner.Model = func(_ context.Context, turn subagent.Turn) ([]runtime.Call, string, error) {
				switch {
				case turn.Agent == "explorer" && turn.Step == 1:
					task, _ := json.Marshal(subagent.Input{Type: "deep", Prompt: "dig"})
					return []runtime.Call{{ID: "n1", Tool: "Task", Input: task}}, "", nil
				case turn.Agent == "explorer":
					r := turn.Results[0]
					if r.Err != nil {
						return nil, "nested: " + r.Err.Error(), nil
					}
					return nil, "nested: " + r.Output, nil
				}
				return nil, "deep done", nil
			}
			runner.Run = runner.RunCall
			task, _ := json.Marshal(subagent.Input{Type: "explorer", Prompt: "explore"})
			out, err := runner.RunCall(context.Background(), runtime.Call{Session: "lead", ID: "t1", Tool: "Task", Input: task})
			require.NoError(t, err)
			assert.Equal(t, tc.want, out)
		})
	}
}
