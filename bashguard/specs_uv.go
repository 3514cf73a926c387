package bashguard

import "sync"

// uv's commands that run a command line, judged as the wrappers are
// (subWrappers): uv run [OPTIONS] COMMAND... runs it in the project's
// environment, uv tool run (uvx) a package's program. Their options are
// every one uv's clap parser defines for them (crates/uv-cli: RunArgs,
// ToolRunArgs, and the global ones, which stand before the subcommand
// or after it: uvGlobalRows), read as clap reads them: "--name value",
// "--name=value", "-w value", "-wvalue", no abbreviation, options until
// the command. The command runs as its own, judged so (uv run rm -rf ~
// is rm's); --env-file loads an environment where PYTHONSTARTUP and
// LD_PRELOAD run code, --python may name an interpreter to run, and
// --directory and --project move to another project.

// uvGlobalRows are uv's global options (TopLevelArgs, GlobalArgs,
// CacheArgs).
var uvGlobalRows = rows(
	each(kFlag, "", "-n --no-cache --no-cache-dir", "--managed-python", "--no-managed-python",
		"--allow-python-downloads", "--no-python-downloads", "-q --quiet", "-v --verbose", "--no-color", "--native-tls",
		"--no-native-tls", "--system-certs", "--no-system-certs", "--offline", "--no-offline", "--preview", "--no-preview",
		"--isolated", "--show-settings", "--no-progress", "--no-installer-metadata", "--no-config", "-h --help",
		"-V --version"),
	each(kWord, "", "--python-preference=", "--python-fetch=", "--color=", "--allow-insecure-host= --trusted-host=",
		"--preview-features= --preview-feature="),
	each(kWrite, "", "--cache-dir="),
	each(kConfig, "reads uv's configuration, which names the indexes and interpreters uv uses", "--config-file="),
	each(kAsk, "runs the command in another directory, whose project uv installs and whose relative paths are not checked", "--directory="),
	each(kAsk, "uses the project of another directory, whose build backends run code", "--project="),
)

// uvRunRows are uv run's own options (RunArgs).
var uvRunRows = rows(
	each(kFlag, "", "--all-extras", "--no-all-extras", "--dev", "--no-dev", "--only-dev", "--no-default-groups",
		"--all-groups", "-m --module", "--editable", "--no-editable", "--inexact --no-exact", "--exact", "--no-env-file",
		"--isolated", "--active", "--no-active", "--no-sync", "--locked", "--frozen", "-s --script", "--gui-script",
		"--no-index", "-U --upgrade", "--no-upgrade", "--reinstall --force-reinstall", "--no-reinstall", "--pre",
		"--no-build-isolation", "--build-isolation", "--compile-bytecode --compile", "--no-compile-bytecode --no-compile",
		"--no-sources", "--no-build", "--build", "--no-binary", "--binary", "--refresh", "--no-refresh", "--all-packages",
		"--no-project --no_workspace", "--show-resolution"),
	each(kWord, "", "--extra=", "--no-extra=", "--group=", "--no-group=", "--only-group=", "--no-editable-package=",
		"-w= --with=", "--with-editable=", "--index=", "--default-index=", "-i= --index-url=", "--extra-index-url=",
		"-f= --find-links=", "-P= --upgrade-package=", "--upgrade-group=", "--reinstall-package=", "--index-strategy=",
		"--keyring-provider=", "--resolution=", "--prerelease=", "--prerelease-package=", "--fork-strategy=",
		"-C= --config-setting= --config-settings=", "--config-settings-package=", "--no-build-isolation-package=",
		"--exclude-newer=", "--exclude-newer-package=", "--link-mode=", "--no-sources-package=", "--no-build-package=",
		"--no-binary-package=", "--refresh-package=", "--package=", "--max-recursion-depth=", "--python-platform="),
	each(kInterpreter, "", "-p= --python="),
	each(kRead, "", "--with-requirements="),
	each(kProgram, "loads variables from a file into the environment of the command, where PYTHONSTARTUP and LD_PRELOAD run code", "--env-file="),
)

// uvToolRunRows are uv tool run's, and uvx's (ToolRunArgs).
var uvToolRunRows = rows(
	each(kFlag, "", "--isolated", "--no-env-file", "--no-index", "-U --upgrade", "--no-upgrade",
		"--reinstall --force-reinstall", "--no-reinstall", "--pre", "--no-build-isolation", "--build-isolation",
		"--compile-bytecode --compile", "--no-compile-bytecode --no-compile", "--no-sources", "--no-build", "--build",
		"--no-binary", "--binary", "--refresh", "--no-refresh", "--lfs", "--show-resolution"),
	each(kWord, "", "--from=", "-w= --with=", "--with-editable=", "--index=", "--default-index=", "-i= --index-url=",
		"--extra-index-url=", "-f= --find-links=", "-P= --upgrade-package=", "--upgrade-group=", "--reinstall-package=",
		"--index-strategy=", "--keyring-provider=", "--resolution=", "--prerelease=", "--prerelease-package=",
		"--fork-strategy=", "-C= --config-setting= --config-settings=", "--config-settings-package=",
		"--no-build-isolation-package=", "--exclude-newer=", "--exclude-newer-package=", "--link-mode=",
		"--no-sources-package=", "--no-build-package=", "--no-binary-package=", "--refresh-package=", "--python-platform=",
		"--torch-backend=", "--generate-shell-completion="),
	each(kInterpreter, "", "-p= --python="),
	each(kRead, "", "--with-requirements=", "-c= --constraints= --constraint=",
		"-b= --build-constraints= --build-constraint=", "--overrides= --override="),
	each(kProgram, "loads variables from a file into the environment of the command, where PYTHONSTARTUP and LD_PRELOAD run code", "--env-file="),
)

// uvGlobalSpec reads uv's global options before its subcommand.
var uvGlobalSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "uv", grammar: uvGrammar, rows: uvGlobalRows}).compile()
})

// uvGrammar is clap's, as uv reads its line: the options end at the
// command (trailing_var_arg).
var uvGrammar = grammar{shortEq: true}
