package bashguard

import "sync"

// gem's command line as the host reader reads it (netTools): a spec for
// each subcommand that reaches a host, its options as its --help lists
// them (gem install --help, ...), since they spell letters otherwise (-a
// is sources' and owner's --add, search's --all; -l install's --local,
// sources' --list). gem reads them with Ruby's OptionParser: letters
// clustered, a value attached or the next word ("-s URL", "-sURL",
// "--source=URL"), a unique prefix of a long option for the option,
// --no-X for a switch X, options anywhere; an optional value ("--file
// [FILE]") is read here only attached. Each row's first spelling is its
// long name, by which opts says what the option does to where gem
// connects.

// gemGrammar is OptionParser's.
var gemGrammar = grammar{abbrev: true, permute: true, negate: true}

// gemCommonRows are the options every gem command takes (gem help,
// "Common Options").
var gemCommonRows = rows(
	each(kFlag, "", "--help -h", "--verbose -V", "--quiet -q", "--silent", "--backtrace", "--debug", "--norc"),
	each(kConfig, "", "--config-file="),
)

// gemInstallSpec is gem install's.
var gemInstallSpec = sync.OnceValue(func() *spec {
	return &spec{name: "gem install", grammar: gemGrammar, rows: rows(each(kWord, "", "--platform=", "--version= -v=", "--document[=]", "--trust-policy= -P=", "--without=",
		"--bulk-threshold= -B=", "--source= -s=", "--http-proxy[=] -p"),
		each(kFlag, "", "--prerelease", "--update-sources -u", "--vendor", "--no-document -N", "--env-shebang -E",
			"--force -f", "--wrappers -w", "--ignore-dependencies", "--format-executable", "--user-install", "--development",
			"--development-all", "--conservative", "--minimal-deps", "--post-install-message", "--default", "--explain",
			"--lock", "--suggestions", "--local -l", "--remote -r", "--both -b", "--clear-sources"),
		each(kDir, "", "--install-dir= -i=", "--bindir= -n=", "--build-root="),
		each(kRead, "", "--file[=] -g"), gemCommonRows)}
})

// gemSpec is gem's.
var gemSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "gem", grammar: grammar{}, rows: rows(each(kFlag, "", "--version -v"), gemCommonRows),
		subs: map[string]*spec{
			"install": gemInstallSpec(), "i": gemInstallSpec(),
			"update": {grammar: gemGrammar, rows: rows(each(kWord, "", "--system[=]", "--platform=", "--document[=]", "--trust-policy= -P=", "--without=", "--bulk-threshold= -B=", "--source= -s=", "--http-proxy[=] -p"),
				each(kFlag, "", "--prerelease", "--update-sources -u", "--vendor", "--no-document -N", "--env-shebang -E", "--force -f", "--wrappers -w", "--ignore-dependencies", "--format-executable", "--user-install", "--development", "--development-all", "--conservative", "--minimal-deps", "--post-install-message", "--default", "--explain", "--lock", "--suggestions", "--local -l", "--remote -r", "--both -b", "--clear-sources"),
				each(kDir, "", "--install-dir= -i=", "--bindir= -n=", "--build-root="),
				each(kRead, "", "--file[=] -g"), gemCommonRows)},
			"fetch": {grammar: gemGrammar, rows: rows(each(kWord, "", "--version= -v=", "--platform=", "--bulk-threshold= -B=", "--http-proxy[=] -p", "--source= -s="),
				each(kFlag, "", "--prerelease", "--suggestions", "--clear-sources"), gemCommonRows)},
			"search": {grammar: gemGrammar, rows: rows(each(kFlag, "", "--installed -i", "-I", "--details -d", "--versions", "--all -a", "--exact -e", "--prerelease", "--update-sources -u", "--local -l", "--remote -r", "--both -b", "--clear-sources"),
				each(kWord, "", "--version= -v=", "--bulk-threshold= -B=", "--source= -s=", "--http-proxy[=] -p"), gemCommonRows)},
			"info": {grammar: gemGrammar, rows: rows(each(kFlag, "", "--installed -i", "-I", "--versions", "--all -a", "--exact -e", "--prerelease", "--update-sources -u", "--local -l", "--remote -r", "--both -b", "--clear-sources"),
				each(kWord, "", "--version= -v=", "--bulk-threshold= -B=", "--source= -s=", "--http-proxy[=] -p"), gemCommonRows)},
			"outdated": {grammar: gemGrammar, rows: rows(each(kWord, "", "--platform=", "--bulk-threshold= -B=", "--source= -s=", "--http-proxy[=] -p"),
				each(kFlag, "", "--update-sources -u", "--local -l", "--remote -r", "--both -b", "--clear-sources"), gemCommonRows)},
			"push":  {grammar: gemGrammar, rows: rows(each(kWord, "", "--key= -k=", "--otp=", "--host=", "--http-proxy[=] -p"), gemCommonRows)},
			"yank":  {grammar: gemGrammar, rows: rows(each(kWord, "", "--version= -v=", "--platform=", "--otp=", "--host=", "--key= -k="), gemCommonRows)},
			"owner": {grammar: gemGrammar, rows: rows(each(kWord, "", "--key= -k=", "--otp=", "--add= -a=", "--remove= -r=", "--host=", "--http-proxy[=] -p"), gemCommonRows)},
			"specification": {grammar: gemGrammar, rows: rows(each(kWord, "", "--version= -v=", "--platform=", "--bulk-threshold= -B=", "--source= -s=", "--http-proxy[=] -p"),
				each(kFlag, "", "--prerelease", "--all", "--ruby", "--yaml", "--marshal", "--update-sources -u", "--local -l", "--remote -r", "--both -b", "--clear-sources"), gemCommonRows)},
			"signin": {grammar: gemGrammar, rows: rows(each(kWord, "", "--host=", "--otp="), gemCommonRows)},
			"sources": {grammar: gemGrammar, rows: rows(each(kWord, "", "--add= -a=", "--remove= -r=", "--http-proxy[=] -p"),
				each(kFlag, "", "--list -l", "--clear-all -c", "--update -u", "--force -f"), gemCommonRows)},
		}}).compile()
})
