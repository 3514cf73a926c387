package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// step is one scripted model turn: a function call, or a final text.
type step struct {
	Call string         `json:"call,omitempty"`
	Args map[string]any `json:"args,omitempty"`
	Text string         `json:"text,omitempty"`
}

// script is what the scripted Gemini API answers. The conversation is
// matched by its marker (the prompt) anywhere in the request; its next
// step is the number of model turns already in it.
type script struct {
	Marker string `json:"marker"`
	Steps  []step `json:"steps"`
}

// apiRequest is the part of a generateContent request the script reads.
type apiRequest struct {
	Contents []struct {
		Role string `json:"role"`
	} `json:"contents"`
}

// scriptedAPI serves generateContent and streamGenerateContent from a
// script and logs every request, one JSON line each, to log.
type scriptedAPI struct {
	sc  script
	mu  sync.Mutex
	log io.Writer
}

func (a *scriptedAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	a.mu.Lock()
	rec, _ := json.Marshal(map[string]any{"path": r.URL.Path, "query": r.URL.RawQuery, "body": json.RawMessage(orNull(body))})
	fmt.Fprintf(a.log, "%s\n", rec)
	a.mu.Unlock()
	switch {
	case strings.HasSuffix(r.URL.Path, ":streamGenerateContent"), strings.HasSuffix(r.URL.Path, ":generateContent"):
	case strings.HasSuffix(r.URL.Path, ":countTokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"totalTokens":10}`)
		return
	default:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
		return
	}
	var req apiRequest
	_ = json.Unmarshal(body, &req)
	var part any = map[string]any{"text": "done"}
	if bytes.Contains(body, []byte(a.sc.Marker)) && strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
		turns := 0
		for _, c := range req.Contents {
			if c.Role == "model" {
				turns++
			}
		}
		if turns < len(a.sc.Steps) {
			st := a.sc.Steps[turns]
			if st.Call != "" {
				part = map[string]any{"functionCall": map[string]any{"name": st.Call, "args": st.Args}}
			} else {
				part = map[string]any{"text": st.Text}
			}
		}
	} else if !strings.HasSuffix(r.URL.Path, ":streamGenerateContent") {
		// A utility request (next-speaker check and the like): the
		// user speaks next.
		part = map[string]any{"text": `{"reasoning":"the turn is complete","next_speaker":"user"}`}
	}
	resp, _ := json.Marshal(map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": []any{part}}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
		"modelVersion":  "gemini-2.5-pro",
	})
	if r.URL.Query().Get("alt") == "sse" {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "data: %s\n\n", resp)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(resp)
}

// serveAPI starts the scripted API on 127.0.0.1 and returns its URL.
func serveAPI(sc script, log io.Writer) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: &scriptedAPI{sc: sc, log: log}}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}

func orNull(b []byte) []byte {
	if !json.Valid(b) {
		return []byte("null")
	}
	return b
}
