package bashguard

import (
	"maps"
	"sync"
)

// The wrappers, as data: commands that run the command line their
// operands start (operands: kCommand), judged as its own, after options
// of their own. Each reads its options as getopt_long with "+" does
// (coreutils, util-linux, procps) or as bash's builtins do: they end at
// the first operand, so the wrapped command's options stay its own.
// timeout's first operand is its duration (firstOperand: kWord); watch
// joins its operands into shell code (kShellCode) unless -x; flock's first
// operand is the lock file (model_wrap.go: flockOperands). A wrapper that
// is not read-only whatever it runs says so in ask. model_wrap.go judges
// them; spec_help_test.go holds the tables to the installed tools'
// --help (command, builtin and exec are bash's own, and have none).

// wrapperGrammar is getopt_long's with "+": options end at the first
// operand.
var wrapperGrammar = grammar{abbrev: true}

// wrapperSpecs are the wrappers' specs, by command name.
var wrapperSpecs = sync.OnceValue(func() map[string]*spec {
	return compileAll(map[string]*spec{
		// nice -NUM is -n NUM.
		"nice": {grammar: grammar{abbrev: true, digits: true}, rows: wrapperNiceRows(), operands: kCommand,
			allow: "nice without a command changes nothing",
			examples: []example{{"nice cat a.txt", "allow"}, {"nice -n 5 cat a.txt", "allow"}, {"nice -5 cat a.txt", "allow"}, {"nice --adj=5 cat a.txt", "allow"},
				{"nice -n -5 cat a.txt", "allow"}, {"nice", "allow"}, {"nice cat .env", "deny"}, {"nice -x cat a.txt", "ask"}, {"nice cat -n .env", "deny"}}},
		"nohup": {grammar: wrapperGrammar, rows: gnuInfoRows, operands: kCommand, bareWhy: "no command given",
			examples: []example{{"nohup cat a.txt", "allow"}, {"nohup", "ask"}, {"nohup -x cat a.txt", "ask"}, {"nohup cat .env", "deny"}}},
		"timeout": {grammar: wrapperGrammar, rows: wrapperTimeoutRows(), operands: kCommand, firstOperand: kWord, bareWhy: "no command given",
			examples: []example{{"timeout 5 cat a.txt", "allow"}, {"timeout -vk 1 5 cat a.txt", "allow"}, {"timeout -sKILL 5 cat a.txt", "allow"},
				{"timeout --sig=TERM --preserve 5 cat a.txt", "allow"}, {"timeout 5", "ask"}, {"timeout -x 5 cat a.txt", "ask"}, {"timeout 5 cat .env", "deny"}}},
		// GNU time; bash's keyword time is the walker's, so the examples
		// quote the name.
		"time": {grammar: wrapperGrammar, rows: wrapperTimeRows, operands: kCommand, allow: "time without a command changes nothing",
			examples: []example{{"\\time cat a.txt", "allow"}, {"\\time -p cat a.txt", "allow"}, {"\\time -f %e cat a.txt", "allow"}, {"\\time --format=%e -q cat a.txt", "allow"},
				{"\\time -o out.txt cat a.txt", "ask"}, {"\\time -ao out.txt cat a.txt", "ask"}, {"\\time --out=x cat a.txt", "ask"}, {"\\time -x cat a.txt", "ask"}}},
		"stdbuf": {grammar: wrapperGrammar, rows: wrapperStdbufRows(), operands: kCommand, bareWhy: "no command given",
			examples: []example{{"stdbuf -oL cat a.txt", "allow"}, {"stdbuf -i0 -e 0 cat a.txt", "allow"}, {"stdbuf --out=L cat a.txt", "allow"},
				{"stdbuf -x cat a.txt", "ask"}, {"stdbuf -oL cat .env", "deny"}}},
		"setsid": {grammar: wrapperGrammar, rows: wrapperSetsidRows(), operands: kCommand, bareWhy: "no command given",
			ask: "starts a new session that escapes the process-group limits", askFinal: true,
			examples: []example{{"setsid cat a.txt", "ask"}, {"setsid -w cat a.txt", "ask"}, {"setsid -x cat a.txt", "ask"}, {"setsid cat .env", "deny"}}},
		// flock FILE COMMAND..., flock FILE -c CODE, flock FD.
		"flock": {grammar: wrapperGrammar, rows: wrapperFlockRows(), operands: kCommand, firstOperand: kWriteFd, afterFirst: "-c --command",
			bareWhy: "no command given",
			ask:     "takes a file lock",
			examples: []example{{"flock l cat a.txt", "ask"}, {"flock -n l -c 'cat a.txt'", "ask"}, {"flock -w 1 l cat .env", "deny"},
				{"flock l -c 'cat .env'", "deny"}, {"flock -x l cat a.txt", "ask"}, {"flock -y l cat a.txt", "ask"}}},
		// watch hands its operands, joined, to sh -c; with -x it runs them.
		"watch": {grammar: wrapperGrammar, rows: wrapperWatchRows, operands: kShellCode, bareWhy: "no command given",
			ask: "runs a command repeatedly until stopped", endless: "runs a command again and again until it is stopped",
			examples: []example{{"watch ls", "ask"}, {"watch -n 1 'cat a.txt'", "ask"}, {"watch -x cat .env", "deny"}, {"watch 'cat .env'", "deny"},
				{"watch -y ls", "ask"}}},
		// env [OPTION]... [-] [NAME=VALUE]... [COMMAND [ARG]...]
		// (model_wrap.go: env).
		"env": {grammar: wrapperGrammar, rows: wrapperEnvRows, operands: kCommand,
			examples: []example{{"env LANG=C cat a.txt", "allow"}, {"env -i cat a.txt", "allow"}, {"env - LANG=C cat a.txt", "allow"},
				{"env -u HOME -v cat a.txt", "allow"}, {"env --unset=HOME cat a.txt", "allow"}, {"env -uHOME --ignore-e cat a.txt", "allow"}, {"env --ign cat a.txt", "ask"},
				{"env", "ask"}, {"env -u HOME", "ask"}, {"env PATH=/tmp ls", "ask"}, {"env -C src ls", "ask"}, {"env --ch=src ls", "ask"},
				{"env -vS 'cat .env'", "ask"}, {"env --split='cat a.txt'", "ask"}, {"env --block-signal cat a.txt", "ask"}, {"env cat .env", "deny"},
				{"env --help", "allow"}, {"env --version", "allow"}, {"env -i --help", "allow"}, {"env -C src --help", "ask"}}},
		// xargs [OPTION]... [COMMAND [INITIAL-ARGS]...]: the command runs
		// with arguments read from its input; without one xargs runs echo,
		// which is its own (model_wrap.go: xargs).
		"xargs": {grammar: wrapperGrammar, rows: wrapperXargsRows, operands: kCommand, helpers: []string{"echo"},
			examples: []example{{"xargs", "allow"}, {"xargs -r0 -n 1 -P2 --max-chars=99 -t", "allow"}, {"xargs -a a.txt", "allow"},
				{"xargs --arg=a.txt -l -x", "allow"}, {"xargs -d '\\n' -L1 --show-limits", "allow"}, {"xargs -I{} -E end", "allow"},
				{"xargs -a .env", "deny"}, {"xargs cat .env", "deny"}, {"xargs cat a.txt", "ask"}, {"xargs -p echo", "ask"}, {"xargs -o", "ask"},
				{"xargs --foo echo", "ask"}, {"xargs --e echo", "ask"}, {"xargs --process-slot-var=PATH ls", "ask"},
				{"find . | xargs cat", "deny"}, {"find src | xargs -p cat", "ask"}}},
		// bash's builtins: command [-pVv] NAME..., builtin NAME,
		// exec [-cl] [-a NAME] [COMMAND].
		"command": {grammar: posixGrammar, rows: wrapperCommandRows, operands: kCommand, bareWhy: "no command given",
			examples: []example{{"command cat a.txt", "allow"}, {"command -v git", "allow"}, {"command -pV ls", "allow"}, {"command", "ask"}, {"command -v ./.env", "deny"}, {"command -x ls", "ask"}}},
		"builtin": {grammar: posixGrammar, operands: kCommand, bareWhy: "no command given",
			examples: []example{{"builtin echo hi", "allow"}, {"builtin cd /", "ask"}, {"builtin -x echo", "ask"}}},
		"exec": {grammar: posixGrammar, rows: wrapperExecRows, operands: kCommand, allow: "exec without a command changes nothing",
			examples: []example{{"exec cat a.txt", "allow"}, {"exec -a x cat a.txt", "allow"}, {"exec -a x rm a.txt", "ask"}, {"exec -x ls", "ask"}, {"exec -cl cat .env", "deny"}}},
		// npx [OPTION]... PACKAGE[@VERSION] [ARG]...: npm's configuration
		// keys (nopt), -p for the package and -c for shell code, then the
		// package's program with its arguments, judged as its own: npx
		// eslint -c /tmp/x.js is eslint's line (specs_lint.go).
		"npx": {grammar: npxGrammar, joined: join(npxRows, npmScriptRows), shorthands: npxShorthands(), operands: kCommand, pkgName: true,
			ask: "runs a package's program, which it may first download from the registry", bareWhy: "no package given",
			examples: []example{{"npx eslint .", "ask+"}, {"npx -y prettier@3 --check .", "ask+"}, {"npx @scope/tool@1 run", "ask+"},
				{"npx eslint -c /tmp/x.js .", "ask!"}, {"npx prettier --plugin=/tmp/p.js -c .", "ask!"}, {"npx eslint -o /tmp/r .", "deny"},
				{"npx --node-options=--require=/tmp/x eslint .", "ask!"}, {"npx --script-shell /tmp/sh eslint .", "ask!"},
				{"npx -c 'cat .env'", "deny"}, {"npx --call='cat a.txt'", "ask"}, {"npx cat .env", "deny"}, {"npx", "ask"}}},
		// pnpx (pnpm dlx) and bunx: the package's program, which they may
		// first download, judged as npx's; their options end at the
		// package (clap's and bun's parsers).
		// uvx is uv tool run.
		"uvx": {grammar: uvGrammar, joined: join(uvToolRunRows, uvGlobalRows), operands: kCommand, pkgName: true,
			examples: []example{{"uvx ruff check .", "ask+"}, {"uvx --from httpie http --version", "ask+"},
				{"uvx --with-requirements .env black .", "deny"}, {"uvx cat .env", "deny"}}},
		"pnpx": {grammar: jsRunGrammar, joined: join(pnpxRows, pnpmRunRows), operands: kCommand, pkgName: true,
			ask: "runs a package's program, which it may first download from the registry", bareWhy: "no package given",
			examples: []example{{"pnpx eslint .", "ask+"}, {"pnpx --package=typescript tsc --noEmit", "ask+"},
				{"pnpx eslint -c /tmp/x.js .", "ask!"}, {"pnpx --config.node-options=--require=/tmp/x eslint .", "ask!"},
				{"pnpx -c 'cat .env'", "ask!"}, {"pnpx cat .env", "deny"}, {"pnpx", "ask"}}},
		"bunx": {grammar: jsRunGrammar, rows: bunxRows, operands: kCommand, pkgName: true,
			ask: "runs a package's program, which it may first download from the registry", bareWhy: "no package given",
			examples: []example{{"bunx prettier --check .", "ask+"}, {"bunx --bun vite build", "ask+"}, {"bunx -p @angular/cli ng version", "ask+"},
				{"bunx prettier --plugin /tmp/p.js -c .", "ask!"}, {"bunx --cwd /tmp/o eslint .", "ask!"}, {"bunx cat .env", "deny"}}},
	})
})

