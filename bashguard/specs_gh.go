package bashguard

import "sync"

// gh's command line as the host reader reads it (netTools), by cobra's
// and pflag's grammar: options anywhere, values attached or the next
// word, letters clustered, no abbreviation, --flag=true. gh api and gh
// auth's subcommands have specs of their own, as they spell letters
// otherwise than the rest (-t is api's --template and auth status's
// --show-token; -h is auth's --hostname, and help elsewhere); the other
// subcommands are read by one table of their options (ghRows), where a
// letter that takes a value in one takes it in all, so that a misread
// skips no option of the line's own subcommand.

// ghGrammar is pflag's, as gh reads its options.
var ghGrammar = grammar{permute: true, shortEq: true}

// ghRows are the options of gh's subcommands other than api and auth (gh
// pr, issue, repo, run, workflow, release, search --help).
var ghRows = rows(
	each(kWord, "", "-R= --repo=", "-q= --jq=", "-t= --template=", "--hostname=", "--title=", "--body=",
		"--base=", "--head=", "--label=", "-L= --limit=", "--state=", "--author=", "--assignee=", "--json=", "--search=",
		"--branch=", "--workflow=", "--raw-field=", "--header=", "-X= --method="),
	each(kFlag, "", "--web[=] -w", "--draft[=] -d", "--fill[=]", "--paginate[=]", "--silent[=]", "--include[=] -i",
		"--verbose[=]", "--watch[=]", "--exit-status[=]", "--yes[=] -y", "--all[=]", "--merged[=]", "--closed[=]",
		"--delete-branch[=]", "--squash[=]", "--rebase[=]", "--merge[=]", "--auto[=]", "--admin[=]", "--help[=]",
		"--version[=]"),
)

// ghAPIRows are gh api's options (gh api --help). -F (--field) and
// --input read a file and send it ("-F body=@.env", "--input .env"),
// judged as reads.
var ghAPIRows = rows(
	each(kWord, "", "--cache=", "-H= --header=", "--hostname=", "-q= --jq=", "-X= --method=",
		"-p= --preview=", "-f= --raw-field=", "-t= --template="),
	each(kFieldFile, "", "-F= --field="),
	each(kRead, "", "--input="),
	each(kFlag, "", "-i --include[=]", "--paginate[=]", "--silent[=]", "--slurp[=]", "--verbose[=]", "--help[=]"),
)

// ghSpec is gh's.
var ghSpec = sync.OnceValue(func() *spec {
	auth := func(r ...[]optRow) *spec {
		return &spec{grammar: ghGrammar, rows: rows(append(r, each(kWord, "", "-h= --hostname="),
			each(kFlag, "", "--help[=]"))...)}
	}
	return (&spec{name: "gh", grammar: ghGrammar, rows: ghRows, subs: map[string]*spec{
		"api": {grammar: ghGrammar, rows: ghAPIRows},
		"auth": {grammar: ghGrammar, rows: rows(each(kFlag, "", "--help[=]")), subs: map[string]*spec{
			"status": auth(each(kFlag, "", "-a --active[=]", "-t --show-token[=]")),
			"token":  auth(each(kWord, "", "-u= --user=")),
			"login": auth(each(kWord, "", "-p= --git-protocol=", "-s= --scopes="), each(kFlag, "", "--insecure-storage[=]",
				"--skip-ssh-key[=]", "-w --web[=]", "--with-token[=]", "-c --clipboard[=]")),
			"logout": auth(each(kWord, "", "-u= --user=")),
			"refresh": auth(each(kWord, "", "-s= --scopes=", "-r= --remove-scopes="), each(kFlag, "", "--reset-scopes[=]",
				"--insecure-storage[=]", "-c --clipboard[=]")),
			"setup-git": auth(each(kFlag, "", "-f --force[=]")),
			"switch":    auth(each(kWord, "", "-u= --user=")),
		}},
	}}).compile()
})
