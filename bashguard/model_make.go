package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// make's model (specs_make.go): the make code a command line brings in,
// which the rows cannot say.

// makeOperands judges a makefile read from the input (-f -), and make's
// operands that are variable assignments (NAME=value, :=, ::=, +=, ?=,
// !=). A variable set on make's line overrides the makefiles' own, and
// make exports it to every recipe: its value becomes recipe text, which
// the shell runs (make test 'TESTFLAGS=x; curl ...' runs the curl, GO=rm
// turns $(GO) test into rm test), or a variable in the environment of the
// programs the recipes run (GOFLAGS=-toolexec=PROGRAM). Only a number is
// allowed as it is; any other assignment asks, and only an allow rule that
// names the variable (Bash(make build GOOS=linux:*)) lifts it. One whose
// value is make code (a "$"), that runs its value with the shell (!=), or
// that sets one of makeProgramVars, no rule lifts. A target is a word.
func makeOperands(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for i := range f.seen {
		// A makefile read from the input (-f -, a here-document) is make
		// code from the command line, as --eval's is.
		if e := &f.seen[i]; e.opt.name == "-f" && e.hasVal && (e.val == "-" || strings.HasPrefix(e.val, "/dev/") || strings.HasPrefix(e.val, "/proc/")) {
			c.addf(permission.Ask, ArgsRule("make"), "make "+optWritten(e)+" reads a makefile from its input, whose recipes run programs", "", "", false)
		}
	}
	for _, i := range f.ops {
		name, val, ok := strings.Cut(v.vals[i], "=")
		if !ok || name == "" {
			continue
		}
		op := ""
		for name != "" && strings.ContainsRune(":+?!", rune(name[len(name)-1])) {
			op, name = name[len(name)-1:]+op, name[:len(name)-1]
		}
		switch {
		case strings.Contains(op, "!"):
			c.addf(permission.Ask, ArgsRule("make"), "make "+v.vals[i]+" runs its value with the shell", "", "", false)
		case strings.Contains(val, "$"):
			c.addf(permission.Ask, ArgsRule("make"), "make "+v.vals[i]+" sets "+name+" to make code, which can run programs ($(shell ...))", "", "", false)
		case slices.Contains(makeProgramVars, name):
			c.addf(permission.Ask, ArgsRule("make"), "make "+v.vals[i]+" sets "+name+", which chooses a program make runs", "", "", false)
		case !isDigits(val): // a number names no program, option or path, and holds no shell syntax
			c.addNamed(name, permission.Ask, ArgsRule("make"), "make "+v.vals[i]+" sets "+name,
				", whose value the makefiles' recipes run as shell text and pass on in their programs' environment", "")
		}
	}
}
