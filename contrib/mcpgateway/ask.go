package mcpgateway

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
)

// approvalID names the gateway's question in a multi round-trip call.
const approvalID = "toolgate-approval"

// maxPending and maxSessionPending bound the questions waiting for an
// answer (or kept to tell a late answer it is late), over every client
// session and in one; past either an Ask is a Deny.
const (
	maxPending        = 1024
	maxSessionPending = 32
)

// lateAnswers is the least time a timed-out question is kept, so that a
// late answer is told it is late rather than asked again.
const lateAnswers = time.Minute

// multiRoundTrip is the first protocol version in which a server asks
// inside a tool call by returning input requests (SEP-2322) rather than by
// sending an elicitation request of its own.
const multiRoundTrip = "2026-07-28"

// pending is a question put to a client of the multi round-trip protocol:
// the call it is about, its verdict, and the timer that denies it once
// AskTimeout has passed without an answer.
type pending struct {
	sid   string
	tool  string
	input []byte // the call's input, canonical
	call  runtime.Call
	v     runtime.Verdict
	timer *time.Timer
	// fired says the question timed out: its Deny is recorded, and
	// refusal, once done is closed, is the text the call was refused
	// with, for an answer that comes later.
	fired   bool
	done    chan struct{}
	refusal string
}

// questions holds the pending questions, by their request state: a random
// token that the client echoes with its answer and that is good once.
type questions struct {
	mu sync.Mutex
	m  map[string]*pending
}

// askOutcome is what asking gave: the verdict to go on with, or (for a
// client of the multi round-trip protocol) the result that asks.
type askOutcome struct {
	v      runtime.Verdict
	result *mcp.CallToolResult
}

// ask puts the Ask v of call to the person through the client's
// elicitation, bounded by Options.AskTimeout. Accepted is an Allow;
// declined, cancelled, no answer in time, a failure or a client without
// elicitation is a Deny with the reason. A client of the multi round-trip
// protocol gets the question as the call's result (input requests) and
// calls again with the answer ([Gateway.answered]); an older one is sent
// an elicitation request here and its answer awaited.
func (g *Gateway) ask(ctx context.Context, req *mcp.CallToolRequest, call runtime.Call, v runtime.Verdict) askOutcome {
	ss := req.Session
	ip := ss.InitializeParams()
	if ip == nil || ip.Capabilities == nil || ip.Capabilities.Elicitation == nil {
		return askOutcome{v: denied(v, "mcp:no-elicitation", "needs the person's approval, and the client cannot ask (no elicitation): "+v.Reason)}
	}
	params := &mcp.ElicitParams{
		Message:         question(call, v),
		RequestedSchema: map[string]any{"type": "object", "properties": map[string]any{}},
	}
	if ip.ProtocolVersion >= multiRoundTrip {
		return g.askLater(call, v, params)
	}
	actx, cancel := context.WithTimeout(ctx, g.opts.AskTimeout)
	defer cancel()
	res, err := ss.Elicit(actx, params)
	switch {
	case err == nil:
		return askOutcome{v: verdictOf(v, res.Action)}
	case ctx.Err() != nil:
		return askOutcome{v: denied(v, "mcp:ask-cancelled", "the call was cancelled while the person was asked: "+v.Reason)}
	case errors.Is(actx.Err(), context.DeadlineExceeded):
		return askOutcome{v: denied(v, "mcp:ask-timeout", fmt.Sprintf("no answer from the person within %s: %s", g.opts.AskTimeout, v.Reason))}
	}
	return askOutcome{v: denied(v, "mcp:ask-failed", "the person could not be asked ("+err.Error()+"): "+v.Reason)}
}

