package runtime

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/toolgate/toolgate/permission"
)

// DefaultAskTimeout is how long [AskWithTimeout] waits for a person.
const DefaultAskTimeout = 120 * time.Second

// Choice is a person's answer to a request for approval. The zero value is
// Deny.
type Choice uint8

const (
	// Deny refuses the call.
	Deny Choice = iota
	// AllowOnce lets this one call run.
	AllowOnce
	// AllowAlways lets this call run and records session rules allowing
	// exactly what was asked (see [AllowAlwaysRules]).
	AllowAlways
)

// String returns "deny", "allow-once" or "allow-always"; an out-of-range
// value prints as "deny(N)".
func (c Choice) String() string {
	switch c {
	case Deny:
		return "deny"
	case AllowOnce:
		return "allow-once"
	case AllowAlways:
		return "allow-always"
	}
	return fmt.Sprintf("deny(%d)", uint8(c))
}

// Answer is the reply to a [Request]. The zero value is a Deny.
type Answer struct {
	// Choice is what the person chose.
	Choice Choice
	// Reason explains the choice; for a Deny it is shown to the model.
	Reason string
}

// Request asks a person to approve one call.
type Request struct {
	// ID identifies the request, unique among pending ones; [ChanAsker]
	// assigns one when empty.
	ID string
	// Session is the session's id.
	Session string
	// Tool is the tool's name.
	Tool string
	// Input is the call's input as the checks saw it.
	Input json.RawMessage
	// Layer, Rule and Reason say why the call needs approval.
	Layer  permission.Layer
	Rule   string
	Reason string
	// Commands lists, for a shell call, the argv of each simple command.
	Commands [][]string
	// AlwaysRules are the session rules an AllowAlways answer would record;
	// empty when AllowAlways is not offered (it then counts as AllowOnce).
	AlwaysRules []string
	// Explanation is the layer-by-layer account of the decision (see
	// [Explain]).
	Explanation string
}

// Asker asks a person to approve a call. The host supplies it. Ask blocks
// until the person answers or ctx is done; it must be safe for concurrent
// use. An error is taken as a Deny.
type Asker interface {
	Ask(ctx context.Context, req Request) (Answer, error)
}

// AskerFunc adapts a function to [Asker].
type AskerFunc func(ctx context.Context, req Request) (Answer, error)

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, req Request) (Answer, error) { return f(ctx, req) }

// AskWithTimeout asks a through a context that expires after timeout
// (DefaultAskTimeout when timeout <= 0) and fails closed: no asker, an
// error, a panic, an expired wait or an unknown choice is a Deny whose
// reason says so.
//
// The wait is bounded even for an Asker that ignores its context: it is
// asked on a goroutine of its own, and once the context is done it has
// askGrace (50 ms) to return (an Asker that honours its context, such as
// [ChanAsker], withdraws its request in that time, before AskWithTimeout
// returns); after that its answer no longer counts, and its goroutine ends
// when it returns.
func AskWithTimeout(ctx context.Context, a Asker, req Request, timeout time.Duration) Answer {
	if a == nil {
		return Answer{Reason: "approval needed but no one can be asked"}
	}
	if timeout <= 0 {
		timeout = DefaultAskTimeout
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, errAskTimeout)
	defer cancel()
	type reply struct {
		ans Answer
		err error
	}
	done := make(chan reply, 1) // the asker never blocks on a late reply
	go func() {
		var r reply
		defer func() {
			if p := recover(); p != nil {
				r = reply{err: fmt.Errorf("the asker panicked: %v", p)}
			}
			done <- r
		}()
		r.ans, r.err = a.Ask(ctx, req)
	}()
	var r reply
	select {
	case r = <-done:
	case <-ctx.Done():
		grace := time.NewTimer(askGrace)
		select {
		case r = <-done:
		case <-grace.C:
		}
		grace.Stop()
	}
	switch {
	case errors.Is(context.Cause(ctx), errAskTimeout) && (r.err != nil || ctx.Err() != nil):
		return Answer{Reason: fmt.Sprintf("no answer within %s: denied", timeout)}
	case r.err != nil:
		return Answer{Reason: "approval failed: " + r.err.Error()}
	case ctx.Err() != nil:
		return Answer{Reason: "approval abandoned: " + context.Cause(ctx).Error()}
	case r.ans.Choice > AllowAlways:
		return Answer{Reason: fmt.Sprintf("approval returned an unknown choice %s: denied", r.ans.Choice)}
	case r.ans.Choice == Deny && r.ans.Reason == "":
		r.ans.Reason = "denied by the user"
	}
	return r.ans
}

