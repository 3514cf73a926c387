package bashguard

import (
	"github.com/toolgate/toolgate/permission"
	"sync"
)

// The command lists of the default policy. They are read-only after
// package initialisation (plain composite literals, no init code).

// safeNoPaths are auto-allowed with any literal arguments: they read no
// files named by their arguments and change nothing.
var safeNoPaths = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"echo": true, "pwd": true, "true": true, "false": true, "sleep": true,
		"basename": true, "dirname": true,
		"which": true, "seq": true, "id": true, "type": true,
		"uname": true, "whoami": true, "expr": true, "tr": true, ":": true,
		"test": true, "[": true,
		// numfmt's operands are numbers, not files, and none of its options
		// (numfmt(1): --debug, -d, --field, --format, --from, --from-unit,
		// --grouping, --header, --invalid, --padding, --round, --suffix,
		// --to, --to-unit, -z) reads a file, writes or runs anything.
		"numfmt": true,
		// exit ends the script; "cd DIR || exit" is how scripts stop when a
		// directory is missing.
		"exit": true,
	}
})

// privileged commands run something as another user: always denied.
var privileged = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"sudo": true, "doas": true, "su": true, "pkexec": true, "run0": true, "sudoedit": true,
	}
})

// network commands reach other machines.
var networkCmds = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
		"ssh": true, "scp": true, "sftp": true, "ftp": true, "telnet": true,
	}
})

// interactive commands would wait for a person and hang an agent.
var interactive = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"vim": true, "vi": true, "nvim": true, "nano": true, "emacs": true, "pico": true,
		"less": true, "more": true, "most": true, "top": true, "htop": true, "btop": true,
	}
})

// bareInteractive start an interactive prompt when given no arguments.
var bareInteractive = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"python": true, "python3": true, "python2": true, "node": true, "nodejs": true,
		"ipython": true, "irb": true,
	}
})

// disk commands destroy file systems or partition tables.
var diskCmds = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"fdisk": true, "sfdisk": true, "cfdisk": true, "gdisk": true, "sgdisk": true,
		"parted": true, "mke2fs": true, "mkswap": true, "wipefs": true,
	}
})

// versionWords are the arguments with which an interactive or network
// command only prints its version or its help (onlyVersion).
var versionWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"--version": true, "--help": true, "-V": true, "-h": true, "-version": true}
})

// hostVersionWords are the arguments with which a package manager or
// other tool of netTools only prints its version or help, reaching no
// host (printsOnly): -v too, which is the version to npm, yarn and their
// like.
var hostVersionWords = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"--version": true, "-v": true, "-V": true, "--help": true, "-h": true}
})

// initHalts are the runlevels by which init and telinit shut down (0)
// or restart (6) the machine.
var initHalts = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"0": true, "6": true}
})

var powerCmds = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"shutdown": true, "reboot": true, "halt": true, "poweroff": true,
	}
})

var shells = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"bash": true, "sh": true, "zsh": true, "dash": true, "ksh": true, "mksh": true,
		"ash": true, "fish": true, "csh": true, "tcsh": true,
	}
})

// cmdNamed are the commands the dispatcher knows by name rather than by a
// list, each with its class: those with a model of their own (rm, dd,
// kill, the tools whose input is a program, the wrappers).
var cmdNamed = sync.OnceValue(func() map[string]cmdClass {
	return map[string]cmdClass{
		"rm": clsRm, "dd": clsDd, "shred": clsShred, "init": clsInit, "telinit": clsInit,
		"systemctl": clsSystemctl, "kill": clsKill, "mount": clsMount, "umount": clsMount, "rsync": clsRsync,
		"eval": clsEval, "source": clsSource, ".": clsSource,
		"awk": clsAwk, "gawk": clsAwk, "mawk": clsAwk, "nawk": clsAwk,
		"sed": clsSed, "find": clsFind, "git": clsGit, "xargs": clsXargs, "env": clsEnv,
		"nice": clsWrapper, "nohup": clsWrapper, "timeout": clsWrapper, "time": clsWrapper, "stdbuf": clsWrapper,
		"command": clsWrapper, "builtin": clsWrapper, "exec": clsWrapper, "setsid": clsWrapper, "flock": clsWrapper,
		"watch": clsWrapper, "npx": clsWrapper, "pnpx": clsWrapper, "bunx": clsWrapper, "uvx": clsWrapper,
		"printenv": clsEnvPrint, "set": clsEnvPrint,
	}
})

