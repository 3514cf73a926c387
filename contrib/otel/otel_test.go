package otel_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolgate/toolgate/contrib/otel"
	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

func attrs(kv []attribute.KeyValue) map[string]string {
	m := map[string]string{}
	for _, a := range kv {
		m[string(a.Key)] = a.Value.Emit()
	}
	return m
}

// Calls through the pipeline's executor, the host's tool-call path: the
// allowed one and the denied one each give a span with the GenAI tool
// attributes and the decision, the denied one with status Error and the
// reason that the model is given too; the counter counts both.
func TestHookSpansAndMetrics(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))
	reader := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	set := hooks.NewSet(otel.Hook(otel.Options{Tracer: tp.Tracer("toolgate"), Meter: mp.Meter("toolgate")}))
	defer set.Close()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Hooks: set, Rules: permission.Config{Allow: []string{"Read"}}})
	require.NoError(t, err)
	ctx := context.Background()
	_, err = p.Session(ctx, runtime.SessionOptions{ID: "conv-1"})
	require.NoError(t, err)
	ex := p.Executor(func(context.Context, runtime.Call) (string, error) { return "contents", nil })
	res := ex.Execute(ctx, []runtime.Call{
		{Session: "conv-1", ID: "c1", Tool: "Read", Input: []byte(`{"file_path":"` + filepath.Join(dir, "a.txt") + `"}`)},
		{Session: "conv-1", ID: "c2", Tool: "Read", Input: []byte(`{"file_path":"/etc/shadow"}`)},
	})
	require.Len(t, res, 2)
	assert.Equal(t, permission.Allow, res[0].Verdict.Decision, res[0].Verdict.Reason)
	assert.Equal(t, permission.Deny, res[1].Verdict.Decision)
	assert.Equal(t, "contents", res[0].Output, "what the model sees of the allowed call")
	assert.False(t, res[1].Ran, "the denied call never ran")
	assert.Contains(t, res[1].Output, "denied (", "what the model sees of the denied call: the decision")
	assert.Contains(t, res[1].Output, res[1].Verdict.Reason, "and its reason, the one the span carries")

	spans := rec.Ended()
	require.Len(t, spans, 2)
	byID := map[string]sdktrace.ReadOnlySpan{}
	for _, s := range spans {
		byID[attrs(s.Attributes())["gen_ai.tool.call.id"]] = s
	}
	ok := byID["c1"]
	require.NotNil(t, ok)
	assert.Equal(t, "execute_tool Read", ok.Name())
	a := attrs(ok.Attributes())
	assert.Equal(t, "execute_tool", a["gen_ai.operation.name"])
	assert.Equal(t, "Read", a["gen_ai.tool.name"])
	assert.Equal(t, "conv-1", a["gen_ai.conversation.id"])
	assert.Equal(t, "allow", a["toolgate.decision"])
	assert.Equal(t, codes.Unset, ok.Status().Code)

	denied := byID["c2"]
	require.NotNil(t, denied)
	a = attrs(denied.Attributes())
	assert.Equal(t, "deny", a["toolgate.decision"])
	assert.Contains(t, a["toolgate.reason"], "outside")
	assert.Equal(t, codes.Error, denied.Status().Code)
	assert.Equal(t, res[1].Verdict.Reason, denied.Status().Description)

	var rm metricdata.ResourceMetrics
	require.NoError(t, reader.Collect(ctx, &rm))
	counts := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != "toolgate.decisions" {
				continue
			}
			for _, dp := range m.Data.(metricdata.Sum[int64]).DataPoints {
				d, _ := dp.Attributes.Value("toolgate.decision")
				counts[d.AsString()] += dp.Value
			}
		}
	}
	assert.Equal(t, map[string]int64{"allow": 1, "deny": 1}, counts)
}
