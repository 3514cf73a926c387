// Command redacthook is the PostToolUse command hook of the gateway's
// end-to-end tests: it reads Claude Code's hook event on stdin and, when
// the tool's response holds NAME=VALUE for a NAME ending in TOKEN, SECRET
// or PASSWORD, answers with the response, the values replaced by ***.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
)

var secret = regexp.MustCompile(`(?i)\b([A-Z_]*(?:TOKEN|SECRET|PASSWORD))=[^\s"']+`)

func main() {
	data, err := io.ReadAll(io.LimitReader(os.Stdin, 16<<20))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var ev struct {
		ToolResponse json.RawMessage `json:"tool_response"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var text string
	if json.Unmarshal(ev.ToolResponse, &text) != nil {
		text = string(ev.ToolResponse)
	}
	if !secret.MatchString(text) {
		return // nothing to change: no answer
	}
	out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{
		"hookEventName":        "PostToolUse",
		"updatedMCPToolOutput": secret.ReplaceAllString(text, "$1=***"),
	}})
	os.Stdout.Write(out)
}
