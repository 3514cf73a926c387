package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// The commands of a tool's own protocol that it sends to its server
// (kToolCommand: redis-cli CONFIG SET dir /x): the server may be this
// machine, and some of its commands make it write files anywhere it can,
// load code or copy another server's data, which no allow rule for the
// client lifts. The rest are the server's business, as the tool's rule
// says.

// toolCommand is one row of a tool's table: the words a command begins
// with, lowercased ("config set"), and, where args is set, only with one
// of those among its further words (the configuration keys that name
// files); why it asks.
type toolCommand struct {
	words string
	args  []string
	why   string
}

// toolCommandAsks returns why the command ops (the operands of the line v,
// by index) asks by the table, or "". A word of the command's name only
// known at run time asks; so does one of its arguments where the row
// reads them, and every row's command where fromInput says the tool
// puts its input among the arguments (redis-cli -x, -X).
func toolCommandAsks(table []toolCommand, v *argv, ops []int, fromInput bool) string {
	for _, r := range table {
		words := strings.Fields(r.words)
		if len(ops) < len(words) {
			continue
		}
		match := true
		for k, w := range words {
			i := ops[k]
			if !v.literal(i) {
				return "names its command with a word only known at run time"
			}
			if !strings.EqualFold(v.vals[i], w) {
				match = false
				break
			}
		}
		if !match {
			continue
		}
		if len(r.args) == 0 || fromInput {
			return r.why // an argument from the input may be any
		}
		for _, i := range ops[len(words):] {
			if !v.literal(i) || slices.Contains(r.args, strings.ToLower(v.vals[i])) {
				return r.why
			}
		}
	}
	return ""
}

// toolCommand judges the command the operands ops of the line v are, by
// the table of its spec s.
func (m *cmdCall) toolCommand(c *verdictAcc, name string, s *spec, v *argv, ops []int) {
	fromInput := false
	scanSpec(s, v, 1, true, func(e *scanned) {
		fromInput = fromInput || e.opt != nil && e.opt.kind == kInputArg
	})
	if why := toolCommandAsks(s.commands, v, ops, fromInput); why != "" {
		c.addf(permission.Ask, ArgsRule(name), "sends the command ", strings.Join(opWords(v, ops, 2), " "), ", which "+why, false)
	}
}

// opWords are the first n words of the operands ops of v.
func opWords(v *argv, ops []int, n int) []string {
	var out []string
	for _, i := range ops[:min(n, len(ops))] {
		out = append(out, v.vals[i])
	}
	return out
}