// askGrace is how long an Asker has to return once its context is done.
const askGrace = 50 * time.Millisecond

var errAskTimeout = errors.New("runtime: approval timed out")

// ErrUnknownRequest is returned by [ChanAsker.Resolve] for an id that is not
// pending.
var ErrUnknownRequest = errors.New("runtime: no pending request with that id")

// ChanAsker is an [Asker] that parks each request until something resolves
// it by id: the base for an HTTP or SSE front end, which lists
// [ChanAsker.Pending] and posts the person's answer to [ChanAsker.Resolve].
// It is safe for concurrent use; the zero value is ready.
type ChanAsker struct {
	// OnRequest, if set, is called (outside any lock, on the asking
	// goroutine) when a request becomes pending, e.g. to push it over SSE.
	OnRequest func(Request)

	mu      sync.Mutex
	seq     uint64
	pending map[string]*parked
	order   []string
}

type parked struct {
	req Request
	ch  chan Answer // buffered 1
}

// Ask parks req until [ChanAsker.Resolve] answers it or ctx is done (then
// it returns a Deny and the context's error). An empty ID is replaced by
// "ask-N"; an ID already pending is an error.
func (c *ChanAsker) Ask(ctx context.Context, req Request) (Answer, error) {
	c.mu.Lock()
	c.seq++
	if req.ID == "" {
		req.ID = fmt.Sprintf("ask-%d", c.seq)
	}
	if _, dup := c.pending[req.ID]; dup {
		c.mu.Unlock()
		return Answer{Reason: "duplicate approval request id"}, fmt.Errorf("runtime: request %q is already pending", req.ID)
	}
	if c.pending == nil {
		c.pending = make(map[string]*parked)
	}
	p := &parked{req: req, ch: make(chan Answer, 1)}
	c.pending[req.ID] = p
	c.order = append(c.order, req.ID)
	c.mu.Unlock()
	if c.OnRequest != nil {
		c.OnRequest(req)
	}
	select {
	case a := <-p.ch:
		return a, nil
	case <-ctx.Done():
		c.remove(req.ID)
		select { // an answer that raced the deadline still counts
		case a := <-p.ch:
			return a, nil
		default:
		}
		return Answer{Reason: "approval abandoned: " + context.Cause(ctx).Error()}, ctx.Err()
	}
}

// Pending returns the requests waiting for an answer, oldest first.
func (c *ChanAsker) Pending() []Request {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Request, 0, len(c.order))
	for _, id := range c.order {
		out = append(out, c.pending[id].req)
	}
	return out
}

// Resolve answers the pending request id. An unknown or already answered
// id is [ErrUnknownRequest].
func (c *ChanAsker) Resolve(id string, a Answer) error {
	p := c.remove(id)
	if p == nil {
		return fmt.Errorf("%w: %q", ErrUnknownRequest, id)
	}
	p.ch <- a
	return nil
}