// subWrappers are the subcommands that run a program, judged as the
// wrappers are (model_wrap.go: subWrapper), by "command subcommand": pnpm
// dlx is pnpx, bun x is bunx, npm exec (npm x) is npx with npm's grammar;
// pnpm exec and yarn exec run a program of the package's dependencies
// (node_modules/.bin) with their arguments, bundle exec one with the
// bundle's gems.
var subWrappers = sync.OnceValue(func() map[string]*spec {
	w := wrapperSpecs()
	dlx, x := *w["pnpx"], *w["bunx"]
	dlx.examples, x.examples = nil, nil
	// npm exec reads its options anywhere (npm's nopt), and the
	// package's arguments after "--": an option among them is npm's.
	npmExec := func() *spec {
		s := *w["npx"]
		s.grammar, s.shorthands, s.examples, s.lazy = npmGrammar, npmShorthands, nil, nil
		return &s
	}
	exec := npmExec()
	exec.examples = []example{{"npm exec -- eslint .", "ask+"}, {"npm exec -- eslint -c /tmp/x.js .", "ask!"},
		{"npm x -- prettier --plugin=/tmp/p.js -c .", "ask!"}, {"npm exec --node-options=--require=/tmp/x -- jest", "ask!"},
		{"npm exec -- cat .env", "deny"}}
	return compileAll(map[string]*spec{
		"pnpm dlx": &dlx, "bun x": &x, "npm exec": exec, "npm x": npmExec(),
		"pnpm exec": {grammar: jsRunGrammar, joined: join([]optRow{{"-c --shell-mode", kAsk, "runs its operands as shell code, which is not analysed"}}, pnpmRunRows),
			operands: kCommand, ask: "runs a program of the package's dependencies", bareWhy: "no command given",
			examples: []example{{"pnpm exec eslint .", "ask+"}, {"pnpm exec -r tsc --noEmit", "ask+"},
				{"pnpm exec eslint -c /tmp/x.js .", "ask!"}, {"pnpm exec --config.node-options=--require=/tmp/x jest", "ask!"},
				{"pnpm exec -c 'cat .env'", "ask!"}, {"pnpm exec cat .env", "deny"}, {"pnpm dlx prettier --plugin /tmp/p.js -c .", "ask!"},
				{"bun x prettier --plugin /tmp/p.js -c .", "ask!"}, {"bun x cat .env", "deny"}, {"pnpm exec", "ask"}}},
		// bundle exec [--gemfile=GEMFILE] COMMAND: the Gemfile is Ruby
		// code, judged as a file read.
		"bundle exec": {grammar: grammar{}, rows: []optRow{{"--keep-file-descriptors --no-keep-file-descriptors -h --help", kFlag, ""},
			{"--gemfile=", kRead, ""}}, operands: kCommand, ask: "runs a program with the bundle's gems", bareWhy: "no command given",
			examples: []example{{"bundle exec rspec", "ask+"}, {"bundle exec rubocop -a", "ask+"}, {"bundle exec rspec -r /tmp/x.rb", "ask!"},
				{"bundle exec --gemfile=/tmp/Gemfile rake", "ask!"}, {"bundle exec cat .env", "deny"}}},
		// uv run COMMAND runs it in the project's environment; uv tool
		// run (uvx) a package's program, which uv may first download.
		"uv run": {grammar: uvGrammar, joined: join(uvRunRows, uvGlobalRows), operands: kCommand,
			ask: "runs a program in the project's environment", bareWhy: "no command given",
			examples: []example{{"uv run pytest -q", "ask+"}, {"uv run --with requests python -c 1", "ask+"},
				{"uv run --env-file .env.x pytest", "ask!"}, {"uv run --python /tmp/x/python pytest", "ask!"},
				{"uv run --directory /tmp/o pytest", "ask!"}, {"uv run cat .env", "deny"}, {"uv run rm -rf ~", "deny"}}},
		"uv tool run": {grammar: uvGrammar, joined: join(uvToolRunRows, uvGlobalRows), operands: kCommand, pkgName: true,
			ask: "runs a package's program, which uv may first download", bareWhy: "no command given",
			examples: []example{{"uv tool run ruff check .", "ask+"}, {"uv tool run --env-file e ruff check .", "ask!"},
				{"uv tool run cat .env", "deny"}}},
		// poetry run and pipenv run run a command in the project's
		// virtual environment (poetry run --help, 1.3 and 2.x's -P;
		// pipenv run --help, 2022.12).
		"poetry run": {grammar: grammar{shortEq: true}, rows: poetryRunRows, operands: kCommand,
			ask: "runs a program in the project's environment", bareWhy: "no command given",
			examples: []example{{"poetry run pytest -q", "ask+"}, {"poetry run -C /tmp/o pytest", "ask!"},
				{"poetry run cat .env", "deny"}}},
		"pipenv run": {grammar: grammar{shortEq: true}, rows: pipenvRunRows, operands: kCommand,
			ask: "runs a program in the project's environment", bareWhy: "no command given",
			examples: []example{{"pipenv run pytest -q", "ask+"}, {"pipenv run --python /tmp/x/python pytest", "ask!"},
				{"pipenv run cat .env", "deny"}}},
		// conda run and mamba run (conda run --help, 24): a command in
		// an environment, -n by name, -p by its path, judged as a read
		// of that directory; micromamba run (2.x) also sets variables
		// (-e NAME=VALUE), judged as env's are.
		"conda run": {grammar: condaRunGrammar, rows: condaRunRows, operands: kCommand,
			ask: "runs a program in a conda environment", bareWhy: "no command given",
			examples: []example{{"conda run -n base python -V", "ask+"}, {"conda run --cwd /tmp/o make", "ask!"},
				{"conda run -n base cat .env", "deny"}}},
		"mamba run": {grammar: condaRunGrammar, rows: condaRunRows, operands: kCommand,
			ask: "runs a program in a conda environment", bareWhy: "no command given"},
		"micromamba run": {grammar: condaRunGrammar, rows: micromambaRunRows, operands: kCommand,
			ask: "runs a program in a conda environment", bareWhy: "no command given",
			examples: []example{{"micromamba run -n dev pytest", "ask+"}, {"micromamba run -e LD_PRELOAD=/tmp/x.so -n dev pytest", "ask!"}}},
		// pdm run COMMAND runs it in the project's environment (or a
		// script of pyproject.toml, by its name, asked as a command of
		// that name); pipx run APP a package's program, which pipx may
		// first download.
		"pdm run": {grammar: grammar{shortEq: true}, rows: pdmRunRows, operands: kCommand,
			ask: "runs a program in the project's environment", bareWhy: "no command given",
			examples: []example{{"pdm run pytest -q", "ask+"}, {"pdm run -p /tmp/o pytest", "ask!"}, {"pdm run cat .env", "deny"}}},
		"pipx run": {grammar: grammar{shortEq: true}, rows: pipxRunRows, operands: kCommand, pkgName: true,
			ask: "runs a package's program, which pipx may first download", bareWhy: "no command given",
			examples: []example{{"pipx run cowsay hi", "ask+"}, {"pipx run --python /tmp/x/python black .", "ask!"},
				{"pipx run cat .env", "deny"}}},
		// composer exec BINARY runs a program of the project's
		// vendor/bin (composer exec --help, 2.5).
		"composer exec": {grammar: grammar{shortEq: true}, rows: []optRow{{"-l --list -h --help -q --quiet -v --verbose " +
			"-n --no-interaction --ansi --no-ansi --no-plugins --no-scripts --no-cache --profile -V --version", kFlag, ""},
			{"-d= --working-dir=", kAsk, "runs in another directory's project, whose scripts and plugins run"}},
			operands: kCommand, ask: "runs a program of the project's vendor/bin", bareWhy: "no command given",
			examples: []example{{"composer exec phpunit", "ask+"}, {"composer exec rm -- -rf ~", "deny"}, {"composer exec cat .env", "deny"}}},
		"yarn exec": {grammar: jsRunGrammar, rows: yarnRunRows, operands: kCommand, ask: "runs a program of the package's dependencies",
			bareWhy: "no command given",
			examples: []example{{"yarn exec eslint .", "ask+"}, {"yarn exec eslint -c /tmp/x.js .", "ask!"},
				{"yarn exec --use-yarnrc=/tmp/y jest", "ask!"}, {"yarn exec cat .env", "deny"}}},
	})
})

