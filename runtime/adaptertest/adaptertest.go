package adaptertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolgate/toolgate/hooks"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/tool"
)

// Framework describes an adapter under test: the ways its framework calls
// a tool, and how the adapter names tools on the pipeline.
type Framework struct {
	// Prefix is what the adapter puts before a tool's name to make its
	// pipeline name (gosdk's and mcpgo's Options.Prefix); the kit
	// registers and rules the tool as Prefix + [Tool.Name].
	Prefix string
	// Field is the input member that holds the path the kit's tool
	// reads; empty means "path". An adapter whose framework gives a tool
	// one string (langchaingo's {"input": …}) names its member.
	Field string
	// Registers says the adapter registers the tool on the pipeline
	// itself, from [Tool.Traits] (langchaingo.Wrap); otherwise the kit
	// registers it before [Path.Call].
	Registers bool
	// Paths are every way the framework can call a tool. Each one is
	// driven through every scenario.
	Paths []Path
}

// Path is one way a framework calls a tool.
type Path struct {
	// Name names the path in failures ("invokable", "task tool", …).
	Name string
	// Call builds the framework with the adapter over p, gives it t in
	// the shape this path needs, has the framework call t once with input
	// as a model's call would (the framework's own input type carrying
	// these JSON members), and returns the text the model would read next:
	// the tool message, the observation, the result's text parts. An error
	// is a failure of the harness, never the way a refusal is reported;
	// an error the framework returns to the model belongs in the text.
	Call func(ctx context.Context, p *runtime.Pipeline, t Tool, input json.RawMessage) (string, error)
}

// Tool is the tool the kit gives the framework.
type Tool struct {
	// Name is its name in the framework.
	Name string
	// Traits are its roles, for an adapter that registers it itself
	// ([Framework.Registers]).
	Traits tool.Traits
	// Run is its body: call it with the call's input as a JSON object and
	// return its output as the tool's result. It reads the file the
	// input names.
	Run func(ctx context.Context, input json.RawMessage) (string, error)
}

// The token the kit's hook redacts, and the texts of the files it reads.
const (
	token       = "kit-token-5f1c"
	redacted    = "kit-token-***"
	blockReason = "blocked by the conformance kit's PreToolUse hook"
	stopReason  = "stopped by the conformance kit while the call was judged"
	decoyText   = "the decoy file: the model named it, a hook rewrote the input"
	outsideText = "a file outside the roots"
)

// Run drives every path of f through every scenario, each as a subtest.
func Run(t *testing.T, f Framework) {
	t.Helper()
	if len(f.Paths) == 0 {
		t.Fatal("adaptertest: the framework has no paths")
	}
	for _, p := range f.Paths {
		t.Run(p.Name, func(t *testing.T) {
			for _, s := range scenarios {
				t.Run(s.name, func(t *testing.T) {
					for _, err := range check(t.Context(), f, p, s) {
						t.Error(err)
					}
				})
			}
		})
	}
}

// Test runs what [Run] runs without a testing framework and returns every
// violation, joined with errors.Join, or nil.
func Test(ctx context.Context, f Framework) error {
	if len(f.Paths) == 0 {
		return errors.New("adaptertest: the framework has no paths")
	}
	var errs []error
	for _, p := range f.Paths {
		for _, s := range scenarios {
			for _, err := range check(ctx, f, p, s) {
				errs = append(errs, fmt.Errorf("%s/%s: %w", p.Name, s.name, err))
			}
		}
	}
	return errors.Join(errs...)
}

// world is one scenario's workspace, pipeline and records.
type world struct {
	dir, inside, decoy, outside string
	field                       string
	mu                          sync.Mutex
	ran                         []string                 // the paths the tool read
	posts                       []hooks.PostToolUseEvent // what After's hooks saw
}

func (w *world) record(e hooks.PostToolUseEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.posts = append(w.posts, e)
}

func (w *world) snapshot() ([]string, []hooks.PostToolUseEvent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.ran...), append([]hooks.PostToolUseEvent(nil), w.posts...)
}

// input is the call's input naming path.
func (w *world) input(path string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{w.field: path})
	return b
}