func (c *ChanAsker) remove(id string) *parked {
	c.mu.Lock()
	defer c.mu.Unlock()
	p, ok := c.pending[id]
	if !ok {
		return nil
	}
	delete(c.pending, id)
	for i, o := range c.order {
		if o == id {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	return p
}

// broadWrappers are commands that run other code given in their arguments
// or change who or how a command runs. A rule allowing one of them would
// allow arbitrary code, so [AllowAlwaysRules] refuses them whatever the
// arguments.
var broadWrappers = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "fish": true,
	"csh": true, "tcsh": true, "busybox": true,
	"env": true, "sudo": true, "doas": true, "su": true, "pkexec": true, "runuser": true,
	"chroot": true, "nsenter": true, "unshare": true, "setsid": true, "nohup": true, "nice": true,
	"ionice": true, "timeout": true, "time": true, "stdbuf": true, "xargs": true, "exec": true,
	"eval": true, "command": true, "builtin": true, "source": true, ".": true, "watch": true,
	"flock": true, "strace": true, "ltrace": true, "gdb": true, "script": true, "parallel": true,
	"ssh": true, "docker": true, "podman": true, "kubectl": true,
	"python": true, "python2": true, "python3": true, "pypy": true, "pypy3": true,
	"node": true, "nodejs": true, "deno": true, "bun": true, "npx": true,
	"ruby": true, "perl": true, "php": true, "lua": true, "tclsh": true, "Rscript": true,
	"osascript": true, "pwsh": true, "powershell": true, "awk": true, "gawk": true, "mawk": true,
}

var versionedInterpreter = regexp.MustCompile(`^(python|pypy|ruby|perl|php|lua)[0-9.]+$`)

// AlwaysRuleError says why [AllowAlwaysRules] refused a command.
type AlwaysRuleError struct {
	// Index is the command's position in the list.
	Index int
	// Command is the refused argv.
	Command []string
	// Reason says why.
	Reason string
}

func (e *AlwaysRuleError) Error() string {
	return fmt.Sprintf("runtime: no allow-always rule for command %d %q: %s", e.Index, e.Command, e.Reason)
}

// AllowAlwaysRules returns the session rules to record when a person
// answers AllowAlways to a shell call of tool whose simple commands are
// commands (argv after quote removal): one rule per command, allowing
// exactly that command, such as `Bash(git status)`; words are quoted for
// the shell where needed. It never returns a prefix rule. It refuses, with
// an [*AlwaysRuleError], an empty command, a broad wrapper or interpreter
// (bash, sh, env, sudo, python, node, xargs, …, whatever the arguments), and
// a word holding '*' (a wildcard in rule syntax) or a control character.
// Identical commands give one rule.
func AllowAlwaysRules(tool string, commands [][]string) ([]string, error) {
	if !validToolName(tool) {
		return nil, fmt.Errorf("runtime: invalid tool name %q", tool)
	}
	if len(commands) == 0 {
		return nil, errors.New("runtime: no commands to allow")
	}
	rules := make([]string, 0, len(commands))
	seen := make(map[string]bool, len(commands))
	for i, argv := range commands {
		fail := func(reason string) ([]string, error) {
			return nil, &AlwaysRuleError{Index: i, Command: argv, Reason: reason}
		}
		if len(argv) == 0 || argv[0] == "" {
			return fail("empty command")
		}
		name := path.Base(argv[0])
		if broadWrappers[name] || versionedInterpreter.MatchString(name) {
			return fail(name + " runs arbitrary code or commands: allow it once instead")
		}
		words := make([]string, len(argv))
		for j, w := range argv {
			if strings.ContainsRune(w, '*') {
				return fail("word " + fmt.Sprint(j) + " holds '*', which a rule would read as a wildcard")
			}
			if strings.IndexFunc(w, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
				return fail("word " + fmt.Sprint(j) + " holds a control character")
			}
			words[j] = shellQuote(w)
		}
		r := tool + "(" + strings.Join(words, " ") + ")"
		if !seen[r] {
			seen[r] = true
			rules = append(rules, r)
		}
	}
	return rules, nil
}

// shellQuote returns w unchanged when it has no shell-special characters,
// and in single quotes otherwise.
func shellQuote(w string) string {
	if w == "" {
		return "''"
	}
	if strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("-_./:=,+@%^", r))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}
