package bashguard

import "sync"

// terraform's options that name files and directories of this machine
// or run programs (terraform 1.x, each command's -help), read as Go's
// flag package reads them: one dash or two, "-name=value" or "-name
// value", a boolean given "=true" or "=false", read anywhere on the line
// (each command reads its own after its name). The rest of its options
// (-target, -var, -lock, ...) are words, left to the host reader:
// terraform is also a toolchain with its own rows (versionTools), so
// this spec is not its whole line. The configuration in the working
// directory is the user's, as Bash(terraform:*) says; -chdir reads
// another directory's, judged as a read of it. -plugin-dir and
// -fs-mirror name where the providers it runs are found, -from-module
// copies a module in; terraform console evaluates expressions that read
// any file (file("/etc/shadow")); terraform fmt rewrites the files it is
// given, and providers mirror writes into its directory.
var terraformRows = rows(
	each(kRead, "", "-chdir=", "-var-file=", "-backend-config=", "-config=", "-plan=", "-test-directory="),
	each(kWrite, "", "-out=", "-state=", "-state-out=", "-backup=", "-generate-config-out=", "-junit-xml="),
	each(kProgram, "names where terraform finds the providers it runs, programs", "-plugin-dir=", "-fs-mirror="),
	each(kAsk, "copies a module into the working directory, whose configuration then runs", "-from-module="),
	each(kWord, "", "-var=", "-target=", "-replace=", "-lock-timeout=", "-parallelism=", "-lockfile=", "-type=",
		"-platform=", "-net-mirror=", "-filter=", "-module-depth="),
	each(kFlag, "", "-help[=]", "-version[=]", "-json[=]", "-no-color[=]", "-auto-approve[=]", "-upgrade[=]",
		"-reconfigure[=]", "-migrate-state[=]", "-compact-warnings[=]", "-destroy[=]", "-refresh-only[=]",
		"-refresh[=]", "-input[=]", "-lock[=]", "-backend[=]", "-get[=]", "-force-copy[=]", "-detailed-exitcode[=]",
		"-list[=]", "-write[=]", "-diff[=]", "-check[=]", "-recursive[=]", "-raw[=]", "-update[=]", "-force[=]",
		"-dry-run[=]", "-ignore-remote-version[=]", "-allow-missing-config[=]", "-draw-cycles[=]", "-verbose[=]"),
)

// terraformCommands are what the operands of some commands are.
var terraformCommands = []leadCommand{
	{"console", kAsk, "evaluates expressions, which read any file of this machine (file())", nil},
	{"fmt", kOutfile, "", nil},
	{"providers mirror", kOutfile, "", nil},
}

// terraformSpec is terraform's, and OpenTofu's.
var terraformSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "terraform", grammar: grammar{oneDash: true, twoDashes: true, permute: true}, rows: terraformRows,
		leadCommands: terraformCommands}).compile()
})