// poetryRunRows are poetry run's options, its global ones: -C and -P
// (2.x) take another directory's project, and run the command there.
var poetryRunRows = []optRow{
	{"-h --help -q --quiet -V --version --ansi --no-ansi -n --no-interaction --no-plugins --no-cache -v --verbose", kFlag, ""},
	{"-C= --directory= -P= --project=", kAsk, "runs the command in the project of another directory"},
}

// condaRunGrammar is argparse's, as conda run reads its line: its
// options end at the command (argparse.REMAINDER).
var condaRunGrammar = grammar{abbrev: true}

// condaRunRows are conda run's options, and mamba run's.
var condaRunRows = []optRow{
	{"-h --help -v --verbose --dev --debug-wrapper-scripts --no-capture-output --no-capture --live-stream -q --quiet --json", kFlag, ""},
	{"-n= --name=", kWord, ""},
	{"-p= --prefix=", kRead, ""},
	{"--cwd=", kAsk, "runs the command in another directory, whose relative paths are not checked"},
}

// micromambaRunRows are micromamba run's options.
var micromambaRunRows = []optRow{
	{"-h --help -v --verbose -q --quiet -y --yes --json --clean-env -d --detach", kFlag, ""},
	{"-n= --name= -r= --root-prefix= --label= -a= --attach=", kWord, ""},
	{"-p= --prefix=", kRead, ""},
	{"-e= --env=", kSetVar, ""},
	{"--cwd=", kAsk, "runs the command in another directory, whose relative paths are not checked"},
}

