package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// make's model (specs_make.go): the make code a command line brings in,
// which the rows cannot say.

// makeOperands judges a makefile read from the input (-f -), and make's
// operands that are variable assignments
// (NAME=value, :=, ::=, +=, ?=, !=): one whose value is make code (a
// "$"), that runs its value with the shell (!=), or that sets one of
// makeProgramVars runs a program the project's makefiles do not name,
// which an allow rule for make does not lift. A target is a word.
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
		}
	}
}
