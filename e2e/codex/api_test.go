package codex

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
)

// step is one scripted model turn: a call of exec_command (Cmd), a call of
// the freeform apply_patch tool (Patch), or a final text. The tool names
// and argument shapes are those Codex 0.171.0 offers in its request's
// tools (exec_command takes {"cmd": ...}; apply_patch is a custom tool
// whose input is the patch).
type step struct {
	Cmd   string `json:"cmd,omitempty"`
	Patch string `json:"patch,omitempty"`
	Text  string `json:"text,omitempty"`
}

// responsesRequest is the part of a Responses API request the script reads.
type responsesRequest struct {
	Input []struct {
		Type string `json:"type"`
	} `json:"input"`
}

// scriptedAPI serves the Responses API (POST /v1/responses, streamed as
// server-sent events) from a script: the next step is the number of tool
// outputs already in the request's input. Every request body is logged,
// one JSON line each.
type scriptedAPI struct {
	steps []step
	mu    sync.Mutex
	log   io.Writer
	n     int
}

func (a *scriptedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	a.mu.Lock()
	a.n++
	id := a.n
	if json.Valid(body) {
		fmt.Fprintf(a.log, "%s\n", strings.ReplaceAll(string(body), "\n", ""))
	}
	a.mu.Unlock()
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		http.NotFound(w, r)
		return
	}
	var req responsesRequest
	_ = json.Unmarshal(body, &req)
	outputs := 0
	for _, in := range req.Input {
		if strings.HasSuffix(in.Type, "_call_output") {
			outputs++
		}
	}
	st := step{Text: "done"}
	if outputs < len(a.steps) {
		st = a.steps[outputs]
	}
	// The events Codex reads (codex-rs/codex-api/src/sse/responses.rs):
	// response.created, response.output_item.done with a ResponseItem,
	// response.completed with the response's id.
	w.Header().Set("Content-Type", "text/event-stream")
	bw := bufio.NewWriter(w)
	ev := func(v map[string]any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(bw, "event: %s\ndata: %s\n\n", v["type"], b)
	}
	resp := fmt.Sprintf("resp_%d", id)
	call := fmt.Sprintf("call_%d", id)
	ev(map[string]any{"type": "response.created", "response": map[string]any{"id": resp}})
	switch {
	case st.Cmd != "":
		args, _ := json.Marshal(map[string]string{"cmd": st.Cmd})
		ev(map[string]any{"type": "response.output_item.done", "item": map[string]any{"type": "function_call", "id": "fc_" + call,
			"name": "exec_command", "arguments": string(args), "call_id": call}})
	case st.Patch != "":
		ev(map[string]any{"type": "response.output_item.done", "item": map[string]any{"type": "custom_tool_call", "id": "ctc_" + call,
			"name": "apply_patch", "input": st.Patch, "call_id": call}})
	default:
		ev(map[string]any{"type": "response.output_item.done", "item": map[string]any{"type": "message", "role": "assistant", "id": "msg_" + call,
			"content": []any{map[string]any{"type": "output_text", "text": st.Text}}}})
	}
	ev(map[string]any{"type": "response.completed", "response": map[string]any{"id": resp,
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}})
	bw.Flush()
}

// serveAPI listens on 127.0.0.1 and serves the script; it returns the
// base URL Codex's model provider takes (…/v1).
func serveAPI(steps []step, logPath string) (string, func(), error) {
	f, err := os.Create(logPath)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Close()
		return "", nil, err
	}
	srv := &http.Server{Handler: &scriptedAPI{steps: steps, log: f}}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/v1", func() { srv.Close(); f.Close() }, nil
}