// pdmRunRows are pdm run's options (pdm 2): -p takes another
// directory's project, and runs the command there.
var pdmRunRows = []optRow{
	{"-h --help -v --verbose -q --quiet -g --global -l --list -j --json -s --site-packages --recreate", kFlag, ""},
	{"--skip=", kWord, ""},
	{"-p= --project=", kAsk, "runs the command in the project of another directory"},
}

// pipxRunRows are pipx run's options (pipx run --help, 1.1; -v, -q
// and --quiet of later ones).
var pipxRunRows = []optRow{
	{"-h --help -v --verbose -q --quiet --no-cache --pypackages --system-site-packages -e --editable", kFlag, ""},
	{"--spec= -i= --index-url= --pip-args=", kWord, ""},
	{"--python=", kInterpreter, ""},
}

// pipenvRunRows are pipenv run's options.
var pipenvRunRows = []optRow{
	{"--three --clear -q --quiet -v --verbose -h --help", kFlag, ""},
	{"--pypi-mirror=", kWord, ""},
	{"--python=", kInterpreter, ""},
}

// pnpxRows are pnpm dlx's own options; pnpm's shared ones (pnpmRunRows)
// follow them.
var pnpxRows = []optRow{
	{"-v --version", kFlag, ""},
	{"--package= --allow-build= --cpu= --os= --libc=", kWord, ""},
	{"-c --shell-mode", kAsk, "runs its operands as shell code, which is not analysed"},
}

