package approval

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
)

// TerminalAsker is an [Asker] for command-line hosts: it prints each
// request (the call, why it asks, the layer-by-layer explanation and the
// rules "always" would add) to Out and reads the person's answer, a line,
// from In: "o" (allow once), "a" (allow always, offered only when the
// request has rules to add), "d" or "d reason" (deny). Anything else asks
// again; the end of In is a Deny. Questions are asked one at a time. Create
// it with [NewTerminalAsker].
type TerminalAsker struct {
	out   io.Writer
	lines chan string
	once  sync.Once
	in    io.Reader
	mu    sync.Mutex // one question at a time
}

// NewTerminalAsker returns an Asker reading answers from in and writing
// questions to out.
func NewTerminalAsker(in io.Reader, out io.Writer) *TerminalAsker {
	return &TerminalAsker{in: in, out: out, lines: make(chan string)}
}

// read hands In's lines over until its end; it runs once, on a goroutine
// of its own, so that a question gives up when its context ends even while
// the read blocks.
func (t *TerminalAsker) read() {
	sc := bufio.NewScanner(t.in)
	for sc.Scan() {
		t.lines <- sc.Text()
	}
	close(t.lines)
}

// Ask implements [Asker].
func (t *TerminalAsker) Ask(ctx context.Context, req Request) (Answer, error) {
	t.once.Do(func() { go t.read() })
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "\ntoolgate: %s wants to run %s %s\n", req.Session, req.Tool, req.Input)
	fmt.Fprintf(&b, "  why: %s\n", req.Reason)
	for line := range strings.SplitSeq(strings.TrimRight(req.Explanation, "\n"), "\n") {
		if line != "" {
			fmt.Fprintf(&b, "  | %s\n", line)
		}
	}
	prompt := "[o] allow once, [d reason] deny: "
	if len(req.AlwaysRules) > 0 {
		fmt.Fprintf(&b, "  always would add: %s\n", strings.Join(req.AlwaysRules, ", "))
		prompt = "[o] allow once, [a] allow always, [d reason] deny: "
	}
	io.WriteString(t.out, b.String())
	for {
		io.WriteString(t.out, prompt)
		select {
		case <-ctx.Done():
			io.WriteString(t.out, "\n(no answer in time: denied)\n")
			return Answer{Reason: "approval abandoned: " + context.Cause(ctx).Error()}, ctx.Err()
		case line, ok := <-t.lines:
			if !ok {
				return Answer{Reason: "the terminal closed without an answer"}, nil
			}
			line = strings.TrimSpace(line)
			word, rest, _ := strings.Cut(line, " ")
			switch strings.ToLower(word) {
			case "o", "once":
				return Answer{Choice: AllowOnce}, nil
			case "a", "always":
				if len(req.AlwaysRules) > 0 {
					return Answer{Choice: AllowAlways}, nil
				}
			case "d", "deny":
				return Answer{Reason: strings.TrimSpace(rest)}, nil
			}
		}
	}
}
