package claudecode

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

// step is one scripted assistant turn: a tool call, or a final text.
type step struct {
	Tool  string          `json:"tool,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	Text  string          `json:"text,omitempty"`
}

// script is what the scripted Messages API answers. A conversation is
// matched by a marker in its first user message; its next step is the
// number of assistant turns already in it.
type script struct {
	Conversations []conversation `json:"conversations"`
}

type conversation struct {
	Marker string `json:"marker"`
	Steps  []step `json:"steps"`
}

// apiRequest is the part of a Messages API request the script reads.
type apiRequest struct {
	Stream   bool `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools []struct {
		Name string `json:"name"`
	} `json:"tools"`
}

// scriptedAPI serves the Messages API from a script and logs every
// request body, one JSON line each, to log.
type scriptedAPI struct {
	sc  script
	mu  sync.Mutex
	log io.Writer
	n   int
}

func (a *scriptedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	a.mu.Lock()
	a.n++
	id := a.n
	rec, _ := json.Marshal(map[string]any{"path": r.URL.Path, "query": r.URL.RawQuery, "body": json.RawMessage(orNull(body))})
	fmt.Fprintf(a.log, "%s\n", rec)
	a.mu.Unlock()
	switch {
	case strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
		return
	case strings.HasSuffix(r.URL.Path, "/v1/messages"):
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
		return
	}
	var req apiRequest
	_ = json.Unmarshal(body, &req)
	st := a.next(req)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		msg := map[string]any{"id": fmt.Sprintf("msg_%d", id), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
			"content": []any{map[string]any{"type": "text", "text": orText(st.Text)}}, "stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}
		json.NewEncoder(w).Encode(msg)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	bw := bufio.NewWriter(w)
	ev := func(name string, v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(bw, "event: %s\ndata: %s\n\n", name, b)
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": fmt.Sprintf("msg_%d", id), "type": "message",
		"role": "assistant", "model": "claude-sonnet-4-5", "content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1}}})
	stop := "end_turn"
	if st.Tool != "" {
		stop = "tool_use"
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%03d", id), "name": st.Tool, "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(st.Input)}})
	} else {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "text_delta", "text": orText(st.Text)}})
	}
	ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 1}})
	ev("message_stop", map[string]any{"type": "message_stop"})
	bw.Flush()
}

// next is the step that answers req: the matching conversation's step
// after the assistant turns already in it, or a final text.
func (a *scriptedAPI) next(req apiRequest) step {
	if len(req.Messages) == 0 || len(req.Tools) == 0 {
		return step{Text: "ok"}
	}
	first := string(req.Messages[0].Content)
	turns := 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			turns++
		}
	}
	for _, c := range a.sc.Conversations {
		if strings.Contains(first, c.Marker) {
			if turns < len(c.Steps) {
				return c.Steps[turns]
			}
			return step{Text: "done"}
		}
	}
	return step{Text: "done"}
}

func orNull(b []byte) []byte {
	if !json.Valid(b) {
		return []byte("null")
	}
	return b
}

func orText(s string) string {
	if s == "" {
		return "done"
	}
	return s
}

// serveAPI listens on 127.0.0.1 and serves the script; it returns the
// base URL.
func serveAPI(sc script, logPath string) (string, func(), error) {
	f, err := os.Create(logPath)
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Close()
		return "", nil, err
	}
	srv := &http.Server{Handler: &scriptedAPI{sc: sc, log: f}}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close(); f.Close() }, nil
}
