package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// cmdNames judges the operands of v at ops, of kind kCmdName: those that
// name a path (hold a "/") or are known only at run time are read, as
// which and command -v tell whether such a file exists and is executable.
func (m *cmdCall) cmdNames(c *verdictAcc, v *argv, ops []int, who string) {
	for _, i := range ops {
		if strings.IndexByte(v.vals[i], '/') >= 0 || !v.literal(i) {
			m.readPath(c, v.vals[i], v.flags[i], who)
		}
	}
}

// optionWord reports whether the glob word s could expand to a word that
// starts with "-": it starts with a glob character or a "-" (a literal
// prefix such as "./" or "src/" keeps every match from it).
func optionWord(s string) bool {
	return s != "" && strings.IndexByte("-*?[", s[0]) >= 0
}

// globDir is the directory bash lists first to expand the glob word s:
// the part before the first component with a glob character.
func globDir(s string) string {
	k := strings.IndexAny(s, "*?[")
	if k < 0 {
		k = len(s)
	}
	j := strings.LastIndexByte(s[:k], '/')
	switch {
	case j < 0:
		return "."
	case j == 0:
		return "/"
	}
	return s[:j]
}

// globOptions checks that no glob in an option position of v expands to
// an option: with a file named "--pre=sh", "rg TODO *" runs every file
// through sh. A glob after "--", or one that starts with a literal other
// than "-", cannot. echo is left out: its options only change how it
// prints. Every glob also reads the directory bash lists for it.
func (m *cmdCall) globOptions(c *verdictAcc, name string, v *argv) {
	dashes := printOnlyOptions()[name]
	for i := 1; i < v.len(); i++ {
		s := v.vals[i]
		if v.flags[i]&wGlob == 0 || !v.literal(i) {
			dashes = dashes || s == "--" && v.literal(i)
			continue
		}
		// bash lists a directory to expand a glob: "echo ~/.ssh/*"
		// prints the names of the files there, whatever the command.
		m.readPath(c, globDir(s), 0, name)
		if dashes || !optionWord(s) {
			continue
		}
		dir := m.dir
		if dir == "" {
			c.addf(permission.Ask, RuleArgsGlob, "glob ", s, " may expand to an option, and no working directory is configured to tell", false)
			continue
		}
		matches, err := expandGlob(dir, s)
		if err != nil {
			c.addf(permission.Ask, RuleArgsGlob, "glob ", s, " may expand to an option: the files it names cannot be checked: "+err.Error(), false)
			continue
		}
		if len(matches) == 0 && s[0] == '-' {
			continue // passed as it is, and judged as the option it spells
		}
		for _, m := range matches {
			if strings.HasPrefix(m, "-") {
				c.addf(permission.Ask, RuleArgsGlob, "glob ", s, " expands to "+m+", which "+name+" takes as an option (put -- or ./ before it)", false)
				break
			}
		}
	}
}

// safeSpec judges the safe command name by its spec s: by its check
// alone for a spec of its own language, or its options by the scanner
// and then its query rows and check. The caller allows what is
// left.
func (m *cmdCall) safeSpec(c *verdictAcc, name string, s *spec, v *argv) {
	if s.own {
		s.check(m, c, s, v, &specFacts{dashes: -1})
		return
	}
	f := m.judgeSpec(c, name, s, v, 1)
	m.specCheck(c, s, v, 1, &f)
	if s.operands == kCmdName {
		m.cmdNames(c, v, f.ops, name)
	}
}

// testModel judges test and [: their words are an expression, not
// options ("test -f x" tests x, and "-v NAME" whether NAME is set). The
// paths a file test probes are judged (testPaths); -v with a subscript
// evaluates it, which can run commands.
func testModel(m *cmdCall, c *verdictAcc, _ *spec, v *argv, _ *specFacts) {
	m.testPaths(c, v)
	for i := 1; i+1 < v.len(); i++ {
		if v.vals[i] == "-v" && strings.ContainsRune(v.vals[i+1], '[') {
			c.add(permission.Ask, RuleDynamicArithmetic, "-v "+v.vals[i+1]+" evaluates an array subscript, which can run commands", false)
		}
	}
}

// testPaths judges the paths that test or [ probes: the operand of a file
// test, and both operands of -nt, -ot and -ef.
func (m *cmdCall) testPaths(c *verdictAcc, v *argv) {
	end := v.len()
	if v.vals[0] == "[" && end > 1 && v.vals[end-1] == "]" {
		end--
	}
	for i := 1; i < end; i++ {
		s := v.vals[i]
		switch {
		case testFileOps()[s] && i+1 < end:
			m.probePath(c, v.vals[i+1], v.flags[i+1], "test")
		case (s == "-nt" || s == "-ot" || s == "-ef") && i+1 < end:
			m.probePath(c, v.vals[i-1], v.flags[i-1], "test")
			m.probePath(c, v.vals[i+1], v.flags[i+1], "test")
		}
	}
}
