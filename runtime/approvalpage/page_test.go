package approvalpage_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/runtime/approvalpage"
	"github.com/toolgate/toolgate/runtime/store"
)

const token = "0123456789abcdef-page-token"

func setup(t *testing.T) (*store.Memory, *httptest.Server) {
	t.Helper()
	st := store.NewMemory()
	h, err := approvalpage.New(st, approvalpage.Options{Token: token, Name: "ann"})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	now := time.Now()
	require.NoError(t, st.PutApproval(t.Context(), store.Approval{ID: "ask-1", Session: "s1", Project: "/w", Tool: "Bash",
		Input: json.RawMessage(`{"command":"ls && make build"}`), Reason: "make is not a known command", Agent: "lead",
		Script: "ls && make build", Commands: []store.ApprovalCommand{{Args: []string{"ls"}, Pos: "1:1"},
			{Args: []string{"make", "build"}, Pos: "1:7", Asks: true, Reason: "make is not a known command"}},
		Explanation: "ask Bash: make is not a known command by L5 shell", AlwaysRules: []string{"Bash(make build)"},
		Created: now, Expires: now.Add(time.Minute)}))
	require.NoError(t, st.PutApproval(t.Context(), store.Approval{ID: "ask-bob", Session: "s2", Tool: "Write",
		Answerers: []string{"bob"}, Created: now, Expires: now.Add(time.Minute)}))
	return st, srv
}

func get(t *testing.T, url, auth string) *http.Response {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "GET", url, nil)
	require.NoError(t, err)
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	t.Cleanup(func() { res.Body.Close() })
	return res
}

func pending(t *testing.T, srv *httptest.Server) []approvalpage.Item {
	t.Helper()
	res := get(t, srv.URL+"/pending", token)
	require.Equal(t, http.StatusOK, res.StatusCode)
	var items []approvalpage.Item
	require.NoError(t, json.NewDecoder(res.Body).Decode(&items))
	return items
}

func post(t *testing.T, srv *httptest.Server, answerToken, body string, hdr map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), "POST", srv.URL+"/answer", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set(approvalpage.AnswerTokenHeader, answerToken)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	var b strings.Builder
	_, _ = bufio.NewReader(res.Body).WriteTo(&b)
	return res.StatusCode, b.String()
}

func TestPageRefusesWithoutToken(t *testing.T) {
	_, srv := setup(t)
	for _, path := range []string{"/pending", "/events"} {
		res := get(t, srv.URL+path, "")
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode, path)
		res = get(t, srv.URL+path, "wrong-token-wrong-token")
		assert.Equal(t, http.StatusUnauthorized, res.StatusCode, path)
	}
	code, body := post(t, srv, "x", `{}`, map[string]string{"Authorization": "Bearer nope"})
	assert.Equal(t, http.StatusUnauthorized, code)
	assert.Contains(t, body, "a token is required")

	// A wrong token in the link is refused at once.
	res := get(t, srv.URL+"/?token=wrong-token-wrong-token", "")
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
	// The page itself holds nothing: no token, no approval, no cookie.
	for _, u := range []string{srv.URL + "/", srv.URL + "/?token=" + token} {
		res = get(t, u, "")
		require.Equal(t, http.StatusOK, res.StatusCode, u)
		var b strings.Builder
		_, _ = bufio.NewReader(res.Body).WriteTo(&b)
		assert.NotContains(t, b.String(), token, u)
		assert.NotContains(t, b.String(), "make build", u)
		assert.Empty(t, res.Cookies(), u)
	}
}

// A browser sends a host's cookies to every port of it: the token must
// never travel in one, or any other server on 127.0.0.1 reads it. A
// client with a cookie jar (port-blind, as browsers are) opens the page's
// link, then visits another server on the same host: that server sees
// neither a cookie nor the token; and the page takes no cookie as proof.
func TestPageTokenNeverReachesAnotherPort(t *testing.T) {
	_, srv := setup(t)
	seen := make(chan http.Header, 4)
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Clone()
	}))
	defer other.Close()
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	c := &http.Client{Jar: jar}
	for _, u := range []string{srv.URL + "/?token=" + token, srv.URL + "/"} {
		res, err := c.Get(u)
		require.NoError(t, err)
		res.Body.Close()
		require.Equal(t, http.StatusOK, res.StatusCode, u)
	}
	res, err := c.Get(other.URL + "/")
	require.NoError(t, err)
	res.Body.Close()
	h := <-seen
	assert.Empty(t, h.Values("Cookie"), "another port's server got a cookie")
	for k, vs := range h {
		for _, v := range vs {
			assert.NotContains(t, v, token, "header %s", k)
		}
	}
	// The token as a cookie (how it once travelled) opens nothing.
	req, err := http.NewRequestWithContext(t.Context(), "GET", srv.URL+"/pending", nil)
	require.NoError(t, err)
	req.AddCookie(&http.Cookie{Name: "toolgate_approval", Value: token})
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, res.StatusCode)
}