// bunxRows are bunx's options.
var bunxRows = []optRow{
	{"--bun --no-install --trust --ignore-scripts --verbose --silent -h --help", kFlag, ""},
	{"-p= --package= --minimum-release-age= --registry=", kWord, ""},
	{"--ca= --cafile=", kRead, ""},
	{"--cwd=", kProgram, "runs the package's program in another directory"},
	{"--env-file=", kProgram, "loads variables from a file into the environment, where BUN_OPTIONS can preload a module"},
}

// npxGrammar is npm's nopt, as npx reads its command line: its options
// end at the package's name.
var npxGrammar = grammar{nopt: true, abbrev: true}

// npxRows are npx's own options, read before npm's keys.
var npxRows = []optRow{{"-p= --package=", kWord, ""}, {"-c= --call=", kShellCode, ""}}

// npxShorthands are npm's shorthands as npx reads them: -p is its
// --package, not npm's --parseable.
func npxShorthands() map[string][]string {
	m := maps.Clone(npmShorthands)
	m["p"] = []string{"--package"}
	return m
}

// wrapperNiceRows are the options of nice.
var wrapperNiceRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-n= --adjustment=", kWord, ""},
	}, gnuInfoRows)
})

// wrapperTimeoutRows are the options of timeout.
var wrapperTimeoutRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"--preserve-status", kFlag, ""},
		{"--foreground", kFlag, ""},
		{"-k= --kill-after=", kWord, ""},
		{"-s= --signal=", kWord, ""},
		{"-v --verbose", kFlag, ""},
	}, gnuInfoRows)
})

