package bashguard

import "sync"

// The option grammar families the specs name, read by the one scanner
// (scan.go).

// The grammars of the programs the specs describe.
var (
	// gnuGrammar is getopt_long's: clusters of short options, attached
	// values (-n5), --long=value and --long value, unique prefixes,
	// options after operands.
	gnuGrammar = grammar{abbrev: true, permute: true}
	// gitGrammar is git's parse-options: getopt_long's, and --no-X for
	// every long option.
	gitGrammar = grammar{abbrev: true, permute: true, negate: true}
	// gitRevGrammar is how git log, show and diff read the revision and
	// diff options: exact long names only (setup_revisions and the diff
	// options parser keep unknown options, so they take no prefixes),
	// clusters of short diff options, -NUM.
	gitRevGrammar = grammar{permute: true, digits: true}
	// posixGrammar is POSIX getopt's: options end at the first operand.
	posixGrammar = grammar{}
)

// formWords are the placeholders of the forms of a query row (cForms),
// each with the operands it stands for.
var formWords = sync.OnceValue(func() map[string]func(string) bool {
	return map[string]func(string) bool{
		// WORD is any operand.
		"WORD": func(string) bool { return true },
		// NAME is a plain name (plainName): a service, a unit.
		"NAME": plainName,
		// VAR is the name of a variable that holds no secret (plainEnvName).
		"VAR": plainEnvName,
	}
})