func TestPageListsAndAnswersOnce(t *testing.T) {
	st, srv := setup(t)
	items := pending(t, srv)
	require.Len(t, items, 1, "ask-bob is for bob only")
	it := items[0]
	assert.Equal(t, "ask-1", it.ID)
	assert.Equal(t, []string{"Bash(make build)"}, it.AlwaysRules)
	assert.Equal(t, []string{"session", "project"}, it.Scopes)
	assert.Equal(t, map[string]string{"session": "s1", "project": "/w"}, it.ScopeKeys, "what each scope is, for the page to say")
	assert.Contains(t, it.Explanation, "by L5 shell")
	assert.Equal(t, "/w", it.Project)
	assert.Equal(t, "lead", it.Agent)
	assert.False(t, it.Asked.IsZero())
	assert.Greater(t, it.ExpiresInMS, int64(50_000), "about a minute left")
	assert.LessOrEqual(t, it.ExpiresInMS, int64(60_000))
	assert.Equal(t, []approvalpage.Segment{{Text: "ls && "}, {Text: "make build", Marked: true}}, it.Script, "the command first, what asks marked")
	assert.Equal(t, []approvalpage.Asking{{Part: "make build", Reason: "make is not a known command"}}, it.Asking)
	assert.Nil(t, it.Fields, "a shell call shows its script, not fields")
	assert.Equal(t, it.AnswerToken, pending(t, srv)[0].AnswerToken, "one token per approval until it is used")

	// An answer from another site, or with another approval's token, is refused.
	code, body := post(t, srv, it.AnswerToken, `{"id":"ask-1","choice":"allow-once"}`, map[string]string{"Origin": "https://evil.example"})
	assert.Equal(t, http.StatusForbidden, code)
	assert.Contains(t, body, "cross-origin")
	code, body = post(t, srv, it.AnswerToken, `{"id":"ask-bob","choice":"allow-once"}`, nil)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Contains(t, body, "answer token")

	code, body = post(t, srv, it.AnswerToken, `{"id":"ask-1","choice":"allow-always","scope":"project"}`, nil)
	require.Equal(t, http.StatusOK, code, body)
	ap, err := st.Approval(t.Context(), "ask-1")
	require.NoError(t, err)
	assert.True(t, ap.Answered)
	assert.Equal(t, uint8(store.ChoiceAllowAlways), ap.Answer.Choice)
	assert.Equal(t, "ann", ap.Answer.By)
	rules, err := st.Grants(t.Context(), store.ScopeProject, "/w")
	require.NoError(t, err)
	assert.Equal(t, []string{"Bash(make build)"}, rules)

	// The same answer token again: refused.
	code, body = post(t, srv, it.AnswerToken, `{"id":"ask-1","choice":"deny"}`, nil)
	assert.Equal(t, http.StatusForbidden, code)
	assert.Contains(t, body, "already used")
	assert.Empty(t, pending(t, srv))
}

func TestPageEventsStream(t *testing.T) {
	st, srv := setup(t)
	res := get(t, srv.URL+"/events", token)
	require.Equal(t, "text/event-stream", res.Header.Get("Content-Type"))
	r := bufio.NewReader(res.Body)
	next := func() []approvalpage.Item {
		for {
			line, err := r.ReadString('\n')
			require.NoError(t, err)
			if strings.HasPrefix(line, "data: ") {
				var items []approvalpage.Item
				require.NoError(t, json.Unmarshal([]byte(line[6:]), &items))
				return items
			}
		}
	}
	assert.Len(t, next(), 1)
	now := time.Now()
	require.NoError(t, st.PutApproval(t.Context(), store.Approval{ID: "ask-2", Session: "s1", Tool: "Edit", Created: now, Expires: now.Add(time.Minute)}))
	items := next()
	require.Len(t, items, 2, "a new approval is pushed")
	assert.Equal(t, "ask-2", items[1].ID)
}

func TestPageLoopbackOnly(t *testing.T) {
	h, err := approvalpage.New(store.NewMemory(), approvalpage.Options{Token: token})
	require.NoError(t, err)
	req := httptest.NewRequest("GET", "/pending", nil)
	req.RemoteAddr = "192.0.2.7:4000"
	req.Header.Set("Authorization", "Bearer "+token)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusForbidden, rec.Code)
	assert.Contains(t, rec.Body.String(), "loopback clients only")

	_, err = approvalpage.New(store.NewMemory(), approvalpage.Options{Token: "short"})
	assert.ErrorContains(t, err, "at least 16 bytes")
}

// stalledPending is a store whose Pending never returns.
type stalledPending struct {
	*store.Memory
	end chan struct{}
}

func (s stalledPending) Pending(context.Context) ([]store.Approval, error) {
	<-s.end
	return nil, nil
}

// A store that stops answering makes the page's request fail with the
// reason once the store's deadline passed, never hang.
func TestPageStalledStoreFails(t *testing.T) {
	st := stalledPending{Memory: store.NewMemory(), end: make(chan struct{})}
	defer close(st.end)
	h, err := approvalpage.New(store.Bound(st, 100*time.Millisecond), approvalpage.Options{Token: token, Name: "ann"})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer srv.Close()
	start := time.Now()
	res := get(t, srv.URL+"/pending", token)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Equal(t, http.StatusInternalServerError, res.StatusCode)
	var b strings.Builder
	_, _ = bufio.NewReader(res.Body).WriteTo(&b)
	assert.Contains(t, b.String(), "the store failed: store: no answer before the deadline (listing approvals, 100ms)")
}
