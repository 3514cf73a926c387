// Command upstream is the go-sdk MCP server the gateway's end-to-end tests
// put behind toolgate-mcp: read_file (read-only), write_file and
// drop_table, served on stdio.
package main

import (
	"context"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type pathArg struct {
	Path string `json:"path"`
}

type writeArg struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

type fileOut struct {
	Content string `json:"content"`
}

func main() {
	s := mcp.NewServer(&mcp.Implementation{Name: "upstream", Version: "v1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "read_file", Description: "Read a file.", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in pathArg) (*mcp.CallToolResult, fileOut, error) {
			b, err := os.ReadFile(in.Path)
			if err != nil {
				return nil, fileOut{}, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, fileOut{Content: string(b)}, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "write_file", Description: "Write a file."},
		func(_ context.Context, _ *mcp.CallToolRequest, in writeArg) (*mcp.CallToolResult, any, error) {
			if err := os.WriteFile(in.Path, []byte(in.Content), 0o644); err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "wrote " + in.Path}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "drop_table", Description: "Drop a table."},
		func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "dropped"}}}, nil, nil
		})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		os.Exit(1)
	}
}
