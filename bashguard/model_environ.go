package bashguard

import (
	"path"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// environ records that a command prints the environment.
func environ(c *verdictAcc, what string) {
	c.add(permission.Ask, RuleSecretEnvironment, what+": the environment holds secrets", false)
}

// isEnvironPath reports /proc/PID/environ and /proc/PID/task/TID/environ,
// the environment of a process.
func isEnvironPath(p string) bool {
	p = path.Clean(p)
	return strings.HasPrefix(p, "/proc/") && path.Base(p) == "environ"
}

// jqReadsEnv reports whether the jq program f reads the environment
// (env, $ENV).
func jqReadsEnv(f string) bool {
	if jqWord(f, "env") {
		return true
	}
	// $ENV, which jq's lexer reads with white space or a comment
	// between "$" and the name ("$ ENV", "$#c\nENV").
	for i := 0; i < len(f); i++ {
		if f[i] != '$' {
			continue
		}
		j := jqSkipSpace(f, i+1)
		if strings.HasPrefix(f[j:], "ENV") && (j+3 == len(f) || !isWordByte(f[j+3])) {
			return true
		}
	}
	return false
}

// jqSkipSpace returns the index of the first byte of f from i on that is
// neither white space nor in a comment (from "#" to the end of the line).
func jqSkipSpace(f string, i int) int {
	for i < len(f) {
		switch f[i] {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			i++
		case '#':
			for i < len(f) && f[i] != '\n' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

// awkReadsEnv reports whether the awk program p names ENVIRON.
func awkReadsEnv(p string) bool {
	for i := 0; ; {
		k := strings.Index(p[i:], "ENVIRON")
		if k < 0 {
			return false
		}
		k += i
		end := k + len("ENVIRON")
		if (k == 0 || !isWordByte(p[k-1])) && (end == len(p) || !isWordByte(p[end])) {
			return true
		}
		i = end
	}
}

// envPrinter judges printenv and set: printenv prints the environment or
// one variable of it; set without arguments prints every shell variable,
// and with arguments changes shell options or the positional parameters.
func (m *cmdCall) envPrinter(c *verdictAcc, name string, v *argv) {
	p := envPrinters()[name]
	if p.withArgs != "" && v.len() > 1 {
		c.add(permission.Ask, "state", p.withArgs, false)
		return
	}
	environ(c, p.prints)
}

// envPrinterRow is what a command of envPrinters prints, and what it
// does instead when given arguments ("" when it still prints).
type envPrinterRow struct {
	prints, withArgs string
}
