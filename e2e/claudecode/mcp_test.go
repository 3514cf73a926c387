package claudecode

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// runMCP is a small stdio MCP server (JSON-RPC 2.0, one message a line)
// with two tools: echo returns its text, with a secret appended so that a
// redaction has something to take out; touch creates a file, so that a
// scenario can see whether a call ran. It serves one resource,
// e2e://note, so that the CLI's resource tools have a server to read.
func runMCP() int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				Name      string                     `json:"name"`
				URI       string                     `json:"uri"`
				Arguments map[string]json.RawMessage `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil || len(req.ID) == 0 {
			continue // a notification, or not JSON-RPC
		}
		var result any
		switch req.Method {
		case "initialize":
			result = map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{"tools": map[string]any{}, "resources": map[string]any{}},
				"serverInfo": map[string]any{"name": "e2e", "version": "1.0.0"}}
		case "tools/list":
			str := map[string]any{"type": "string"}
			prompt := map[string]any{"type": "object", "properties": map[string]any{"tool_name": str, "input": map[string]any{"type": "object"},
				"tool_use_id": str}, "required": []string{"tool_name", "input"}}
			result = map[string]any{"tools": []any{
				map[string]any{"name": "echo", "description": "Echoes text.", "inputSchema": map[string]any{"type": "object",
					"properties": map[string]any{"text": str}, "required": []string{"text"}}},
				map[string]any{"name": "touch", "description": "Creates a file.", "inputSchema": map[string]any{"type": "object",
					"properties": map[string]any{"path": str}, "required": []string{"path"}}},
				map[string]any{"name": "approve", "description": "Approves a permission request.", "inputSchema": prompt},
				map[string]any{"name": "reject", "description": "Rejects a permission request.", "inputSchema": prompt},
			}}
		case "tools/call":
			text := ""
			arg := func(k string) string {
				var s string
				_ = json.Unmarshal(req.Params.Arguments[k], &s)
				return s
			}
			switch req.Params.Name {
			case "echo":
				text = "echo: " + arg("text") + " MCP-SECRET-7f3a"
			case "approve":
				// A --permission-prompt-tool that approves the
				// call as it is.
				b, _ := json.Marshal(map[string]any{"behavior": "allow", "updatedInput": req.Params.Arguments["input"]})
				text = string(b)
			case "reject":
				b, _ := json.Marshal(map[string]any{"behavior": "deny", "message": "rejected by the e2e prompt tool for " + arg("tool_name")})
				text = string(b)
			case "touch":
				p := filepath.Clean(arg("path"))
				if err := os.WriteFile(p, []byte("mcp\n"), 0o644); err != nil {
					text = "error: " + err.Error()
				} else {
					text = "touched " + p
				}
			default:
				text = "unknown tool " + req.Params.Name
			}
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": text}}}
		case "resources/list":
			result = map[string]any{"resources": []any{map[string]any{"uri": "e2e://note", "name": "note", "mimeType": "text/plain"}}}
		case "resources/templates/list":
			result = map[string]any{"resourceTemplates": []any{}}
		case "resources/read":
			result = map[string]any{"contents": []any{map[string]any{"uri": req.Params.URI, "mimeType": "text/plain", "text": "note: MCP-RESOURCE-READ"}}}
		case "ping":
			result = map[string]any{}
		default:
			_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": fmt.Sprintf("no method %s", req.Method)}})
			continue
		}
		_ = out.Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	}
	return 0
}