// askLater records the question and returns the result that asks it.
func (g *Gateway) askLater(call runtime.Call, v runtime.Verdict, params *mcp.ElicitParams) askOutcome {
	// The answer comes with the input again: it counts only for the same
	// input, compared in the form the pipeline compares calls by.
	canon, err := runtime.CanonicalInput(call.Input)
	if err != nil {
		return askOutcome{v: denied(v, "mcp:ask-failed", "the input cannot be put to the person ("+err.Error()+"): "+v.Reason)}
	}
	state := rand.Text()
	q := &pending{sid: call.Session, tool: call.Tool, input: canon, call: call, v: v, done: make(chan struct{})}
	g.asks.mu.Lock()
	inSession := 0
	for _, p := range g.asks.m {
		if p.sid == call.Session {
			inSession++
		}
	}
	if len(g.asks.m) >= maxPending || inSession >= maxSessionPending {
		g.asks.mu.Unlock()
		return askOutcome{v: denied(v, "mcp:ask-busy", fmt.Sprintf("too many questions wait for an answer (%d in this session, %d in all): %s",
			inSession, len(g.asks.m), v.Reason))}
	}
	g.asks.m[state] = q
	// Unanswered in time: denied and recorded as such; the question is
	// kept a while longer, so that a late answer is told so.
	q.timer = time.AfterFunc(g.opts.AskTimeout, func() {
		g.asks.mu.Lock()
		live := g.asks.m[state] == q
		q.fired = live
		g.asks.mu.Unlock()
		if !live {
			return
		}
		d := denied(q.v, "mcp:ask-timeout", fmt.Sprintf("no answer from the person within %s: %s", g.opts.AskTimeout, q.v.Reason))
		q.refusal = g.p.After(context.Background(), q.call, d, runtime.Run{}).Output
		close(q.done)
		time.AfterFunc(max(g.opts.AskTimeout, lateAnswers), func() { g.takeQuestion(state) })
	})
	g.asks.mu.Unlock()
	return askOutcome{result: &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{approvalID: params}, RequestState: state}}
}

// takeQuestion removes and returns the pending question of state, or nil.
func (g *Gateway) takeQuestion(state string) *pending {
	g.asks.mu.Lock()
	defer g.asks.mu.Unlock()
	q := g.asks.m[state]
	delete(g.asks.m, state)
	return q
}

// answer is what a multi round-trip answer settles.
type answer struct {
	call runtime.Call
	v    runtime.Verdict
	// refusal, when set, is the text the call was already refused with
	// (and recorded): the answer came after AskTimeout.
	refusal string
}

// answered returns what a multi round-trip answer settles, and true; or
// false when the request answers no question of this gateway about this
// session, tool and input, which is then judged afresh (an answer nobody
// was asked for allows nothing). A question is good once.
func (g *Gateway) answered(req *mcp.CallToolRequest, sid, tool string) (answer, bool) {
	resp, ok := req.Params.InputResponses[approvalID]
	state := req.Params.RequestState
	if !ok || state == "" {
		return answer{}, false
	}
	// An input the pipeline cannot read (a key twice, nested too deep)
	// answers nothing: judged afresh, Check refuses it with its reason.
	canon, err := runtime.CanonicalInput(args(req))
	if err != nil {
		return answer{}, false
	}
	g.asks.mu.Lock()
	q := g.asks.m[state]
	if q == nil || q.sid != sid || q.tool != tool || !bytes.Equal(canon, q.input) {
		g.asks.mu.Unlock()
		return answer{}, false
	}
	delete(g.asks.m, state)
	fired := q.fired
	g.asks.mu.Unlock()
	q.timer.Stop()
	if fired {
		<-q.done // the timeout's Deny is being recorded
		return answer{call: q.call, refusal: q.refusal}, true
	}
	er, _ := resp.(*mcp.ElicitResult)
	if er == nil {
		return answer{call: q.call, v: denied(q.v, "mcp:ask-failed", "the answer to the question is not an elicitation result: "+q.v.Reason)}, true
	}
	return answer{call: q.call, v: verdictOf(q.v, er.Action)}, true
}

// verdictOf turns the person's answer to v into the verdict.
func verdictOf(v runtime.Verdict, action string) runtime.Verdict {
	if action == "accept" {
		v.Decision, v.Reason = permission.Allow, "approved by the person: "+v.Reason
		return v
	}
	if action != "decline" && action != "cancel" {
		action = fmt.Sprintf("%.40q", action)
	}
	return denied(v, "mcp:ask-"+permission.RuleID(action), "the person answered "+action+": "+v.Reason)
}

func denied(v runtime.Verdict, rule permission.RuleID, reason string) runtime.Verdict {
	v.Decision, v.Rule, v.Reason = permission.Deny, rule, reason
	return v
}

// maxQuestionInput bounds the input shown in a question.
const maxQuestionInput = 2000

// question is the text put to the person.
func question(call runtime.Call, v runtime.Verdict) string {
	in := string(v.Input)
	if len(in) > maxQuestionInput {
		in = in[:maxQuestionInput] + fmt.Sprintf("… (%d bytes in all)", len(v.Input))
	}
	return fmt.Sprintf("Allow %s %s? %s", call.Tool, in, v.Reason)
}
