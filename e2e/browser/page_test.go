package browser_test

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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
		t.Fatal("CI must have chromium: .ci/setup installs it")
	}
	t.Skip("SKIPPED LOUDLY: Chromium is not installed (.ci/setup installs it): the page is not tested in a browser")
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

// A pending call shows on the page as a person needs it: the project, the
// agent and session, when it asked and a live countdown, the command first
// with the command that asks marked, the reason in a sentence with the
// full trace folded away, and the exact rule "allow always" adds for the
// scope chosen. The keys answer it ("A" allow always, "d" deny); the
// page fits a phone's width; the page refuses a request without its token
// and a replayed answer token. Screenshots go to the test's artifact
// directory (go test -artifacts keeps them).
func TestApprovalPageInChromium(t *testing.T) {
	ctx := browser(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	st := store.NewMemory()
	asker := approval.NewStoreAsker(st, dir, "ann")
	defer asker.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask, Allow: []string{"Bash(git status)"}},
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
	check := func(cmd string) {
		go func() {
			done <- p.Check(context.Background(), runtime.Call{Session: "s1", Tool: "Bash", Input: json.RawMessage(`{"command":` + jsString(cmd) + `}`)})
		}()
	}
	verdict := func() runtime.Verdict {
		t.Helper()
		select {
		case v := <-done:
			return v
		case <-time.After(30 * time.Second):
			t.Fatal("the waiting call never returned")
		}
		return runtime.Verdict{}
	}
	check("git status && make build")

	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1100, 900),
		chromedp.Navigate(srv.URL+"/?token="+token),
		chromedp.WaitVisible(chromedp.CSS(`.item button[data-choice="allow-once"]`)),
	))
	// What a person sees (innerText: rendered text only, the folded trace
	// left out).
	seen := func() string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".item").innerText`))
		require.NoError(t, err)
		return s
	}
	text := seen()
	t.Logf("the card as shown:\n%s", text)
	for _, want := range []string{
		"project " + dir, "agent lead · session s1", "asked at ",
		"git status && make build",
		"Why it asks: ",
		"Allow once", "Deny", "Allow always",
		"Allow always adds the rule Bash(make build) for this session (s1).",
		"Full trace and input",
	} {
		assert.Contains(t, text, want)
	}
	assert.NotContains(t, text, "overrode", "the trace is folded away")
	assert.NotContains(t, text, `"command"`, "the raw input is folded away too")
	marked, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".item pre.command mark")].map(m => m.textContent)`))
	require.NoError(t, err)
	assert.Equal(t, []string{"make build"}, marked, "the command that asks is marked, git status (allowed) is not")
	first, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { const c = document.querySelector(".item pre.command"), r = document.querySelector(".item .reason");
		return c.getBoundingClientRect().top < r.getBoundingClientRect().top && !document.querySelector(".item details.trace").open; })()`))
	require.NoError(t, err)
	assert.True(t, first, "the command comes before the reason; the trace is closed")

	// The countdown is live: it reads the time left and goes down.
	countdown := func() time.Duration {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.item .countdown`)))
		require.NoError(t, err)
		m := regexp.MustCompile(`^expires in (\d+):(\d\d)$`).FindStringSubmatch(s)
		require.NotNil(t, m, "countdown %q", s)
		mins, _ := strconv.Atoi(m[1])
		secs, _ := strconv.Atoi(m[2])
		return time.Duration(mins)*time.Minute + time.Duration(secs)*time.Second
	}
	c0 := countdown()
	assert.True(t, c0 > 50*time.Second && c0 <= time.Minute, "a minute to answer, shown as %s", c0)
	time.Sleep(2500 * time.Millisecond)
	c1 := countdown()
	assert.True(t, c1 <= c0-2*time.Second && c1 >= c0-4*time.Second, "the countdown went from %s to %s in 2.5 s", c0, c1)

	// The trace unfolds on demand.
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`.item details.trace summary`))))
	explanation, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.item .explanation`)))
	require.NoError(t, err)
	assert.Contains(t, explanation, "ask Bash: ")
	assert.Contains(t, explanation, "command make build at 1:15")
	screenshot(t, ctx, "approval-page.png")

	// On a phone's width nothing runs off the side.
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile, chromedp.EmulateScale(2))))
	over, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll("body *")].filter(e => e.getBoundingClientRect().right > 390.5).map(e => e.tagName + "." + e.className)`))
	require.NoError(t, err)
	assert.Empty(t, over, "elements wider than a phone's screen (390 px)")
	vp, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('meta[name="viewport"]').content`))
	require.NoError(t, err)
	assert.Equal(t, "width=device-width, initial-scale=1", vp)
	screenshot(t, ctx, "approval-page-phone.png")
	require.NoError(t, chromedp.Do(ctx, chromedp.EmulateViewport(1100, 900)))

	// The scope chooser says what the rule would reach; "A" allows always
	// for the scope chosen.
	run(t, ctx, `const s = document.querySelector(".item select.scope"); s.value = "project"; s.dispatchEvent(new Event("change"))`)
	assert.Contains(t, seen(), "Allow always adds the rule Bash(make build) for the project "+dir+" (every session in it).")
	// The answer token the page holds, read as the page's own script would.
	pend, err := chromedp.Run(ctx, chromedp.Evaluate[[]approvalpage.Item](`fetch("pending", {headers: {"Authorization": "Bearer " + sessionStorage.getItem("toolgate-approval-token")}}).then(r => r.json())`,
		chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	require.Len(t, pend, 1)
	tok, id := pend[0].AnswerToken, pend[0].ID
	require.NotEmpty(t, tok)
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("A"), chromedp.WaitVisible(chromedp.CSS(`#empty`))))
	v := verdict()
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Equal(t, "person:allow-always", string(v.Rule))
	assert.Contains(t, v.Reason, "; added project rules Bash(make build)", "the scope the person chose, named")
	// The card leaves when the event stream brings the new pending list,
	// which may come before the answer's own response sets the status
	// line: wait for the status, a bounded while.
	var status string
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(20 * time.Millisecond) {
		status, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#status`)))
		require.NoError(t, err)
		if strings.HasPrefix(status, "answered") {
			break
		}
	}
	assert.Equal(t, "answered Bash: allow always for the project "+dir+" (every session in it)", status)

	// "d" denies the next one.
	check("make test")
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`.item:not(.expired) button[data-choice="deny"]:enabled`))))
	require.NoError(t, chromedp.Do(ctx, chromedp.KeyEvent("d")))
	v = verdict()
	assert.Equal(t, permission.Deny, v.Decision)
	assert.Equal(t, runtime.RuleDenied, v.Rule, v.Reason)
	assert.True(t, strings.HasPrefix(v.Reason, "the person denied it"), v.Reason)

	// The same answer token again, from the page: refused.
	replay, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch("answer", {method: "POST",
		headers: {"Content-Type": "application/json", "X-Toolgate-Answer-Token": `+jsString(tok)+`,
			"Authorization": "Bearer " + sessionStorage.getItem("toolgate-approval-token")},
		body: JSON.stringify({id: `+jsString(id)+`, choice: "allow-once"})}).then(async r => r.status + " " + await r.text())`,
		chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	assert.Contains(t, replay, "403 the answer token is unknown, already used")
}

// A parked approval nobody answers counts down to zero and then says that
// it expired and the call was denied, instead of vanishing; the call's
// Resume is that Deny.
func TestApprovalPageShowsExpiry(t *testing.T) {
	ctx := browser(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	st := store.NewMemory()
	p, err := runtime.Open(runtime.Workspace{Dir: dir, Rules: permission.Config{Default: permission.Ask},
		Store: st, ParkTimeout: 4 * time.Second})
	require.NoError(t, err)
	defer p.Close()
	_, err = p.Session(context.Background(), runtime.SessionOptions{ID: "s2"})
	require.NoError(t, err)
	h, err := approvalpage.New(st, approvalpage.Options{Token: token, Name: "ann"})
	require.NoError(t, err)
	srv := httptest.NewServer(h)
	defer func() { srv.CloseClientConnections(); srv.Close() }()

	v := p.Check(context.Background(), runtime.Call{Session: "s2", Tool: "Write",
		Input: json.RawMessage(`{"file_path":` + jsString(filepath.Join(dir, "notes.md")) + `,"content":"hello"}`)})
	require.Equal(t, permission.Ask, v.Decision, v.Reason)
	require.NotEmpty(t, v.Ticket, "parked")
	require.NoError(t, chromedp.Do(ctx,
		chromedp.EmulateViewport(1100, 900),
		chromedp.Navigate(srv.URL+"/?token="+token),
		chromedp.WaitVisible(chromedp.CSS(`.item button[data-choice="allow-once"]`)),
	))
	cd, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.item .countdown`)))
	require.NoError(t, err)
	assert.Regexp(t, `^expires in 0:0[1-4]$`, cd)
	text, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".item").innerText`))
	require.NoError(t, err)
	assert.Contains(t, text, "file_path")
	assert.Contains(t, text, filepath.Join(dir, "notes.md"), "a file tool shows its path first")

	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`.item.expired .expired-note`))))
	note, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.item.expired .expired-note`)))
	require.NoError(t, err)
	assert.Regexp(t, `^Expired at \d\d:\d\d:\d\d with no answer: the call was denied\.$`, note)
	cd, err = chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`.item .countdown`)))
	require.NoError(t, err)
	assert.Equal(t, "expired", cd)
	disabled, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`[...document.querySelectorAll(".item button[data-choice]")].every(b => b.disabled)`))
	require.NoError(t, err)
	assert.True(t, disabled, "an expired approval cannot be answered")
	// The server's next list (it no longer holds the approval) leaves
	// the card saying it expired.
	run(t, ctx, `render([])`)
	still, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".item.expired .expired-note").innerText`))
	require.NoError(t, err)
	assert.Equal(t, note, still)
	screenshot(t, ctx, "approval-page-expired.png")

	rv, err := p.Resume(context.Background(), v.Ticket)
	require.NoError(t, err)
	assert.Equal(t, permission.Deny, rv.Decision)
	assert.Equal(t, runtime.RuleTimeout, rv.Rule)
	assert.Contains(t, rv.Reason, "no answer by ")
}

// run runs a statement in the page.
func run(t *testing.T, ctx context.Context, stmt string) {
	t.Helper()
	_, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(() => { `+stmt+`; return true; })()`))
	require.NoError(t, err)
}

// screenshot saves the whole page as a PNG in the test's artifact
// directory and logs where.
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	path := filepath.Join(t.ArtifactDir(), name)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	t.Logf("screenshot: %s", path)
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
