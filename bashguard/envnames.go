package bashguard

import "strings"

// Which environment variables printenv may print.
//
// printenv NAME prints one value; the guard does not see the value, so
// it judges the name. A name is plain when it is one of plainEnvVars, a
// locale variable (LC_*), or ends in one of plainEnvSuffixes (JAVA_HOME,
// ANDROID_SDK_ROOT, PYTHONPATH, NODE_VERSION: a place, a search path or
// a version) and holds none of secretEnvWords. Anything else may hold a
// secret whatever it is called (DATABASE_URL, SENTRY_DSN, a proxy URL
// with a user and password), so it stays asked, as printing the whole
// environment is. env | grep PATTERN stays asked too: grep keeps every
// line whose name or value matches, so any variable may be printed, and
// the proxy variables (env | grep -i proxy) often carry credentials in
// their URLs.

// plainEnvName reports whether printenv may print the variable name.
func plainEnvName(name string) bool {
	if !isIdent(name) {
		return false
	}
	if plainEnvVars()[name] || strings.HasPrefix(name, "LC_") {
		return true
	}
	up := strings.ToUpper(name)
	if up != name {
		return false // http_proxy and its kind: lower-case names are not read here
	}
	for _, w := range secretEnvWords {
		if strings.Contains(up, w) {
			return false
		}
	}
	for _, s := range plainEnvSuffixes {
		if strings.HasSuffix(up, s) && len(up) > len(s) {
			return true
		}
	}
	return false
}

// riskyVar explains why assigning name could change what commands run, or
// returns "". It is an allowlist: the harmless names, and (for a shell
// variable, prefix false) lower-case names that no shell ties to its
// environment. Every other name, and anything that is not a plain name,
// needs a person. prefix says that the assignment is in the environment of
// a command ("NAME=value cmd").
func riskyVar(name string, prefix bool) string {
	if harmlessVars()[name] || strings.HasPrefix(name, "LC_") && isIdent(name) {
		return ""
	}
	if !isIdent(name) {
		return "is not a plain variable name (a subscript is evaluated as arithmetic, which can run commands)"
	}
	if !prefix {
		// A shell variable changes the environment only if it is already
		// exported; lower-case names rarely are.
		if strings.ToLower(name) == name && !tiedVars()[name] && !strings.HasSuffix(name, "_proxy") {
			return ""
		}
	}
	return "can change what a command runs or where it finds programs"
}
