package gosdk_test

import (
	"context"
	"encoding/json"
	"strings"

	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgate/toolgate/contrib/gosdk"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/adaptertest"
)

const kitPrefix = "mcp__kit__"

// roundTrip serves the kit's tool on a go-sdk server and calls it from a
// go-sdk client over in-memory transports, with the middleware on the
// server's receiving side or the client's sending side.
func roundTrip(onServer bool) func(context.Context, *runtime.Pipeline, adaptertest.Tool, json.RawMessage) (string, error) {
	return func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
		s := mcp.NewServer(&mcp.Implementation{Name: "kit", Version: "v1"}, nil)
		s.AddTool(&mcp.Tool{Name: t.Name, InputSchema: json.RawMessage(`{"type":"object"}`)},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				out, err := t.Run(ctx, req.Params.Arguments)
				if err != nil {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}, nil
			})
		c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1"}, nil)
		if onServer {
			s.AddReceivingMiddleware(gosdk.ServerMiddleware(p, gosdk.Options{Prefix: kitPrefix}))
		} else {
			c.AddSendingMiddleware(gosdk.ClientMiddleware(p, gosdk.Options{Prefix: kitPrefix}))
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.Connect(ctx, st, nil)
		if err != nil {
			return "", err
		}
		defer ss.Close()
		cs, err := c.Connect(ctx, ct, nil)
		if err != nil {
			return "", err
		}
		defer cs.Close()
		r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: t.Name, Arguments: input})
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for _, c := range r.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String(), nil
	}
}

// Both ends of a go-sdk connection: a server's tools/call and a client's.
func TestConformance(t *testing.T) {
	adaptertest.Run(t, adaptertest.Framework{Prefix: kitPrefix, Paths: []adaptertest.Path{
		{Name: "server middleware", Call: roundTrip(true)},
		{Name: "client middleware", Call: roundTrip(false)},
	}})
}
