package permission

import (
	"errors"
	"fmt"
	"github.com/toolgate/toolgate/internal/shword"
	"path"
	"slices"
	"strconv"
	"strings"
)

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

// AlwaysRuleError says why [AllowAlwaysRules] refused a command.
type AlwaysRuleError struct {
	// Index is the command's position in the list.
	Index int
	// Command is the refused argv.
	Command []string
	// Reason says why.
	Reason string
}

// Error says which command was refused and why.
func (e *AlwaysRuleError) Error() string {
	return fmt.Sprintf("permission: no allow-always rule for command %d %q: %s", e.Index, e.Command, e.Reason)
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
	if !concreteToolName(tool) {
		return nil, fmt.Errorf("permission: invalid tool name %q", tool)
	}
	if len(commands) == 0 {
		return nil, errors.New("permission: no commands to allow")
	}
	rules := make([]string, 0, len(commands))
	var seen map[string]bool // past a few rules: a set, so that the cost stays linear
	var b strings.Builder
	for i, argv := range commands {
		r, why := alwaysRule(&b, tool, argv)
		if why != "" {
			return nil, &AlwaysRuleError{Index: i, Command: argv, Reason: why}
		}
		switch {
		case seen != nil:
			if seen[r] {
				continue
			}
			seen[r] = true
		case slices.Contains(rules, r):
			continue
		case len(rules) == 8:
			seen = make(map[string]bool, len(commands))
			for _, x := range rules {
				seen[x] = true
			}
			seen[r] = true
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// alwaysRule returns the rule allowing exactly argv, written with b, or
// why there is none.
func alwaysRule(b *strings.Builder, tool string, argv []string) (rule, refused string) {
	if len(argv) == 0 || argv[0] == "" {
		return "", "empty command"
	}
	name := path.Base(argv[0])
	if broadWrappers[name] || versionedInterpreter(name) {
		return "", name + " runs arbitrary code or commands: allow it once instead"
	}
	n := len(tool) + 2
	for _, w := range argv {
		n += len(w) + 3
	}
	b.Reset()
	b.Grow(n)
	b.WriteString(tool)
	b.WriteByte('(')
	for j, w := range argv {
		if strings.ContainsRune(w, '*') {
			return "", "word " + strconv.Itoa(j) + " holds '*', which a rule would read as a wildcard"
		}
		if strings.IndexFunc(w, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0 {
			return "", "word " + strconv.Itoa(j) + " holds a control character"
		}
		if j > 0 {
			b.WriteByte(' ')
		}
		writeWord(b, w)
	}
	b.WriteByte(')')
	return b.String(), ""
}

// versionedInterpreters are the interpreters also installed under a
// versioned name (python3.12, perl5.36), which AllowAlwaysRules refuses
// as it refuses the bare name.
var versionedInterpreters = []string{"python", "pypy", "ruby", "perl", "php", "lua"}

// versionedInterpreter reports whether name is one of
// versionedInterpreters followed by a version: digits and dots.
func versionedInterpreter(name string) bool {
	for _, p := range versionedInterpreters {
		if v, ok := strings.CutPrefix(name, p); ok && v != "" && strings.Trim(v, "0123456789.") == "" {
			return true
		}
	}
	return false
}

// writeWord writes w as quoteWord returns it.
func writeWord(b *strings.Builder, w string) {
	if w != "" && plainWord(w) {
		b.WriteString(w)
		return
	}
	b.WriteString(quoteWord(w))
}

// plainWord reports whether w holds no shell-special character.
func plainWord(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("-_./:=,+@%^", r))
	}) < 0
}

// quoteWord returns w unchanged when it has no shell-special characters,
// and in single quotes otherwise.
func quoteWord(w string) string {
	if w == "" {
		return "''"
	}
	if plainWord(w) {
		return w
	}
	return shword.Quote(w)
}

// concreteToolName reports whether s may name one tool in an exact rule: 1
// to 128 bytes of letters, digits, '_', '-', '.' and ':' (no pattern).
func concreteToolName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	return strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '_' || r == '-' || r == '.' || r == ':')
	}) < 0
}
