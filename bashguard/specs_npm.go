package bashguard

// npm's scripts: npm run, test, start, stop and restart run a script of
// the package's package.json, which is what an allow rule for one of them
// (Bash(npm test:*)) lets run. npm's command line also sets any of its
// configuration keys (nopt: --KEY[=VALUE], any number of dashes, a unique
// prefix of a key, shorthands such as -C for --prefix), and some of those
// choose what runs: the shell the script runs in, the node options of
// every node it starts, another package's scripts, another npmrc that can
// set them. Those ask, and an allow rule for the subcommand alone does not
// lift them. The rows are every key of the installed npm's definitions,
// and the shorthands are its own (spec_help_test.go reads both from it).

// npmGrammar is nopt's, as npm reads its command line.
var npmGrammar = grammar{nopt: true, abbrev: true, permute: true}

// npmHarmlessKeys are npm's configuration keys that change nothing of
// what a script run runs: its output, its registry and audit settings,
// what other subcommands do. A value is read only when attached (=), so
// that a word after one is still read as an option.
const npmHarmlessKeys = "--_auth[=] --access[=] --all[=] --allow-directory[=] --allow-file[=] --allow-git[=] --allow-remote[=] " +
	"--allow-same-version[=] --allow-scripts[=] --allow-scripts-pending[=] --allow-scripts-pin[=] --also[=] --audit[=] --audit-level[=] " +
	"--auth-type[=] --before[=] --bin-links[=] --bypass-2fa[=] --cache-max[=] --cache-min[=] --cidr[=] --color[=] --commit-hooks[=] " +
	"--cpu[=] --dangerously-allow-all-scripts[=] --depth[=] --description[=] --dev[=] --diff[=] --diff-dst-prefix[=] " +
	"--diff-ignore-all-space[=] --diff-name-only[=] --diff-no-prefix[=] --diff-src-prefix[=] --diff-text[=] --diff-unified[=] " +
	"--dry-run[=] --engine-strict[=] --expect-result-count[=] --expect-results[=] --expires[=] --fetch-retries[=] " +
	"--fetch-retry-factor[=] --fetch-retry-maxtimeout[=] --fetch-retry-mintimeout[=] --fetch-timeout[=] --force[=] " +
	"--foreground-scripts[=] --format-package-lock[=] --fund[=] --git-tag-version[=] --global[=] --global-style[=] --heading[=] " +
	"--https-proxy[=] --if-present[=] --ignore-scripts[=] --include[=] --include-attestations[=] --include-staged[=] " +
	"--include-workspace-root[=] --init-author-email[=] --init-author-name[=] --init-author-url[=] --init-license[=] " +
	"--init-private[=] --init-type[=] --init-version[=] --init.author.email[=] --init.author.name[=] --init.author.url[=] " +
	"--init.license[=] --init.version[=] --install-links[=] --install-strategy[=] --json[=] --legacy-bundling[=] " +
	"--legacy-peer-deps[=] --libc[=] --link[=] --local-address[=] --location[=] --lockfile-version[=] --loglevel[=] --logs-max[=] " +
	"--long[=] --maxsockets[=] --message[=] --min-release-age[=] --min-release-age-exclude[=] --name[=] --noproxy[=] --offline[=] " +
	"--omit[=] --omit-lockfile-registry-resolved[=] --only[=] --optional[=] --orgs[=] --orgs-permission[=] --os[=] --otp[=] " +
	"--package[=] --package-lock[=] --package-lock-only[=] --packages[=] --packages-all[=] --packages-and-scopes-permission[=] " +
	"--parseable[=] --password[=] --prefer-dedupe[=] --prefer-offline[=] --prefer-online[=] --preid[=] --production[=] --progress[=] " +
	"--provenance[=] --proxy[=] --read-only[=] --rebuild-bundle[=] --registry[=] --replace-registry-host[=] --save[=] " +
	"--save-bundle[=] --save-dev[=] --save-exact[=] --save-optional[=] --save-peer[=] --save-prefix[=] --save-prod[=] " +
	"--sbom-format[=] --sbom-type[=] --scope[=] --scopes[=] --searchexclude[=] --searchlimit[=] --searchopts[=] " +
	"--searchstaleness[=] --shrinkwrap[=] --sign-git-commit[=] --sign-git-tag[=] --strict-allow-scripts[=] --strict-peer-deps[=] " +
	"--strict-ssl[=] --tag[=] --tag-version-prefix[=] --timing[=] --token-description[=] --umask[=] --unicode[=] " +
	"--update-notifier[=] --usage[=] --user-agent[=] --version[=] --versions[=] --which[=] --workspace[=] --workspaces[=] " +
	"--workspaces-update[=] --yes[=]"

