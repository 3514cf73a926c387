package main

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/runtime/approval"
)

// personAnswers are the person's answers to the questions the script leads
// to, by the request's summary ("Bash mkdir -p build"). A question not
// listed is denied.
func personAnswers() map[string]approval.Choice {
	return map[string]approval.Choice{
		"Bash mkdir -p build": approval.AllowAlways,
	}
}

// answer plays the person: it takes each request the ChanAsker parks, prints
// it, and resolves it by id, as an HTTP or SSE front end would on a click.
func (h *host) answer() {
	for {
		select {
		case <-h.done:
			return
		case r := <-h.asked:
			key := r.Tool
			for _, c := range r.Commands {
				key += " " + strings.Join(c, " ")
			}
			choice := h.answers[key]
			line := fmt.Sprintf("  ? asked about %s (%s: %s): %s", key, r.Layer, r.Reason, choice)
			if choice == approval.AllowAlways {
				line += ", recording " + strings.Join(r.AlwaysRules, ", ")
			}
			fmt.Fprintln(h.out, h.ws.rel.Replace(line))
			if err := h.person.Resolve(r.ID, approval.Answer{Choice: choice}); err != nil {
				fmt.Fprintln(h.out, "  ? the answer was lost:", err)
			}
		}
	}
}
