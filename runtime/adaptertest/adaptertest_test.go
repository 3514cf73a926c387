package adaptertest_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/adaptertest"
)

// gated is the smallest adapter that keeps the contract: Check, run with
// the admitted input, After, and the model reads After's output.
func gated(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
	if _, err := p.Session(ctx, runtime.SessionOptions{ID: "kit"}); err != nil {
		return "", err
	}
	call := runtime.Call{Session: "kit", ID: "c1", Tool: t.Name, Input: input}
	v := p.Check(ctx, call)
	if v.Decision != permission.Allow {
		if v.Decision == permission.Ask {
			v.Decision, v.Reason = permission.Deny, "nobody to ask: "+v.Reason
		}
		return p.After(ctx, call, v, runtime.Run{}).Output, nil
	}
	out, err := t.Run(ctx, v.Input)
	return p.After(ctx, call, v, runtime.Run{Output: out, Err: err}).Output, nil
}

func TestKitPassesAGatedAdapter(t *testing.T) {
	adaptertest.Run(t, adaptertest.Framework{Paths: []adaptertest.Path{{Name: "direct", Call: gated}}})
}

func TestKitPassesAGatedAdapterWithItsOwnField(t *testing.T) {
	adaptertest.Run(t, adaptertest.Framework{Field: "input", Paths: []adaptertest.Path{{Name: "direct", Call: gated}}})
}

// Each broken adapter is caught, and the failure says what broke.
func TestKitCatchesBrokenAdapters(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error)
		want []string
	}{
		{"a path that skips Check", func(ctx context.Context, _ *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
			return t.Run(ctx, input)
		}, []string{
			"outside the roots: the tool ran", "blocked by a hook: the tool ran", "ask with nobody to ask: the tool ran",
			"allowed: After's PostToolUse hooks saw 0 calls", "allowed: the model read \"notes: kit-token-5f1c\": the unredacted output",
		}},
		{"runs the model's input, not the admitted one", func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
			if _, err := p.Session(ctx, runtime.SessionOptions{ID: "kit"}); err != nil {
				return "", err
			}
			call := runtime.Call{Session: "kit", Tool: t.Name, Input: input}
			v := p.Check(ctx, call)
			if v.Decision != permission.Allow {
				return p.After(ctx, call, v, runtime.Run{}).Output, nil
			}
			out, err := t.Run(ctx, input)
			return p.After(ctx, call, v, runtime.Run{Output: out, Err: err}).Output, nil
		}, []string{"input rewritten by a hook: the tool ran with", "the tool must run with the input Check admitted"}},
		{"hides the reason", func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
			out, err := gated(ctx, p, t, input)
			if len(out) > 6 && out[:6] == "denied" {
				return "the tool failed", err
			}
			return out, err
		}, []string{"outside the roots: the model read \"the tool failed\", which lacks the reason After saw"}},
		{"skips After", func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
			if _, err := p.Session(ctx, runtime.SessionOptions{ID: "kit"}); err != nil {
				return "", err
			}
			v := p.Check(ctx, runtime.Call{Session: "kit", Tool: t.Name, Input: input})
			if v.Decision != permission.Allow {
				return "denied: " + v.Reason, nil
			}
			return t.Run(ctx, v.Input)
		}, []string{"allowed: After's PostToolUse hooks saw 0 calls", "blocked by a hook: After's PostToolUse hooks saw 0 calls"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := adaptertest.Test(t.Context(), adaptertest.Framework{Paths: []adaptertest.Path{{Name: "broken", Call: tc.call}}})
			require.Error(t, err)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}
