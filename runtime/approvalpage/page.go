// Package approvalpage serves the approval page: the calls waiting for a
// person, live over server-sent events. Each shows the project, the agent
// and session, when it asked and a countdown to its expiry; the command
// first, with the commands that made it ask marked (or, for another tool,
// the input's members); the reason in a sentence, with the layer-by-layer
// trace and the raw input folded away; and buttons to allow it once, allow
// it always (saying the exact rules that adds, and for which scope) or
// deny it with a reason, also from the keyboard (a, A, d; j and k move).
// An approval that expires unanswered stays on the page, saying so. The
// page is one column on a phone. Answers go to a [store.Approvals]; a
// pipeline on any replica sharing the store sees them.
//
// Security: every request for data or an answer needs the page's token in
// an Authorization: Bearer header. The page itself (static, holding
// nothing) takes the token from the link it is opened with (#token= or
// ?token=, which then leaves the address bar) and keeps it in the tab's
// sessionStorage, which only this origin (scheme, host and port) reads.
// No cookie carries it: a browser sends a host's cookies to every port of
// that host, so another server on 127.0.0.1 would read a cookie of this
// page (see SECURITY.md). By default only loopback clients are served; an
// answer is a POST with a single-use answer token in a header of its own,
// which no other site can send, from an Origin that is this page's if the
// browser names one.
package approvalpage

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate/runtime/store"
)

// Options configure a [Handler].
type Options struct {
	// Token is the secret every request must carry: at least 16 bytes.
	Token string
	// Name is who answers through this page, recorded with each answer
	// and matched against an approval's Answerers.
	Name string
	// AllowRemote serves clients that are not on a loopback address.
	// Put TLS in front before setting it.
	AllowRemote bool
}

// Handler is the approval page, an [http.Handler] a host can mount (at the
// root of its own path prefix, with [http.StripPrefix]).
type Handler struct {
	st   store.Store
	opts Options
	mux  *http.ServeMux

	mu      sync.Mutex
	byID    map[string]string // approval id -> its answer token
	byToken map[string]string // answer token -> approval id
}

// New returns the page over st. Every call of st is bounded: st as it is
// if it is a [store.Bounded], else with [store.DefaultTimeout]; a stalled
// store makes a request fail, never hang.
func New(st store.Store, o Options) (*Handler, error) {
	if len(o.Token) < 16 {
		return nil, errors.New("approvalpage: the token must be at least 16 bytes")
	}
	if _, ok := st.(*store.Bounded); !ok {
		st = store.Bound(st, store.DefaultTimeout)
	}
	h := &Handler{st: st, opts: o, mux: http.NewServeMux(), byID: map[string]string{}, byToken: map[string]string{}}
	h.mux.HandleFunc("GET /{$}", h.page)
	h.mux.HandleFunc("GET /pending", h.pending)
	h.mux.HandleFunc("GET /events", h.events)
	h.mux.HandleFunc("POST /answer", h.answer)
	return h, nil
}

// ServeHTTP implements [http.Handler].
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("Cache-Control", "no-store")
	if !h.opts.AllowRemote && !loopback(r.RemoteAddr) {
		http.Error(w, "the approval page serves loopback clients only", http.StatusForbidden)
		return
	}
	if r.URL.Path == "/" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		// The page holds nothing: its script reads the token from the
		// link and sends it as a header. A wrong token in the link is
		// refused here, at once.
		if q := r.URL.Query().Get("token"); q != "" && !h.tokenOK(q) {
			http.Error(w, "wrong token", http.StatusUnauthorized)
			return
		}
		h.mux.ServeHTTP(w, r)
		return
	}
	if !h.authenticated(r) {
		http.Error(w, "a token is required", http.StatusUnauthorized)
		return
	}
	h.mux.ServeHTTP(w, r)
}

func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = addr
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (h *Handler) tokenOK(t string) bool {
	return subtle.ConstantTimeCompare([]byte(t), []byte(h.opts.Token)) == 1
}