// classModels are what the dispatcher does with a command of each class
// (classes.go), by class: the finding of the class itself (dec, rule and
// why; lifts says an allow rule may lift its Ask), or the model that reads
// the command line. clsUnlisted and the classes past clsAssigner, which
// apply to a standard name alone, are the dispatcher's own (dispatch.go).
var classModels = [...]classRow{
	clsPrivileged:  {dec: permission.Deny, rule: RuleDangerousPrivilege, why: "runs a command with other privileges"},
	clsRm:          {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.writer(c, "rm", l.v) }},
	clsDisk:        {dec: permission.Deny, rule: RuleDangerousDisk, why: "changes disks or file systems"},
	clsDd:          {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.dd(c, l.v) }},
	clsShred:       {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.writer(c, "shred", l.v) }},
	clsPower:       {dec: permission.Deny, rule: RuleDangerousPower, why: "shuts down or restarts the machine"},
	clsInit:        {model: initModel},
	clsSystemctl:   {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.systemctl(c, l.v) }},
	clsKill:        {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.kill(c, l.v) }},
	clsMount:       {dec: permission.Deny, rule: RuleDangerousMount, why: "mounts or unmounts file systems"},
	clsInteractive: {model: interactiveModel},
	clsNetwork:     {model: networkModel},
	clsRsync:       {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.rsync(c, l.v) }},
	clsShell:       {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.shell(c, l.v, l.x) }},
	clsEval:        {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.eval(c, l.v) }},
	clsSource:      {model: sourceModel},
	clsInterpreter: {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.interpreter(c, l.name, l.v, l.x) }},
	clsAwk:         {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.awk(c, l.v) }},
	clsSed:         {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.sed(c, l.v) }},
	clsFind:        {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.find(c, l.v, l.x) }},
	clsGit:         {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.git(c, l.v) }},
	clsXargs:       {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.xargs(c, l.v, l.x) }},
	clsEnv:         {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.env(c, l.v, l.x) }},
	clsWrapper:     {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.wrapper(c, l.name, l.v, l.x) }},
	clsWriter:      {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.writer(c, l.name, l.v) }},
	clsState:       {model: func(_ *cmdCall, c *verdictAcc, l cmdLine) { c.add(permission.Ask, "state", l.entry.state, false) }},
	clsEnvPrint:    {model: func(m *cmdCall, c *verdictAcc, l cmdLine) { m.envPrinter(c, l.name, l.v) }},
	clsAssigner:    {model: assignerModel},
}

// cmdPrefixes are the commands known by how their names begin
// ("mkfs.ext4", "python3.12"), for names on no list.
var cmdPrefixes = []struct {
	prefix string
	class  cmdClass
}{
	{"mkfs", clsDisk}, {"python", clsInterpreter}, {"pypy", clsInterpreter},
}

// writers change the files named by their arguments.
var writers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"rm": true, "rmdir": true, "unlink": true, "mv": true, "cp": true, "install": true,
		"touch": true, "mkdir": true, "ln": true, "chmod": true, "chown": true, "chgrp": true,
		"truncate": true, "shred": true, "tee": true,
	}
})