// npmScriptRows are npm's configuration keys, as a script run reads them.
var npmScriptRows = []optRow{
	{npmHarmlessKeys, kWord, ""},
	{"--script-shell= --shell=", kProgram, "chooses the shell npm runs the script in"},
	{"--node-options=", kProgram, "passes options to every node the script starts (--require runs a module)"},
	{"--prefix=", kProgram, "runs the scripts of the package in another directory"},
	{"--userconfig= --globalconfig=", kProgram, "reads npm's configuration from another file, which can choose the shell and the node options"},
	{"--git= --node-gyp= --editor= --browser= --viewer= --call= --init-module= --init.module=", kProgram, "names a program npm runs"},
	{"--cache= --logs-dir= --pack-destination=", kWrite, "npm's logs and cache, into its value"},
	{"--ca= --cafile= --cert= --key= --provenance-file=", kRead, ""},
}

// npmShorthands are npm's shorthands, each the words it stands for.
var npmShorthands = map[string][]string{
	"enjoy-by": {"--before"}, "d": {"--loglevel", "info"}, "dd": {"--loglevel", "verbose"}, "ddd": {"--loglevel", "silly"},
	"quiet": {"--loglevel", "warn"}, "q": {"--loglevel", "warn"}, "s": {"--loglevel", "silent"}, "silent": {"--loglevel", "silent"},
	"verbose": {"--loglevel", "verbose"}, "desc": {"--description"}, "help": {"--usage"}, "local": {"--no-global"},
	"n": {"--no-yes"}, "no": {"--no-yes"}, "porcelain": {"--parseable"}, "readonly": {"--read-only"}, "reg": {"--registry"},
	"iwr": {"--include-workspace-root"}, "ws": {"--workspaces"}, "a": {"--all"}, "c": {"--call"}, "f": {"--force"},
	"g": {"--global"}, "L": {"--location"}, "l": {"--long"}, "m": {"--message"}, "p": {"--parseable"}, "C": {"--prefix"},
	"S": {"--save"}, "B": {"--save-bundle"}, "D": {"--save-dev"}, "E": {"--save-exact"}, "O": {"--save-optional"},
	"P": {"--save-prod"}, "?": {"--usage"}, "H": {"--usage"}, "h": {"--usage"}, "v": {"--version"}, "w": {"--workspace"},
	"y": {"--yes"},
}

// npmWorkspaces are npm's options that run the script in the
// workspaces' packages.
const npmWorkspaces = "--workspace --workspaces"

// npmScriptSubs are npm's subcommands that run a script: run (and its
// aliases), which without a script name lists the scripts, and the
// lifecycle ones.
func npmScriptSubs() map[string]*spec {
	run := func() *spec {
		return &spec{grammar: npmGrammar, rows: npmScriptRows, shorthands: npmShorthands, operands: kWord,
			script: &pkgScript{others: npmWorkspaces, bare: true},
			allow:  "npm run lists the package's scripts",
			query:  []cond{{test: cMaxOps, n: 0, why: "runs the package's script %s"}}}
	}
	life := func(script string) *spec {
		return &spec{grammar: npmGrammar, rows: npmScriptRows, shorthands: npmShorthands, operands: kWord,
			script: &pkgScript{name: script, others: npmWorkspaces, bare: true},
			ask:    "runs the package's " + script + " script"}
	}
	subs := map[string]*spec{"run": run(), "run-script": run(), "rum": run(), "urn": run()}
	for name, script := range map[string]string{"test": "test", "tst": "test", "t": "test", "start": "start", "stop": "stop", "restart": "restart"} {
		subs[name] = life(script)
	}
	subs["test"].examples = []example{
		{"npm test", "ask+"}, {"npm test -- --watch", "ask+"}, {"npm test --silent", "ask+"}, {"npm test -s --if-present", "ask+"},
		{"npm test --script-shell=/tmp/x", "ask!"}, {"npm test --scri=/tmp/x", "ask!"}, {"npm test ---script-shell /tmp/x", "ask!"},
		{"npm test -C /tmp/other", "ask!"}, {"npm test --C=/tmp/other", "ask!"}, {"npm test -gC /tmp/other", "ask!"},
		{"npm test --prefix /tmp/other", "ask!"}, {"npm test --node-options='--require ./x.js'", "ask!"},
		{"npm test --userconfig=x.npmrc", "ask!"}, {"npm test --no-such-key", "ask+"}, {"npm test -- --script-shell=x", "ask+"},
	}
	subs["run"].examples = []example{
		// npm run alone lists the scripts, and is allowed, but writes npm's
		// log under the home and asks the registry for a newer npm: no
		// example the effect test runs (testdata holds it).
		{"npm run build", "ask+"}, {"npm run lint -- --fix", "ask+"},
		{"npm run build --script-shell /tmp/x", "ask!"}, {"npm run build -C ../other", "ask!"}, {"npm run --node-o=--inspect build", "ask!"},
	}
	return subs
}