// wrapperTimeRows are the options of GNU time: -o writes its report.
var wrapperTimeRows = []optRow{
	{"-a --append", kFlag, ""},
	{"-f= --format=", kWord, ""},
	{"-o= --output=", kWrite, "its report"},
	{"-p --portability", kFlag, ""},
	{"-q --quiet", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"-h --help", kFlag, ""},
	{"-V --version", kFlag, ""},
}

// wrapperStdbufRows are the options of stdbuf.
var wrapperStdbufRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-i= --input=", kWord, ""},
		{"-o= --output=", kWord, ""},
		{"-e= --error=", kWord, ""},
	}, gnuInfoRows)
})

// utilInfoRows are -h and -V, util-linux's --help and --version.
var utilInfoRows = []optRow{
	{"-h --help", kFlag, ""},
	{"-V --version", kFlag, ""},
}

// wrapperSetsidRows are the options of setsid.
var wrapperSetsidRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-c --ctty", kFlag, ""},
		{"-f --fork", kFlag, ""},
		{"-w --wait", kFlag, ""},
	}, utilInfoRows)
})

// wrapperFlockRows are the options of flock. flock takes -c only after
// the lock file (flockOperands); written before it, it is judged as the
// code all the same.
var wrapperFlockRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-s --shared", kFlag, ""},
		{"-x --exclusive", kFlag, ""},
		{"-u --unlock", kFlag, ""},
		{"-n --nonblock", kFlag, ""},
		{"-w= --timeout=", kWord, ""},
		{"-E= --conflict-exit-code=", kWord, ""},
		{"-o --close", kFlag, ""},
		{"-c= --command=", kShellCode, ""},
		{"-F --no-fork", kFlag, ""},
		{"--verbose", kFlag, ""},
	}, utilInfoRows)
})

