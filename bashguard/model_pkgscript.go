package bashguard

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/internal/shword"
	"github.com/toolgate/toolgate/permission"
)

// A package manager's script run (npm test, npm run build, pnpm run
// lint, yarn run test) passes the words after the script's name to the
// script: it appends them, each quoted, to the script's text and runs
// that with sh, so that they become arguments of the script's last
// command (npm test -- --testRunner=/tmp/x.js with "test": "jest" runs
// jest --testRunner=/tmp/x.js). An allow rule for the script run lets
// the script run as package.json writes it; what the words make its last
// command do is judged as that command's spec judges it, and a "runs a
// program" or "reads a secret" finding there, or a Deny, is one the rule
// does not lift. The script is read from the package.json the package
// manager finds from the working directory; no package.json, or no such
// script in it, and the run fails before anything runs.

// pkgScript says which script of package.json a subcommand runs.
type pkgScript struct {
	// name is the script's name; empty, the first operand names it.
	name string
	// others are the spellings of the options, separated by spaces,
	// that run the script of other packages too (npm --workspaces, pnpm
	// --recursive), whose package.json is not read here.
	others string
	// bare: the package manager leaves a word without one of sh's
	// special characters unquoted (npm's promise-spawn), where pnpm's
	// shlex and yarn's puka quote every word that is not plain: a bracket
	// or a brace in such a word is then sh's to expand.
	bare bool
	// own, when set, are the package manager's own options, which it
	// reads up to the first "--" of the line even after the script's
	// name when the line has one, passing on the operands among them and
	// every word after the "--", not the "--" itself (yarn classic: yarn
	// test --cwd /tmp/o -- x runs /tmp/o's test script with x). Without a
	// "--" every word after the script's name is passed on as it is.
	own *spec
	// leadDashes: a "--" right after the script's name is not passed on
	// (bun run test -- x gives the script x; bun reads no option of its
	// own there either).
	leadDashes bool
}

// npmSpecial are the characters of a word npm's promise-spawn quotes
// for sh (escape.sh); a word without one is appended as it is.
const npmSpecial = "\t\n\r \"#$&'()*;<>?\\`|~"

// quote returns w as the package manager appends it to the script.
func (ps *pkgScript) quote(w string) string {
	if ps.bare && w != "" && !strings.ContainsAny(w, npmSpecial) {
		return w
	}
	return shword.Quote(w)
}

// pkgScriptWords judges the words the line v of the subcommand s passes
// on to the script it runs: its operands ops (the words at those
// indexes), after the options seen.
func (m *cmdCall) pkgScriptWords(c *verdictAcc, cmd string, s *spec, v *argv, ops []int, seen []scanned) {
	name := s.script.name
	if name == "" {
		if len(ops) == 0 {
			return // npm run lists the scripts
		}
		name, ops = v.vals[ops[0]], ops[1:]
	}
	if s.script.own != nil {
		ops = m.ownBeforeDashes(c, cmd, s.script.own, v, ops)
	}
	if s.script.leadDashes && len(ops) > 0 && v.vals[ops[0]] == "--" {
		ops = ops[1:]
	}
	if len(ops) == 0 {
		return // the script runs as package.json writes it
	}
	words := make([]string, len(ops))
	for k, i := range ops {
		words[k] = v.vals[i]
	}
	what := s.name + " passes " + strings.Join(words, " ") + " to the package's script " + name
	for i := range seen {
		if e := &seen[i]; !e.negated && s.script.others != "" && spelt(s.script.others, e.spell) {
			c.addf(permission.Ask, ArgsRule(cmd), what, " in other packages too ("+optWritten(e)+"), whose scripts are not read here", "", false)
			return
		}
	}
	p := m.findUp("package.json")
	if p == "" {
		return // no package: the run fails
	}
	text, err := readSmall(p, maxManifest)
	if err != nil {
		c.addf(permission.Ask, ArgsRule(cmd), what, ", and "+p+" is not read here ("+err.Error()+")", "", false)
		return
	}
	var manifest struct {
		Scripts map[string]json.RawMessage `json:"scripts"`
	}
	if json.Unmarshal([]byte(text), &manifest) != nil {
		c.addf(permission.Ask, ArgsRule(cmd), what, ", and "+p+" is not JSON that is read here", "", false)
		return
	}
	raw, ok := manifest.Scripts[name]
	if !ok {
		return // no such script: the run fails
	}
	var script string
	if json.Unmarshal(raw, &script) != nil {
		c.addf(permission.Ask, ArgsRule(cmd), what, ", whose text in "+p+" is not a string", "", false)
		return
	}
	quoted := make([]string, len(words))
	for k, w := range words {
		quoted[k] = s.script.quote(w)
	}
	line, ok := m.w.scriptEnd(script + " " + strings.Join(quoted, " "))
	if !ok || len(line) < len(words) || !equalTail(line, words) {
		c.addf(permission.Ask, ArgsRule(cmd), what, ", and what sh makes of them at the end of the script ("+script+") is only known when it runs", "", false)
		return
	}
	lv := argv{vals: line, flags: make([]wordFlags, len(line))}
	copy(lv.flags[len(line)-len(words):], flagsOf(v, ops))
	sub := newAcc()
	m.w.judgeLine(&sub, &lv, execCtx{})
	if !sub.decided || sub.dec != permission.Deny && !sub.nonOver {
		return // what the rule lets run: the script, run with harmless words
	}
	n := len(c.asks)
	c.addc(sub.dec, sub.layer, sub.rule, sub.cause, what+", whose last command becomes "+strings.Join(line, " ")+": ",
		sub.why[0], sub.why[1]+sub.why[2], false)
	if sub.dec == permission.Ask {
		c.asks = append(c.asks[:n], sub.asks...)
	}
}

// ownBeforeDashes judges the words ops of the line v, those after the
// script's name, as the package manager reads them when one of them is
// "--": the options before it by the spec own, as options of the command
// cmd. It returns the words passed on to the script: ops as they are
// without a "--"; else the operands before it and the words after it.
func (m *cmdCall) ownBeforeDashes(c *verdictAcc, cmd string, own *spec, v *argv, ops []int) []int {
	if !slices.ContainsFunc(ops, func(i int) bool { return v.vals[i] == "--" }) {
		return ops
	}
	var out []int
	f := specFacts{dashes: -1}
	scanSpec(own, v, ops[0], false, func(e *scanned) {
		switch {
		case e.word == "--" && e.opt == &dashDashOpt:
		case e.opt == nil && e.problem == "":
			out = append(out, e.at)
		case e.problem != "":
			c.addf(permission.Ask, ArgsRule(cmd), own.name+" option "+optWritten(e)+" "+e.problem, " (before the line's --, where "+own.name+" reads its own)", "", false)
		default:
			m.specOption(c, cmd, own, v, e, &f)
		}
	})
	return out
}

// equalTail reports whether line ends with words.
func equalTail(line, words []string) bool {
	tail := line[len(line)-len(words):]
	for i := range words {
		if tail[i] != words[i] {
			return false
		}
	}
	return true
}

// flagsOf returns the flags of the words of v at the indexes ops.
func flagsOf(v *argv, ops []int) []wordFlags {
	out := make([]wordFlags, len(ops))
	for k, i := range ops {
		out[k] = v.flags[i]
	}
	return out
}