// stateBuiltins change how later commands in the script behave; an allow
// rule cannot lift their Ask.
var stateBuiltins = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"cd":      "changes the working directory, so later relative paths cannot be checked",
		"pushd":   "changes the working directory, so later relative paths cannot be checked",
		"popd":    "changes the working directory, so later relative paths cannot be checked",
		"alias":   "defines an alias that changes what later commands run",
		"trap":    "installs code that runs on a signal",
		"enable":  "enables or disables shell builtins",
		"hash":    "changes where later commands are found",
		"shopt":   "changes shell options",
		"unalias": "changes what later commands run",
	}
})

// harmlessVars may be set for a command without changing what it runs.
var harmlessVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"LANG": true, "LANGUAGE": true, "TZ": true, "NO_COLOR": true, "COLUMNS": true,
		"LINES": true, "TERM": true, "CLICOLOR": true, "FORCE_COLOR": true, "GREP_COLORS": true,
	}
})

// tiedVars are the lower-case names that a shell ties to its environment
// or its own behaviour: zsh's arrays tied to PATH and friends, bash's
// history and job-control variables, and the proxy settings that
// programs read in lower case.
var tiedVars = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"path": true, "cdpath": true, "fpath": true, "manpath": true, "module_path": true, "mailpath": true,
		"psvar": true, "fignore": true, "watch": true, "histchars": true, "auto_resume": true,
		"no_proxy": true,
	}
})

// varUse is what a builtin does to the variables the walker binds.
type varUse uint8

const (
	varUntouched varUse = iota
	// varRunsCode: it runs text as code, which may assign any variable.
	varRunsCode
	// varNamesWord: it assigns (or unsets) a variable its words name.
	varNamesWord
)

// varBuiltins are the builtins that may change a variable bound in a loop.
var varBuiltins = sync.OnceValue(func() map[string]varUse {
	return map[string]varUse{
		"eval": varRunsCode, "source": varRunsCode, ".": varRunsCode, "let": varRunsCode,
		"read": varNamesWord, "mapfile": varNamesWord, "readarray": varNamesWord, "printf": varNamesWord,
		"getopts": varNamesWord, "unset": varNamesWord, "wait": varNamesWord, "command": varNamesWord,
		"builtin": varNamesWord, "export": varNamesWord, "declare": varNamesWord, "typeset": varNamesWord,
		"local": varNamesWord, "readonly": varNamesWord,
	}
})

// builtinRunners run the builtin their first word names.
var builtinRunners = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"command": true, "builtin": true}
})

// declOptions are, for each declaration builtin, the option letters that
// only assign values and export them.
var declOptions = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"export": "nfp", "declare": "xgpfF", "typeset": "xgpfF", "local": "xgpfF",
	}
})

// printOnlyOptions are the commands whose options only change how they
// print: a glob there may expand to an option.
var printOnlyOptions = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"echo": true}
})

// copiers are the commands whose last operand is where the copy goes.
var copiers = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"rsync": true, "scp": true}
})

// systemctlPower are the systemctl commands that shut down or restart
// the machine.
var systemctlPower = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"poweroff": true, "reboot": true, "halt": true, "kexec": true, "soft-reboot": true,
	}
})

// batchOptions are the short options with which an interactive program
// prints and exits instead of waiting (top -b), by name.
var batchOptions = sync.OnceValue(func() map[string]string {
	return map[string]string{"top": "b", "btop": "b"}
})

// untrackedCmds are the commands after which, anywhere in a script, its
// values cannot be followed: they run code the guard does not see, change
// what later assignments do, or run code at times it does not know.
var untrackedCmds = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"eval": true, "source": true, ".": true, "trap": true, "alias": true, "enable": true, "shopt": true,
		"declare": true, "typeset": true, "local": true, "readonly": true, "export": true, "nameref": true,
	}
})

// assignsAny are the builtins after which any variable may hold anything:
// they run code, or assign the names their arguments build.
var assignsAny = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"eval": true, "source": true, ".": true, "command": true, "builtin": true, "let": true, "declare": true,
		"typeset": true, "local": true, "export": true, "readonly": true, "nameref": true,
	}
})

