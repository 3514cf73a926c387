// Package otel reports toolgate's decisions to OpenTelemetry: [Hook]
// returns a hook that, for every call the pipeline finished
// ([runtime.Pipeline.After]), records a span named "execute_tool TOOL" and
// metrics, with the tool attributes of OpenTelemetry's GenAI semantic
// conventions (gen_ai.operation.name, gen_ai.tool.name,
// gen_ai.tool.call.id, gen_ai.conversation.id, gen_ai.agent.name) and the
// decision's own (toolgate.decision, toolgate.layer, toolgate.rule,
// toolgate.reason). A denied call's span has status Error with the reason.
//
//	set.Add(otel.Hook(otel.Options{Tracer: tp.Tracer("toolgate"), Meter: mp.Meter("toolgate")}))
//
// It is a module of its own, so OpenTelemetry never enters the library's
// go.mod.
package otel

import (
	"context"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
)

// Options say where to report. A nil Tracer or Meter reports nothing of
// that kind.
type Options struct {
	Tracer trace.Tracer
	Meter  metric.Meter
}

// Hook returns a hook that reports every finished call. It never changes
// the output and never fails the call: a metric that cannot be made is
// left out.
func Hook(o Options) hooks.Hook {
	var decisions metric.Int64Counter
	var duration metric.Float64Histogram
	if o.Meter != nil {
		decisions, _ = o.Meter.Int64Counter("toolgate.decisions",
			metric.WithDescription("Tool calls decided, by decision, layer and tool."))
		duration, _ = o.Meter.Float64Histogram("gen_ai.client.operation.duration", metric.WithUnit("s"),
			metric.WithDescription("How long allowed tool calls ran."))
	}
	return hooks.Hook{
		Name: "otel",
		PostToolUse: func(ctx context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			attrs := []attribute.KeyValue{
				attribute.String("gen_ai.operation.name", "execute_tool"),
				attribute.String("gen_ai.tool.name", e.ToolName),
				attribute.String("gen_ai.tool.call.id", e.CallID),
				attribute.String("gen_ai.conversation.id", e.SessionID),
				attribute.String("gen_ai.agent.name", e.AgentName),
				attribute.String("toolgate.decision", e.Decision.String()),
				attribute.String("toolgate.layer", e.Layer.String()),
				attribute.String("toolgate.rule", string(e.Rule)),
				attribute.String("toolgate.reason", e.Reason),
			}
			if o.Tracer != nil {
				end := time.Now()
				_, span := o.Tracer.Start(ctx, "execute_tool "+e.ToolName, trace.WithSpanKind(trace.SpanKindInternal),
					trace.WithTimestamp(end.Add(-e.Elapsed)), trace.WithAttributes(attrs...))
				switch {
				case e.Decision != permission.Allow:
					span.SetStatus(codes.Error, e.Reason)
				case e.Err != nil:
					span.SetAttributes(attribute.String("error.type", "tool_error"))
					span.SetStatus(codes.Error, e.Err.Error())
				}
				span.End(trace.WithTimestamp(end))
			}
			if decisions != nil {
				decisions.Add(ctx, 1, metric.WithAttributes(attrs[:2]...), metric.WithAttributes(attrs[5], attrs[6]))
			}
			if duration != nil && e.Decision == permission.Allow {
				duration.Record(ctx, e.Elapsed.Seconds(), metric.WithAttributes(attrs[:2]...))
			}
			return hooks.PostToolUseResult{}, nil
		},
	}
}
