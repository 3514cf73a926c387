// Package bashguard is layer 5 of toolgate: it judges a shell command
// before it runs, command by command, and runs it within limits.
//
// # Judging a script
//
// A [Guard] parses the script as bash with mvdan.cc/sh/v3/syntax and
// visits every simple command wherever it stands: after && || ; & | and
// |&, in subshells, brace groups, if/while/for/case bodies and function
// bodies, inside $(...) and backticks in any position (arguments,
// assignments, redirect targets, double quotes, here-documents, parameter
// expansion defaults such as ${x:-$(cmd)}), and inside process
// substitutions. Each one gets its own [Command] in the [Verdict]:
//
//	g := bashguard.New(bashguard.Policy{Home: home})
//	v := g.Judge(ctx, dir, paths, "git status && go test ./... | tee out.txt")
//	// v.Decision == permission.Ask, v.Rule == bashguard.RuleUnlisted ("unlisted")
//	// v.Commands: git (allow), go (ask), tee (ask: writes out.txt)
//
// The combined decision is Deny if any command is denied, Allow only if
// every command is allowed, and Ask otherwise. A script that cannot be
// parsed, is larger than [Policy.MaxScriptBytes] or holds more than
// [Policy.MaxCommands] simple commands is denied as "cannot be analysed".
//
// # What is allowed
//
// A command is auto-allowed only when every word of it is literal (known
// before run time, after quote removal: "r"m, r\m and 'rm' are rm; /bin/rm
// is rm) and it is on the safe list with read-only arguments: the original
// design's safe commands (ls, cat, grep, head, ...), with argument checks
// for the ones whose safety depends on flags (find, sed, sort, uniq, date,
// git, rg, base64, awk), plus harmless readers such as nl, tac and seq.
// Every path a command reaches goes through the [PathJudge] given to
// [Guard.Judge], the host's one path pipeline (package runtime gives it
// the sandbox and the user's Read and Edit rules): a read outside the
// roots is not auto-allowed, and a read of a secret path or of a path a
// Deny rule names is denied. [SafeCommands] lists the names. When that
// PathJudge is also a [HostJudge], every host a network command reaches
// (curl's URLs, git's remote, ssh's destination, ...) goes through it, and
// a host it does not allow is asked or denied whatever rule allows the
// command.
//
// The options of each safe command are an allowlist: an option not known
// to be harmless for that command is Ask. A glob in an option position
// that expands to a word starting with "-" (a planted file named
// "--pre=sh") is Ask unless it follows "--" or starts with a literal such
// as "./"; every glob reads the directory bash lists for it. File tests,
// realpath, readlink, df, which and command -v on a path are reads of that
// path; a device file is not a plain read.
//
// Names a script may assign (NAME=value, for and select variables,
// {NAME}> redirections, read, mapfile, printf -v, getopts, wait -p, unset,
// declare, export, local, readonly and typeset, also a bare "export NAME")
// are an allowlist too: a few harmless names, LC_*, and lower-case names
// that no shell ties to its environment. Printing the environment
// (printenv, env without a command, set, declare -p, export, jq's env and
// $ENV, awk's ENVIRON, /proc/PID/environ) is a read of secrets, and git is
// allowed only on the repository it discovers from the working directory
// when that is not a bare repository: -C, --git-dir, --work-tree and
// --bare are Ask. A job left in the background (&) is judged as in the
// foreground, and is allowed only when every command in it is allowed as
// read-only and ends on its own ("echo hi & echo bye"): one that writes,
// runs a program the guard does not read, changes the shell's state (a cd,
// an assignment, a function) or does not end on its own (sleep, tail -f,
// watch, read, wait) adds an Ask no allow rule lifts, since the job can
// outlive the call and runs beside the commands after it. A git config
// that would print a credential-looking value (a token, a password, a URL
// with one, an authorization header) of the system's, the user's or the
// repository's config is Ask, as a read of a secret.
//
// A literal cd to an existing directory is followed: the commands after
// it are judged in the directory it enters, through ; && || and brace
// groups, and a subshell's, a pipeline's or a substitution's cd does not
// leak out; a command after a cd that may fail is judged in every
// directory it may run in. The directory entered goes through the
// [PathJudge] as a probe. A cd the guard cannot follow (inside an if,
// loop or function body, run by eval or a wrapper, cd -, a directory only
// known at run time) is Ask. A relative directory is looked up in
// [Policy.CDPath] as bash looks it up in CDPATH.
//
// The guard judges the parser's syntax tree, so what bash reads
// differently is refused (rule "syntax:ambiguous"): a carriage return, a
// NUL byte, "$" before a backslash-newline, a backslash that ends the
// script, a comment that ends in a backslash, and here-documents whose
// delimiter is not a plain name or whose unquoted body joins lines. A
// differential test runs generated scripts under bash to find such
// constructs.
//
// Wrappers (env, nice, nohup, timeout, time, stdbuf, command, builtin,
// exec, setsid, flock, watch, xargs, find -exec) are judged by the command
// they run. Literal code given to bash -c, sh -c or eval is parsed and
// judged recursively, to [Policy.MaxDepth] levels; sh -c only when the
// code is read alike by every POSIX shell (plain words, ; && || |, groups
// and simple redirections), since sh may be dash. Inline programs
// (python -c, perl -e, node -e, ...), eval or source of anything not
// literal, awk programs with system(), pipes or redirection, and a pipe
// into a shell are never auto-allowed.
//
// # What is denied
//
// Some commands are denied and no allow rule can change that: privilege
// escalation (sudo, doas, su, pkexec), rm -r or -f of a critical path (/,
// a top-level directory, home, the working directory or a parent, * in the
// working directory), mkfs, dd to a device, fdisk, parted, shred of a
// device, shutdown and friends, kill -9 -1, mount, interactive programs
// that would hang (vim, less, top, a bare python), and fork bombs: a
// function that runs itself in the background or through a pipe, under
// any name. Network commands (curl, wget, nc, ssh, /dev/tcp, ...) are
// denied unless [Policy.AllowNetwork] is set.
//
// # Writes and paths
//
// Redirect targets (> >> >| &> <> and >&file), tee arguments and the
// targets of rm, mv, cp, touch, mkdir, ln, chmod, truncate, dd of= and the
// like go through the [PathJudge]. A write is never auto-allowed: inside the
// roots it is an Ask that an explicit allow rule may lift (see
// [Command.Overridable]), except a redirection's, which Claude Code asks
// for whatever rule allows the command; outside the roots it is denied. /dev/null,
// /dev/stdout and /dev/stderr are fine. Without a PathJudge every write
// and every read of an absolute path is Ask.
//
// # Everything else
//
// Any other command is Ask. Dynamic command names ($cmd, $(...), brace or
// ANSI-C tricks), dynamic arguments, and expansions with side effects
// (${x@P}, ${!x}, arithmetic on anything but literal numbers, which
// evaluates a variable's value again, subscripts and assignments) are never
// auto-allowed, and an allow rule cannot lift them.
//
// Some expansions are known or harmless: $PWD, $HOME and $(pwd) stand for
// the home and the directory the guard follows the script in, so "ls
// $(pwd)/src" is judged as a listing of src; "<(list)" is a pipe from
// list, read like standard input. The quoted output of a command
// substitution is accepted where any word is data: an argument of echo,
// printf after its format, basename and the like, an operand of -n, -z
// and the string comparisons of test and [[ ]], a here-string or a
// here-document. The commands inside are judged as every other command.
// So are $?, $#, $$ and $! (numbers), and, quoted, the host's plain
// variables that hold no secret (USER, SHELL, PATH, LANG, TERM, ...);
// test and [ compare data as integers too. Unquoted output (split and
// globbed), output in any other position, and every other variable (the
// environment holds secrets) stay Ask.
//
// A for loop over literal words and globs binds its variable to each
// value in turn and judges the body for each ("for f in *.go; do wc -l
// "$f"; done" judges a wc of every Go file); the glob is expanded as bash
// expands it, and listing its directory is a read. A loop over values
// only known at run time, over too many values, or whose body may assign
// the variable judges the body once with the variable unknown.
//
// A lower-case variable the script assigns itself is followed in the
// order the script runs: assigned a literal or a known value ("f=README.md;
// head "$f"", "root=$(git rev-parse --show-toplevel)") it stands for that
// value as a loop variable does; assigned the output of judged commands
// ("n=$(wc -l < go.mod); echo "lines: $n"") it is data, accepted where
// that output is. Assignments in subshells, pipelines, substitutions,
// background jobs and function bodies do not reach what follows; after a
// branch only the values every way through agrees on are kept; a loop, a
// function call, eval, source and the builtins that assign make what they
// may assign unknown; and a script that declares namerefs or other
// attributes, installs traps or aliases, or runs code the guard does not
// see follows no values at all. The names bash reads itself (IFS, PATH,
// HOME, PWD, CDPATH, BASH_ENV, ...) are never followed: assigning them
// stays Ask.
//
// find -exec CMD {} + (or \;) and find ... | xargs CMD (find -print0 |
// xargs -0 CMD) are allowed when CMD is on its own and every file find
// may hand it is a read the path judge allows: the tree below find's
// starting points is walked, narrowed only by a conjunction of -name,
// -iname, -type and -maxdepth, and without -0 a name that xargs would
// split is asked. -execdir, -ok, a {} inside a larger word and xargs fed
// by anything but find stay Ask.
//
// # Running commands
//
// Package [github.com/toolgate/toolgate/bashguard/runner] runs what was
// allowed, confined by the kernel. It is a package of its own so that a
// host that only judges does not link the confinement machinery.
//
// # Concurrency
//
// A Guard is safe for concurrent use; it keeps a pool of parsers and
// scratch buffers and no other mutable state. Judge is deterministic for a given Policy,
// directory, PathJudge and file system.
package bashguard
