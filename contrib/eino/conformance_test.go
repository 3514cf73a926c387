package eino_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"

	"github.com/toolgate/toolgate/contrib/eino"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/adaptertest"
)

// The kit's tool in each of eino's shapes.
type kitTool struct{ t adaptertest.Tool }

func (k kitTool) Info(context.Context) (*schema.ToolInfo, error) {
	return &schema.ToolInfo{Name: k.t.Name, Desc: "reads a file"}, nil
}

type invokable struct{ kitTool }

func (k invokable) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	return k.t.Run(ctx, json.RawMessage(args))
}

type streamable struct{ kitTool }

func (k streamable) StreamableRun(ctx context.Context, args string, _ ...tool.Option) (*schema.StreamReader[string], error) {
	out, err := k.t.Run(ctx, json.RawMessage(args))
	if err != nil {
		return nil, err
	}
	// In two chunks: the middleware must read them all before After.
	half := len(out) / 2
	return schema.StreamReaderFromArray([]string{out[:half], out[half:]}), nil
}

type enhancedInvokable struct{ kitTool }

func (k enhancedInvokable) InvokableRun(ctx context.Context, a *schema.ToolArgument, _ ...tool.Option) (*schema.ToolResult, error) {
	out, err := k.t.Run(ctx, json.RawMessage(a.Text))
	if err != nil {
		return nil, err
	}
	return &schema.ToolResult{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: out}}}, nil
}

type enhancedStreamable struct{ kitTool }

func (k enhancedStreamable) StreamableRun(ctx context.Context, a *schema.ToolArgument, _ ...tool.Option) (*schema.StreamReader[*schema.ToolResult], error) {
	out, err := k.t.Run(ctx, json.RawMessage(a.Text))
	if err != nil {
		return nil, err
	}
	return schema.StreamReaderFromArray([]*schema.ToolResult{{Parts: []schema.ToolOutputPart{{Type: schema.ToolPartTypeText, Text: out}}}}), nil
}

// mixed is a plain invokable tool that is also an enhanced streamable one
// (a Go type cannot have both InvokableRun methods): eino calls it through
// the enhanced path.
type mixed struct{ invokable }

func (k mixed) StreamableRun(ctx context.Context, a *schema.ToolArgument, o ...tool.Option) (*schema.StreamReader[*schema.ToolResult], error) {
	return enhancedStreamable(k.invokable).StreamableRun(ctx, a, o...)
}

// messageText is what the model reads of a tool message: its content, or
// the text parts of a multimodal one.
func messageText(m *schema.Message) string {
	var b strings.Builder
	b.WriteString(m.Content)
	for _, p := range m.UserInputMultiContent {
		if p.Type == schema.ChatMessagePartTypeText {
			b.WriteString(p.Text)
		}
	}
	return b.String()
}

// node builds a tools node over p holding tools (and, when unknown is
// set, the kit's tool as the handler of unknown tools), runs the model's
// call of t through it, by Invoke or Stream, and returns what the model
// reads.
func node(tools func(adaptertest.Tool) []tool.BaseTool, unknown, stream bool) func(context.Context, *runtime.Pipeline, adaptertest.Tool, json.RawMessage) (string, error) {
	return func(ctx context.Context, p *runtime.Pipeline, t adaptertest.Tool, input json.RawMessage) (string, error) {
		conf := &compose.ToolsNodeConfig{}
		if tools != nil {
			conf.Tools = tools(t)
		}
		if unknown {
			conf.UnknownToolsHandler = func(ctx context.Context, _, input string) (string, error) {
				return t.Run(ctx, json.RawMessage(input))
			}
		}
		eino.Configure(p, conf, eino.Options{})
		n, err := compose.NewToolNode(ctx, conf)
		if err != nil {
			return "", err
		}
		msg := schema.AssistantMessage("", []schema.ToolCall{{ID: "call-1", Function: schema.FunctionCall{Name: t.Name, Arguments: string(input)}}})
		if !stream {
			out, err := n.Invoke(ctx, msg)
			if err != nil {
				return "", err
			}
			if len(out) != 1 {
				return "", errors.New("not one tool message")
			}
			return messageText(out[0]), nil
		}
		s, err := n.Stream(ctx, msg)
		if err != nil {
			return "", err
		}
		defer s.Close()
		var b strings.Builder
		for {
			chunk, err := s.Recv()
			if err == io.EOF {
				return b.String(), nil
			}
			if err != nil {
				return "", err
			}
			for _, m := range chunk {
				if m != nil {
					b.WriteString(messageText(m))
				}
			}
		}
	}
}

// Every way a tools node calls a tool, by Invoke and by Stream: the plain
// and streaming tools, the enhanced (multimodal) ones of eino 0.7, a tool
// with both interfaces, and the handler of unknown tools.
func TestConformance(t *testing.T) {
	shapes := []struct {
		name    string
		tools   func(adaptertest.Tool) []tool.BaseTool
		unknown bool
	}{
		{"invokable", func(t adaptertest.Tool) []tool.BaseTool { return []tool.BaseTool{invokable{kitTool{t}}} }, false},
		{"streamable", func(t adaptertest.Tool) []tool.BaseTool { return []tool.BaseTool{streamable{kitTool{t}}} }, false},
		{"enhanced invokable", func(t adaptertest.Tool) []tool.BaseTool { return []tool.BaseTool{enhancedInvokable{kitTool{t}}} }, false},
		{"enhanced streamable", func(t adaptertest.Tool) []tool.BaseTool { return []tool.BaseTool{enhancedStreamable{kitTool{t}}} }, false},
		{"invokable and enhanced streamable", func(t adaptertest.Tool) []tool.BaseTool { return []tool.BaseTool{mixed{invokable{kitTool{t}}}} }, false},
		{"unknown tools handler", nil, true},
	}
	var paths []adaptertest.Path
	for _, s := range shapes {
		paths = append(paths,
			adaptertest.Path{Name: s.name + ", Invoke", Call: node(s.tools, s.unknown, false)},
			adaptertest.Path{Name: s.name + ", Stream", Call: node(s.tools, s.unknown, true)})
	}
	adaptertest.Run(t, adaptertest.Framework{Paths: paths})
}
