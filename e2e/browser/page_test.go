package browser_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/approval"
	"github.com/toolgate/toolgate/runtime/approvalpage"
	"github.com/toolgate/toolgate/runtime/store"
)

const token = "e2e-page-token-0123456789abcdef"

// chromium returns Debian's Chromium, or skips the test saying why.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("TOOLGATE_TEST_CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if _, err := exec.LookPath(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("CI must install chromium (apt-get install -y chromium): .ci/run does")
	}
	t.Skip("Chromium is not installed (apt-get install -y chromium): the page is not tested in a browser")
	return ""
}

func browser(t *testing.T) context.Context {
	t.Helper()
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium(t)),
		chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(filepath.Join(t.TempDir(), "profile")),
	)
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelA)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	require.NoError(t, chromedp.Do(ctx)) // start the browser, without a timeout
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(cancelT)
	return ctx
}

// A pending call shows on the page with its explanation; clicking "Allow
// once" lets the waiting Check return Allow; the page refuses a request
// without its token and a replayed answer token.
func TestApprovalPageInChromium(t *testing.T) {
	ctx := browser(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	st := store.NewMemory()
	asker := approval.NewStoreAsker(st, dir, "ann")
	defer asker.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask},
		Store: st, Asker: asker, AskTimeout: time.Minute})
	require.NoError(t, err)
	defer p.Close()
	_, err = p.Session(context.Background(), runtime.SessionOptions{ID: "s1"})
	require.NoError(t, err)
	h, err := approvalpage.New(st, approvalpage.Options{Token: token, Name: "ann"})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer func() { srv.CloseClientConnections(); srv.Close() }() // the page's event stream stays open

	// Without the token: refused.
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/")))
	body, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body")))
	require.NoError(t, err)
	assert.Contains(t, body, "a token is required")

	done := make(chan runtime.Verdict, 1)
	go func() {
		done <- p.Check(context.Background(), runtime.Call{Session: "s1", Tool: "Bash", Input: json.RawMessage(`{"command":"make build"}`)})
	}()

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Navigate(srv.URL+"/?token="+token),
		chromedp.WaitVisible(chromedp.CSS(`.item button[data-choice="allow-once"]`)),
	))
	explanation, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.item .explanation`)))
	require.NoError(t, err)
	always, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.item button[data-choice="allow-always"]`)))
	require.NoError(t, err)
	assert.Contains(t, explanation, "ask Bash: ")
	assert.Contains(t, explanation, "command make build")
	assert.Equal(t, "Allow always: adds Bash(make build)", always)

	// The answer token the page holds, read as the page's own script would.
	pend, err := chromedp.Run(ctx, chromedp.Evaluate[[]approvalpage.Item](`fetch("pending", {headers: {"Authorization": "Bearer " + sessionStorage.getItem("toolgate-approval-token")}}).then(r => r.json())`,
		chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	require.Len(t, pend, 1)
	tok, id := pend[0].AnswerToken, pend[0].ID
	require.NotEmpty(t, tok)

	require.NoError(t, chromedp.Do(ctx,
		chromedp.Click(chromedp.CSS(`.item button[data-choice="allow-once"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#empty`)),
	))
	status, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#status`)))
	require.NoError(t, err)
	select {
	case v := <-done:
		assert.Equal(t, permission.Allow, v.Decision, v.Reason)
		assert.Equal(t, "person:allow-once", string(v.Rule))
	case <-time.After(30 * time.Second):
		t.Fatal("the waiting call never returned")
	}
	assert.True(t, strings.HasPrefix(status, "answered ") || status == "live", status)

	// The same answer token again, from the page: refused.
	replay, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch("answer", {method: "POST",
		headers: {"Content-Type": "application/json", "X-Toolgate-Answer-Token": `+jsString(tok)+`,
			"Authorization": "Bearer " + sessionStorage.getItem("toolgate-approval-token")},
		body: JSON.stringify({id: `+jsString(id)+`, choice: "allow-once"})}).then(async r => r.status + " " + await r.text())`,
		chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.Contains(t, replay, "403 the answer token is unknown, already used")
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