func (h *Handler) authenticated(r *http.Request) bool {
	if a := r.Header.Get("Authorization"); len(a) > 7 && a[:7] == "Bearer " {
		return h.tokenOK(a[7:])
	}
	return false // never a cookie: every port of the host reads those
}

// Item is one pending approval as the page shows it: who asks and where,
// the call (its command first, the parts that made it ask marked), the
// reason in a sentence and the full trace, what "allow always" adds, and
// the time left.
type Item struct {
	ID      string `json:"id"`
	Session string `json:"session"`
	// Project is the project (the workspace directory) the call is made
	// in, and Agent the agent that made it; empty when not known.
	Project string `json:"project,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Tool    string `json:"tool"`
	// Script is, for a shell call, the command in pieces, the commands
	// that ask marked; Fields is, for other calls, the input's scalar
	// members. Asking lists what made the call ask, each with why.
	Script []Segment       `json:"script,omitempty"`
	Fields []Field         `json:"fields,omitempty"`
	Asking []Asking        `json:"asking,omitempty"`
	Input  json.RawMessage `json:"input"`
	Reason string          `json:"reason"`
	// Explanation is the layer-by-layer trace of the decision.
	Explanation string `json:"explanation"`
	// AlwaysRules are the exact rules allow always adds; empty when it is
	// not offered. Scopes are the scopes it may add them to, and
	// ScopeKeys what each scope is (the session's id, the project's
	// directory, the user's name).
	AlwaysRules []string          `json:"alwaysRules,omitempty"`
	Scopes      []string          `json:"scopes,omitempty"`
	ScopeKeys   map[string]string `json:"scopeKeys,omitempty"`
	// Asked is when the call asked; Expires when the approval expires,
	// unanswered, as a Deny. ExpiresInMS is the time left when the list
	// was sent, in milliseconds, so that a page counts down by its own
	// clock, whatever its offset from the server's; -1 when the approval
	// has no expiry.
	Asked       time.Time `json:"asked"`
	Expires     time.Time `json:"expires"`
	ExpiresInMS int64     `json:"expiresInMs"`
	// AnswerToken is the single-use token the answer must carry.
	AnswerToken string `json:"answerToken"`
}

// items lists what this page's person may answer, each with its answer
// token.
func (h *Handler) items(ctx context.Context) ([]Item, error) {
	ps, err := h.st.Pending(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	live := make(map[string]bool, len(ps))
	out := make([]Item, 0, len(ps))
	for _, p := range ps {
		if len(p.Answerers) > 0 && !slices.Contains(p.Answerers, h.opts.Name) {
			continue
		}
		live[p.ID] = true
		tok, ok := h.byID[p.ID]
		if !ok {
			tok = newToken()
			h.byID[p.ID], h.byToken[tok] = tok, p.ID
		}
		it := Item{ID: p.ID, Session: p.Session, Project: p.Project, Agent: p.Agent, Tool: p.Tool, Input: p.Input,
			Reason: p.Reason, Explanation: p.Explanation, AlwaysRules: p.AlwaysRules,
			Asked: p.Created, Expires: p.Expires, AnswerToken: tok}
		it.ExpiresInMS = -1 // no expiry
		if !p.Expires.IsZero() {
			it.ExpiresInMS = max(0, p.Expires.Sub(now).Milliseconds())
		}
		if p.Script != "" {
			it.Script = scriptSegments(p.Script, p.Commands)
		} else {
			it.Fields = inputFields(p.Input, p.Reason)
		}
		for _, c := range p.Commands {
			if c.Asks {
				it.Asking = append(it.Asking, Asking{Part: strings.Join(c.Args, " "), Reason: c.Reason})
			}
		}
		for _, f := range it.Fields {
			if f.Marked {
				it.Asking = append(it.Asking, Asking{Part: f.Name + ": " + f.Value})
			}
		}
		if len(p.AlwaysRules) > 0 {
			it.Scopes = []string{"session"}
			it.ScopeKeys = map[string]string{"session": p.Session}
			if p.Project != "" {
				it.Scopes = append(it.Scopes, "project")
				it.ScopeKeys["project"] = p.Project
			}
			if p.User != "" {
				it.Scopes = append(it.Scopes, "user")
				it.ScopeKeys["user"] = p.User
			}
		}
		out = append(out, it)
	}
	for id, tok := range h.byID { // tokens of approvals no longer pending
		if !live[id] {
			delete(h.byID, id)
			delete(h.byToken, tok)
		}
	}
	return out, nil
}

func newToken() string {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func (h *Handler) pending(w http.ResponseWriter, r *http.Request) {
	items, err := h.items(r.Context())
	if err != nil {
		http.Error(w, "the store failed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(items)
}

// events streams the pending list: at once, then after every change.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	changed := make(chan struct{}, 1)
	stop := h.st.Watch(func(e store.Event) {
		if e.Kind == store.ApprovalAdded || e.Kind == store.ApprovalAnswered || e.Kind == store.Resync {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	})
	defer stop()
	tick := time.NewTicker(15 * time.Second) // expiries, and keep-alive
	defer tick.Stop()
	for {
		items, err := h.items(r.Context())
		if err != nil {
			fmt.Fprintf(w, "event: error\ndata: %q\n\n", err.Error())
		} else {
			b, _ := json.Marshal(items)
			fmt.Fprintf(w, "event: pending\ndata: %s\n\n", b)
		}
		fl.Flush()
		select {
		case <-r.Context().Done():
			return
		case <-changed:
		case <-tick.C:
		}
	}
}

// answerBody is the JSON an answer posts.
type answerBody struct {
	ID     string `json:"id"`
	Choice string `json:"choice"` // "allow-once", "allow-always", "deny"
	Scope  string `json:"scope,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// AnswerTokenHeader carries an answer's single-use token.
const AnswerTokenHeader = "X-Toolgate-Answer-Token"

func (h *Handler) answer(w http.ResponseWriter, r *http.Request) {
	if o := r.Header.Get("Origin"); o != "" {
		u, err := url.Parse(o)
		if err != nil || u.Host != r.Host {
			http.Error(w, "cross-origin answer refused", http.StatusForbidden)
			return
		}
	}
	var b answerBody
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 64<<10)).Decode(&b); err != nil {
		http.Error(w, "bad answer: "+err.Error(), http.StatusBadRequest)
		return
	}
	tok := r.Header.Get(AnswerTokenHeader)
	h.mu.Lock()
	id, ok := h.byToken[tok]
	if ok && id == b.ID {
		delete(h.byToken, tok) // single use, whatever follows
		delete(h.byID, id)
	}
	h.mu.Unlock()
	if !ok || id != b.ID {
		http.Error(w, "the answer token is unknown, already used or not this approval's", http.StatusForbidden)
		return
	}
	ans := store.Answer{Reason: b.Reason, By: h.opts.Name}
	switch b.Choice {
	case "allow-once":
		ans.Choice = store.ChoiceAllowOnce
	case "allow-always":
		ans.Choice = store.ChoiceAllowAlways
	case "deny":
		ans.Choice = store.ChoiceDeny
	default:
		http.Error(w, "unknown choice "+b.Choice, http.StatusBadRequest)
		return
	}
	switch b.Scope {
	case "", "session":
		ans.Scope = store.ScopeSession
	case "project":
		ans.Scope = store.ScopeProject
	case "user":
		ans.Scope = store.ScopeUser
	default:
		http.Error(w, "unknown scope "+b.Scope, http.StatusBadRequest)
		return
	}
	err := h.st.AnswerApproval(r.Context(), b.ID, ans)
	switch {
	case errors.Is(err, store.ErrAnswered), errors.Is(err, store.ErrExpired), errors.Is(err, store.ErrNotFound):
		http.Error(w, err.Error(), http.StatusConflict)
		return
	case err != nil:
		http.Error(w, "the store failed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"ok":true}` + "\n"))
}

//go:embed page.html
var pageHTML []byte

func (h *Handler) page(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'")
	_, _ = w.Write(pageHTML)
}
