package bashguard

import "sync"

// bash's builtins that assign variables, as data: their options, read as
// bash's internal_getopt reads them (clusters, attached values, options
// ending at the first operand or "--"), each with its kind: a variable
// name assigned (kAssign), a callback run (kCallback), operands that name
// functions (kFuncs). Which operands name variables is the row's in
// assigners (model_assign.go).

// assignerSpecs are the assigning builtins' specs, by name.
var assignerSpecs = sync.OnceValue(func() map[string]*spec {
	return compileAll(map[string]*spec{
		"read": {grammar: posixGrammar, rows: assignerReadRows, operands: kWord, endless: "waits for a line of input",
			examples: []example{{"read -r line", "ask"}, {"read -rp x IFS", "ask"}, {"read -a PATH", "ask"}, {"read -ra arr", "ask"}, {"read -x v", "ask"}}},
		"mapfile": {grammar: posixGrammar, rows: assignerMapfileRows, operands: kWord,
			examples: []example{{"mapfile -t lines", "ask"}, {"mapfile -C cb arr", "ask"}, {"mapfile -tC cb", "ask"}, {"mapfile PATH", "ask"}}},
		"readarray": {grammar: posixGrammar, rows: assignerMapfileRows, operands: kWord,
			examples: []example{{"readarray -t lines", "ask"}, {"readarray -c1 -C cb arr", "ask"}}},
		// printf without -v only prints: its operands are its format and
		// data.
		"printf": {grammar: posixGrammar, rows: []optRow{{"-v=", kAssign, ""}}, operands: kWord,
			examples: []example{{"printf '%s\\n' a b", "allow"}, {"printf -- '-%s\\n' a", "allow"}, {"printf -v x %s a", "ask"}, {"printf -vPATH %s a", "ask"},
				{"printf -x %s", "ask"}}},
		"wait": {grammar: posixGrammar, rows: []optRow{{"-f", kFlag, ""}, {"-n", kFlag, ""}, {"-p=", kAssign, ""}}, operands: kWord, endless: "waits for other jobs",
			examples: []example{{"wait", "ask"}, {"wait -np PATH", "ask"}, {"wait -x", "ask"}}},
		"getopts": {grammar: posixGrammar, operands: kWord,
			examples: []example{{"getopts ab opt", "ask"}, {"getopts ab PATH", "ask"}, {"getopts -x ab opt", "ask"}}},
		"unset": {grammar: posixGrammar, rows: []optRow{{"-f", kFuncs, ""}, {"-v", kFlag, ""}, {"-n", kFlag, ""}}, operands: kWord,
			examples: []example{{"unset x", "ask"}, {"unset -v PATH", "ask"}, {"unset -f PATH", "ask"}, {"unset -x v", "ask"}}},
	})
})

// assignerReadRows are the options of read: -a names the array it
// assigns.
var assignerReadRows = []optRow{
	{"-a=", kAssign, ""},
	{"-d= -i= -n= -N= -p= -t= -u=", kWord, ""},
	{"-e -r -s", kFlag, ""},
}

// assignerMapfileRows are the options of mapfile and readarray: -C runs
// a callback.
var assignerMapfileRows = []optRow{
	{"-d= -n= -O= -s= -u= -c=", kWord, ""},
	{"-t", kFlag, ""},
	{"-C=", kCallback, ""},
}

// assigners are the assigning builtins, by name.
var assigners = sync.OnceValue(func() map[string]assignerRow {
	return map[string]assignerRow{
		"read":      {spec: assignerSpecs()["read"], operands: opsAll},
		"mapfile":   {spec: assignerSpecs()["mapfile"], operands: opsFirst},
		"readarray": {spec: assignerSpecs()["readarray"], operands: opsFirst},
		"printf":    {spec: assignerSpecs()["printf"], prints: true},
		"wait":      {spec: assignerSpecs()["wait"]},
		"getopts":   {spec: assignerSpecs()["getopts"], operands: opsSecond},
		"unset":     {spec: assignerSpecs()["unset"], operands: opsAll},
	}
})
