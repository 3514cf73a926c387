package sqlstore_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/approvalpage"
	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/sqlstore"
)

// The multi-process test runs this test binary again as each replica:
// with replicaEnv set to the workspace directory, TestMain runs
// replicaMain instead of the tests.
const (
	replicaEnv    = "TOOLGATE_TEST_REPLICA_DIR"
	replicaDSNEnv = "TOOLGATE_TEST_REPLICA_DSN"
	pageToken     = "replica-page-token-0123456789"
)

// cmd is one request to a replica, one JSON object a line on its stdin;
// it answers with a reply carrying the same Tag on its stdout.
type cmd struct {
	Tag     string `json:"tag"`
	Op      string `json:"op"`
	Session string `json:"session,omitempty"`
	Command string `json:"command,omitempty"`
	Rule    string `json:"rule,omitempty"`
	Ticket  string `json:"ticket,omitempty"`
	Reason  string `json:"reason,omitempty"`
	N       int    `json:"n,omitempty"`
}

type reply struct {
	Tag      string   `json:"tag"`
	Err      string   `json:"err,omitempty"`
	Decision string   `json:"decision,omitempty"`
	Rule     string   `json:"rule,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Ticket   string   `json:"ticket,omitempty"`
	URL      string   `json:"url,omitempty"`
	At       int64    `json:"at"` // when the replica saw it, Unix ns
	Results  []string `json:"results,omitempty"`
}

func replicaMain() int {
	ctx := context.Background()
	st, err := sqlstore.OpenPostgres(ctx, os.Getenv(replicaDSNEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	defer st.Close()
	p, err := runtime.Open(runtime.Workspace{Dir: os.Getenv(replicaEnv), Rules: permission.Config{Default: permission.Ask},
		Store: st, User: "ann", AskTimeout: 2 * time.Minute, Limits: runtime.Limits{MaxSteps: 1 << 20}})
	if err != nil {
		fmt.Fprintln(os.Stderr, "replica:", err)
		return 2
	}
	var outMu sync.Mutex
	enc := json.NewEncoder(os.Stdout)
	send := func(r reply) {
		if r.At == 0 {
			r.At = time.Now().UnixNano()
		}
		outMu.Lock()
		defer outMu.Unlock()
		_ = enc.Encode(r)
	}
	verdict := func(tag string, v runtime.Verdict) reply {
		return reply{Tag: tag, Decision: v.Decision.String(), Rule: string(v.Rule), Reason: v.Reason, Ticket: v.Ticket}
	}
	bash := func(session, command string) runtime.Call {
		in, _ := json.Marshal(map[string]string{"command": command})
		return runtime.Call{Session: session, Tool: "Bash", Input: in}
	}
	checkWait := func(c cmd) reply {
		v := p.Check(ctx, bash(c.Session, c.Command))
		if v.Ticket != "" {
			rctx, cancel := context.WithTimeout(ctx, time.Minute)
			defer cancel()
			rv, err := p.Resume(rctx, v.Ticket)
			if err != nil {
				return reply{Tag: c.Tag, Err: err.Error()}
			}
			v = rv
		}
		return verdict(c.Tag, v)
	}
	// live holds the sessions "start" started, read by this loop only.
	live := map[string]*runtime.Session{}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		var c cmd
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			send(reply{Err: err.Error()})
			continue
		}
		errReply := func(err error) reply {
			r := reply{Tag: c.Tag}
			if err != nil {
				r.Err = err.Error()
			}
			return r
		}
		switch c.Op {
		case "start":
			s, err := p.Session(ctx, runtime.SessionOptions{ID: c.Session})
			if err == nil {
				live[c.Session] = s
			}
			send(errReply(err))
		case "check":
			send(verdict(c.Tag, p.Check(ctx, bash(c.Session, c.Command))))
		case "checkwait":
			go func() { send(checkWait(c)) }()
		case "resume":
			go func() {
				rv, err := p.Resume(ctx, c.Ticket)
				if err != nil {
					send(errReply(err))
					return
				}
				send(verdict(c.Tag, rv))
			}()
		case "grant":
			send(errReply(p.Grant(ctx, store.ScopeSession, c.Session, c.Rule)))
		case "cancel":
			send(errReply(p.Cancel(ctx, c.Session, c.Reason)))
		case "waitrule":
			s, ok := live[c.Session]
			if !ok {
				send(reply{Tag: c.Tag, Err: "no session"})
				continue
			}
			go func() {
				for {
					for _, r := range s.Rules().Rules() {
						if r.Rule == c.Rule {
							send(reply{Tag: c.Tag})
							return
						}
					}
					time.Sleep(time.Millisecond)
				}
			}()
		case "waitcancel":
			s, ok := live[c.Session]
			if !ok {
				send(reply{Tag: c.Tag, Err: "no session"})
				continue
			}
			go func() {
				<-s.Context().Done()
				send(reply{Tag: c.Tag, Reason: context.Cause(s.Context()).Error()})
			}()
		case "asks":
			// N sessions each ask once, at the same time; the reply lists
			// each one's final decision and rule.
			go func() {
				res := make([]string, c.N)
				var wg sync.WaitGroup
				for i := range c.N {
					wg.Go(func() {
						id := fmt.Sprintf("%s-%d", c.Session, i)
						if _, err := p.Session(ctx, runtime.SessionOptions{ID: id}); err != nil {
							res[i] = "error: " + err.Error()
							return
						}
						r := checkWait(cmd{Session: id, Command: fmt.Sprintf("make t%d", i)})
						res[i] = id + " " + r.Decision + " " + r.Rule + r.Err
					})
				}
				wg.Wait()
				send(reply{Tag: c.Tag, Results: res})
			}()
		case "serve":
			h, err := approvalpage.New(st, approvalpage.Options{Token: pageToken, Name: "ann"})
			if err != nil {
				send(errReply(err))
				continue
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				send(errReply(err))
				continue
			}
			go func() { _ = http.Serve(ln, h) }()
			send(reply{Tag: c.Tag, URL: "http://" + ln.Addr().String()})
		default:
			send(reply{Tag: c.Tag, Err: "unknown op " + c.Op})
		}
	}
	return 0
}