// newWorld lays out the workspace and builds the pipeline for s.
func newWorld(f Framework, s scenario) (*world, *runtime.Pipeline, Tool, func(), error) {
	base, err := os.MkdirTemp("", "adaptertest-")
	if err != nil {
		return nil, nil, Tool{}, nil, err
	}
	cleanup := func() { os.RemoveAll(base) }
	fail := func(err error) (*world, *runtime.Pipeline, Tool, func(), error) {
		cleanup()
		return nil, nil, Tool{}, nil, err
	}
	if base, err = filepath.EvalSymlinks(base); err != nil {
		return fail(err)
	}
	w := &world{dir: filepath.Join(base, "work"), field: f.Field}
	if w.field == "" {
		w.field = "path"
	}
	w.inside, w.decoy = filepath.Join(w.dir, "notes.txt"), filepath.Join(w.dir, "decoy.txt")
	w.outside = filepath.Join(base, "elsewhere", "other.txt")
	for name, body := range map[string]string{w.inside: "notes: " + token, w.decoy: decoyText, w.outside: outsideText} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return fail(err)
		}
		if err := os.WriteFile(name, []byte(body), 0o644); err != nil {
			return fail(err)
		}
	}
	name := "kit_read"
	full := f.Prefix + name
	var p *runtime.Pipeline
	set := hooks.NewSet(hooks.Hook{
		Name: "kit",
		PreToolUse: func(_ context.Context, e hooks.PreToolUseEvent) (hooks.PreToolUseResult, error) {
			if e.ToolName != full {
				return hooks.PreToolUseResult{}, nil
			}
			if s.cancel {
				// The session is cancelled while its call is judged, from
				// elsewhere; the hook itself lets the call through.
				_ = p.Cancel(context.Background(), e.SessionID, stopReason)
				return hooks.PreToolUseResult{}, nil
			}
			if s.block {
				return hooks.Block(blockReason), nil
			}
			if s.mutate {
				return hooks.MutateInput(w.input(w.inside), ""), nil
			}
			return hooks.PreToolUseResult{}, nil
		},
		PostToolUse: func(_ context.Context, e hooks.PostToolUseEvent) (hooks.PostToolUseResult, error) {
			w.record(e)
			if strings.Contains(e.Output, token) {
				return hooks.MutateOutput(strings.ReplaceAll(e.Output, token, redacted)), nil
			}
			return hooks.PostToolUseResult{}, nil
		},
	})
	rules := permission.Config{Allow: []string{full}}
	if s.ask {
		rules = permission.Config{Ask: []string{full}, Default: permission.Allow}
	}
	p, err = runtime.Open(runtime.Workspace{Dir: w.dir, Rules: rules, Hooks: set})
	if err != nil {
		set.Close()
		return fail(err)
	}
	traits := tool.Traits{Kind: permission.KindRead, PathFields: []string{w.field}, RequiredFields: []string{w.field}}
	if !f.Registers {
		if err := p.AddTools(&tool.Descriptor{ToolName: full, Base: traits}); err != nil {
			set.Close()
			return fail(err)
		}
	}
	t := Tool{Name: name, Traits: traits, Run: func(_ context.Context, input json.RawMessage) (string, error) {
		var in map[string]any
		if err := json.Unmarshal(input, &in); err != nil {
			return "", fmt.Errorf("kit_read: the input is not a JSON object: %v", err)
		}
		path, _ := in[w.field].(string)
		w.mu.Lock()
		w.ran = append(w.ran, path)
		w.mu.Unlock()
		b, err := os.ReadFile(path)
		return string(b), err
	}}
	return w, p, t, func() { p.Close(); set.Close(); cleanup() }, nil
}

// scenario is one call the kit makes through each path.
type scenario struct {
	name string
	// block, mutate, cancel and ask set the kit's hook and rules up.
	block, mutate, cancel, ask bool
	// target names the file the call names.
	target func(w *world) string
	// allowed says the tool must run, with the input naming runs.
	allowed bool
	runs    func(w *world) string
	// reason is what the reason must say, beside the one After saw.
	reason string
}

var scenarios = []scenario{
	{name: "allowed", target: func(w *world) string { return w.inside }, allowed: true, runs: func(w *world) string { return w.inside }},
	{name: "outside the roots", target: func(w *world) string { return w.outside }, reason: "outside"},
	{name: "blocked by a hook", block: true, target: func(w *world) string { return w.inside }, reason: blockReason},
	{name: "session cancelled during the check", cancel: true, target: func(w *world) string { return w.inside }, reason: stopReason},
	{name: "ask with nobody to ask", ask: true, target: func(w *world) string { return w.inside }, reason: "ask rule"},
	{name: "input rewritten by a hook", mutate: true, target: func(w *world) string { return w.decoy }, allowed: true,
		runs: func(w *world) string { return w.inside }},
}

// callTimeout bounds one call through a path.
const callTimeout = time.Minute

// check makes the call of s through p and returns every violation.
func check(ctx context.Context, f Framework, p Path, s scenario) []error {
	w, pl, t, done, err := newWorld(f, s)
	if err != nil {
		return []error{fmt.Errorf("adaptertest: setting up: %w", err)}
	}
	defer done()
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	text, err := p.Call(ctx, pl, t, w.input(s.target(w)))
	if err != nil {
		return []error{fmt.Errorf("the harness failed: %w", err)}
	}
	ran, posts := w.snapshot()
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if len(posts) != 1 {
		bad("After's PostToolUse hooks saw %d calls, want 1: every call Check answered goes through After once", len(posts))
	}
	if s.allowed {
		want := s.runs(w)
		switch {
		case len(ran) != 1:
			bad("the tool ran %d times, want once", len(ran))
		case ran[0] != want:
			bad("the tool ran with %q, want %q: the tool must run with the input Check admitted (Verdict.Input)", ran[0], want)
		}
		if len(posts) > 0 {
			e := posts[0]
			if e.Decision != permission.Allow {
				bad("After saw decision %s (%s), want allow", e.Decision, e.Reason)
			}
			if !strings.Contains(e.Output, token) {
				bad("After saw output %q, want the tool's output (%q): give After what the tool returned", e.Output, "notes: "+token)
			}
		}
		if strings.Contains(text, token) {
			bad("the model read %q: the unredacted output, not what the PostToolUse hooks left (%q)", text, redacted)
		}
		if !strings.Contains(text, redacted) {
			bad("the model read %q, want the output as the PostToolUse hooks left it (%q)", text, "notes: "+redacted)
		}
		return errs
	}
	if len(ran) != 0 {
		bad("the tool ran (with %q): a refused call must not run", ran)
	}
	if strings.Contains(text, token) || strings.Contains(text, outsideText) {
		bad("the model read the file's content (%q) for a refused call", text)
	}
	if len(posts) > 0 {
		e := posts[0]
		if e.Decision != permission.Deny {
			bad("After saw decision %s, want deny (an Ask with nobody to ask is a Deny)", e.Decision)
		}
		if e.Reason == "" || !strings.Contains(text, e.Reason) {
			bad("the model read %q, which lacks the reason After saw (%q)", text, e.Reason)
		}
		if !strings.Contains(e.Reason, s.reason) {
			bad("the reason %q does not say %q", e.Reason, s.reason)
		}
	}
	if !strings.Contains(text, s.reason) {
		bad("the model read %q, which does not say %q", text, s.reason)
	}
	return errs
}