// harmlessParams are the variables whose values are no secret and come
// from the host or the shell itself, never from a file: as data they are
// harmless. The status and counts ($? $# $$ $! $-) are numbers and
// option letters.
var harmlessParams = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"?": true, "#": true, "$": true, "!": true, "-": true,
		"USER": true, "LOGNAME": true, "SHELL": true, "LANG": true, "TERM": true, "PATH": true, "HOSTNAME": true,
		"HOSTTYPE": true, "OSTYPE": true, "MACHTYPE": true, "BASH_VERSION": true, "UID": true, "EUID": true,
		"PPID": true, "SHLVL": true, "OLDPWD": true,
	}
})

// environNames are the variables of harmlessParams that bash takes from
// the environment as they are (it sets SHELL only when unset, PATH only
// when unset): with the host's value (Policy.Environ), $NAME stands for
// it, as $HOME does for Policy.Home. The shell's own ($UID, $PPID,
// $SHLVL, $HOSTNAME, ...) are not the environment's.
var environNames = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"PATH": true, "SHELL": true, "USER": true, "LOGNAME": true, "LANG": true, "TERM": true}
})

// dataArgs are the commands that take some of their words as data, by
// name. echo, true, basename, tr and the like read no file and have no
// option that runs or writes anything: any word is printed, compared or
// refused.
var dataArgs = sync.OnceValue(func() map[string]dataRow {
	return map[string]dataRow{
		"echo": {data: anyData}, ":": {data: anyData}, "true": {data: anyData}, "false": {data: anyData}, "exit": {data: anyData},
		"basename": {data: anyData}, "dirname": {data: anyData}, "expr": {data: anyData}, "tr": {data: anyData}, "seq": {data: anyData},
		"numfmt": {data: anyData},
		"printf": {data: printfData},
		"test":   {data: testDataArg, counted: true}, "[": {data: testDataArg, counted: true},
	}
})

// testFileOps are the operators of test and [ whose operand is a path.
var testFileOps = sync.OnceValue(func() map[string]bool {
	return map[string]bool{
		"-e": true, "-f": true, "-d": true, "-r": true, "-w": true, "-x": true, "-s": true, "-L": true, "-h": true,
		"-p": true, "-S": true, "-b": true, "-c": true, "-g": true, "-u": true, "-k": true, "-O": true, "-G": true,
		"-N": true, "-a": true,
	}
})

// plainEnvSuffixes are the endings of variable names that hold a
// directory, a search path or a version.
var plainEnvSuffixes = []string{"_HOME", "_ROOT", "_DIR", "_PATH", "PATH", "_BIN", "_VERSION", "_PREFIX"}

// secretEnvWords are the parts of a name that mark a secret, or a value
// that may embed one (a URL or DSN with credentials, a proxy).
var secretEnvWords = []string{"TOKEN", "SECRET", "PASS", "PWD", "KEY", "AUTH", "CRED", "PRIVATE", "SESSION", "COOKIE",
	"CERT", "URL", "URI", "DSN", "PROXY", "CONN", "SIGN", "SALT", "API"}

// envPrinters are the commands that print the environment or the
// shell's variables (the class clsEnvPrint of cmdNamed).
var envPrinters = sync.OnceValue(func() map[string]envPrinterRow {
	return map[string]envPrinterRow{
		"printenv": {prints: "prints the environment"},
		"set":      {prints: "prints every shell variable", withArgs: "changes shell options or the positional parameters"},
	}
})

// valueCommands are the command lines, literal words, whose output the
// guard knows without running them: the working directory, and the top of
// the repository git finds from it.
var valueCommands = sync.OnceValue(func() map[string]func(m *cmdCall) (string, bool) {
	return map[string]func(m *cmdCall) (string, bool){
		"pwd":                           (*cmdCall).pwdValue,
		"git rev-parse --show-toplevel": (*cmdCall).repoTopValue,
	}
})