// wrapperWatchRows are the options of watch.
var wrapperWatchRows = []optRow{
	{"-b --beep", kFlag, ""},
	{"-c --color", kFlag, ""},
	{"-d[=] --differences[=]", kWord, ""},
	{"-e --errexit", kFlag, ""},
	{"-g --chgexit", kFlag, ""},
	{"-q= --equexit=", kWord, ""},
	{"-n= --interval=", kWord, ""},
	{"-p --precise", kFlag, ""},
	{"-t --no-title", kFlag, ""},
	{"-w --no-wrap", kFlag, ""},
	{"-x --exec", kExecOps, ""},
	{"-h --help", kFlag, ""},
	{"-v --version", kFlag, ""},
}

// wrapperEnvRows are the options of env. -C runs the command in another
// directory, -S splits a string into the command line; the signal
// options change what the command's signals do. --help and --version
// print their text and exit as getopt_long meets them, before env acts
// on any other option or runs anything (coreutils' env.c: usage and
// version_etc in the option loop): alone, or with options that only
// take effect afterwards, they are allowed (envSpec).
var wrapperEnvRows = []optRow{
	{"-i --ignore-environment", kClearEnv, ""},
	{"-0 --null", kFlag, ""},
	{"-u= --unset=", kUnsetVar, ""},
	{"-C= --chdir=", kDir, ""},
	{"-S= --split-string=", kSplitArgs, ""},
	{"--block-signal[=] --default-signal[=] --ignore-signal[=]", kAsk, "changes what the signals sent to the command do"},
	{"--list-signal-handling", kAsk, "is not among the options judged harmless"},
	{"-v --debug", kFlag, ""},
	{"--help --version", kVersion, ""},
}

// wrapperXargsRows are the options of GNU xargs (findutils' getopt_long
// string "+0a:E:e::i::I:l::L:n:prs:txP:d:o"; --max-lines is -l, whose
// value is optional). -0 and -d say where each argument read ends, -I,
// -i, -E and -e read the input otherwise; -a reads the arguments from a
// file; -p prompts, and -o gives the command the terminal, which would
// hang; --process-slot-var sets a variable for the commands run.
var wrapperXargsRows = []optRow{
	{"-0 --null", kDelim, ""},
	{"-d= --delimiter=", kDelim, ""},
	{"-a= --arg-file=", kRead, ""},
	{"-E=", kSplit, ""},
	{"-e[=] --eof[=]", kSplit, ""},
	{"-I=", kSplit, ""},
	{"-i[=] --replace[=]", kSplit, ""},
	{"-L=", kWord, ""},
	{"-l[=] --max-lines[=]", kWord, ""},
	{"-n= --max-args=", kWord, ""},
	{"-P= --max-procs=", kWord, ""},
	{"-s= --max-chars=", kWord, ""},
	{"-r --no-run-if-empty", kFlag, ""},
	{"-t --verbose", kFlag, ""},
	{"-x --exit", kFlag, ""},
	{"--show-limits", kFlag, ""},
	{"-p --interactive", kAsk, "prompts on the terminal and would hang"},
	{"-o --open-tty", kAsk, "gives the command the terminal, and would hang"},
	{"--process-slot-var=", kSetVar, ""},
	{"--help --version", kVersion, ""},
}

// wrapperCommandRows are the options of bash's command: -v and -V print
// how each name would be found, and run nothing.
var wrapperCommandRows = []optRow{
	{"-p", kFlag, ""},
	{"-v -V", kLookup, ""},
}

// wrapperExecRows are the options of bash's exec: -a names the command's
// argv[0].
var wrapperExecRows = []optRow{
	{"-c", kFlag, ""},
	{"-l", kFlag, ""},
	{"-a=", kWord, ""},
}
