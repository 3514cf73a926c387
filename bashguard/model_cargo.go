package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// cargoOperands judges the options of cargo's building subcommands a
// row cannot say: a --target that names a target specification file,
// which names the linker cargo runs.
func cargoOperands(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for i := range f.seen {
		if e := &f.seen[i]; e.spell == "--target" && e.hasVal && strings.HasSuffix(e.val, ".json") {
			c.addf(permission.Ask, ArgsRule("cargo"), s.name+" --target "+e.val, " names a target specification file, which can name the linker cargo runs", "", false)
		}
	}
}

// cargoTestOperands is cargoOperands for cargo test and bench, and
// judges what their test binaries read after "--": --logfile writes.
func cargoTestOperands(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	cargoOperands(m, c, s, v, f)
	after := f.afterDashes()
	for k, i := range after {
		switch w := v.vals[i]; {
		case w == "--logfile" && k+1 < len(after):
			m.writePath(c, v.vals[after[k+1]], v.flags[after[k+1]], "cargo")
		case strings.HasPrefix(w, "--logfile="):
			m.writePath(c, strings.TrimPrefix(w, "--logfile="), v.flags[i], "cargo")
		}
	}
}

// cargoClippyOperands is cargoOperands for cargo clippy, and judges the
// words after "--", which clippy-driver reads.
func cargoClippyOperands(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	cargoOperands(m, c, s, v, f)
	clippyDriverArgs(c, s, v, f.afterDashes())
}

// clippyDriverArgs asks for a word after "--" of cargo clippy that is
// not a lint level (clippyLintFlags) with its lint: clippy-driver takes
// rustc's flags too, and -C linker=PROGRAM runs a program.
func clippyDriverArgs(c *verdictAcc, s *spec, v *argv, after []int) {
	for k := 0; k < len(after); k++ {
		w := v.vals[after[k]]
		name, _, attached := strings.Cut(w, "=")
		switch {
		case slices.Contains(clippyLintFlags, w):
			k++ // the lint
		case attached && slices.Contains(clippyLintFlags, name):
		case len(w) > 2 && slices.Contains(clippyLintFlags, w[:2]):
			// -Wclippy::pedantic
		default:
			c.addf(permission.Ask, ArgsRule("cargo"), s.name+" passes "+w, " on to clippy-driver, which takes rustc's flags (-C linker=PROGRAM)", "", false)
			return
		}
	}
}
