// Package adaptertest is a conformance kit for adapters that put a
// [runtime.Pipeline] into an agent framework, as testing/slogtest is for
// slog handlers and hooks/hookstest for hooks. An adapter is only as good
// as the framework path it forgets: a tool the framework can call without
// passing through [runtime.Pipeline.Check] runs whatever the model asks.
//
// The author describes each way the framework can call a tool (a plain
// tool, a streaming one, a multimodal one, a background task, a handler
// for unknown tools, …) as a [Path]: how to build the framework with the
// adapter, give it the kit's tool in that shape, have it call the tool
// once as a model would, and return the text the model reads next. [Run]
// then drives every path through the same scenarios, each on a fresh
// pipeline over a real directory:
//
//   - an allowed read: the tool runs once, with the input the pipeline
//     admitted, and the model reads its output as the PostToolUse hooks
//     left it (the kit's hook redacts a token: the model must not see it);
//     [runtime.Pipeline.After] saw the output;
//   - a path outside the roots, a PreToolUse hook's Block, an Ask rule with
//     nobody to ask, and a session cancelled while its call is judged: the
//     tool does not run, the model reads the reason the pipeline gave, and
//     After saw the Deny;
//   - a PreToolUse hook that rewrites the input: the tool runs with the
//     rewritten input, never the model's.
//
// A typical test, in the adapter's module:
//
//	func TestConformance(t *testing.T) {
//		adaptertest.Run(t, adaptertest.Framework{Prefix: "mcp__kit__", Paths: []adaptertest.Path{
//			{Name: "tool", Call: func(ctx context.Context, p *runtime.Pipeline, k adaptertest.Tool, input json.RawMessage) (string, error) {
//				// Build the framework with the adapter over p, register
//				// k.Name with k.Run as its body, call it with input, and
//				// return what the model would read.
//			}},
//		}})
//	}
//
// [Test] runs the same checks without a testing framework and returns
// every violation, joined. Both call the paths one at a time, each call
// bounded by a minute. The kit finds the paths it is given, not those the
// author forgot: list every way the framework reaches a tool, and add a
// Path when a framework version adds one. Run the kit under the race
// detector.
package adaptertest
