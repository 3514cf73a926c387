package bashguard

import "testing"

// What the external tests (package bashguard_test, which may import the
// runner package, which imports this one) use of this package's internals.

// ExpandGlob is expandGlob.
var ExpandGlob = expandGlob

// Branches is branches.
var Branches = branches

// ShimEnd is shimEnd.
var ShimEnd = shimEnd

// DisabledBuiltins are the builtins the differential runs turn off.
const DisabledBuiltins = disabled

// DeclBuiltins is declBuiltins.
var DeclBuiltins = declBuiltins

// AllowedCaseScripts returns the scripts of the case tables that are
// allowed under the plain case policy, without files of their own.
func AllowedCaseScripts(t testing.TB) []string {
	var out []string
	for _, c := range loadCases(t) {
		if c.Decision == "allow" && c.Opts == "" && len(c.Files) == 0 && len(c.Home) == 0 {
			out = append(out, c.Script)
		}
	}
	return out
}

// RootChecker returns the tests' rootChecker for dir and roots.
func RootChecker(dir string, roots ...string) PathChecker {
	return rootChecker{dir: dir, roots: roots}
}

// DataWord is dataWord.
var DataWord = dataWord
