package bashguard

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgate/toolgate/permission"
)

// A command's knowledge is data: one spec per command (or subcommand)
// says how the program reads its command line (its option grammar), what
// every option it has does, what its operands are, which configuration
// keys make it run programs, and examples of its judgement. One scanner
// (scan.go) reads any command line by its spec; one engine (specjudge.go)
// turns what the scanner found into the command's factors, and reads the
// spec's query rows: what a line must be to be the query the spec allows
// (lsof needs -n; go env names variables, none that holds a secret), each
// a cond. Code (a spec's check) is left where a row cannot say it. The
// guard is an allow-list: a command is allowed only when every option and
// operand is classified harmless by its spec. An option the spec does not
// list, an abbreviation that names two options, a value that cannot be
// read: each is an Ask that names it.
//
// A spec lists every option of its program, the harmful ones too, so that
// an abbreviation resolves as the program resolves it (git's
// parse-options and getopt_long take any unique prefix; an exact name
// wins): a spec that knew only the harmless "--foobar" would read "--foo"
// as its abbreviation where the program runs its own "--foo". The test of
// specs against the programs' own --help and -h output (spec_help_test.go)
// keeps the lists whole.

// grammar is how a program reads its command line.
type grammar struct {
	abbrev  bool // a unique prefix of a long option names it (getopt_long, git's parse-options)
	permute bool // options may follow operands, until "--" (GNU, git)
	negate  bool // every long option X also has the spelling --no-X (git's parse-options)
	digits  bool // -NUM is a number ("head -20", "git log -3")
	oneDash bool // long options take one dash (Go's flag, xxd): -name, -name=value
	// twoDashes: with oneDash, "--name" is "-name", and "-x=value" is
	// the letter x given a value (Go's flag package reads any option so).
	twoDashes bool
	// bsd: a word without a dash is a cluster of BSD options, spelled in
	// the rows without a dash ("e", "o="), and a dashed cluster the
	// short options cannot read is read again as BSD options (procps
	// ps: "ps -axe" is "ps axe").
	bsd bool
	// shell: a cluster may begin with "+" too (the same letters, turned
	// off: set +o).
	shell bool
	// nextValues: a letter that takes a value takes the next word, never
	// the rest of its cluster, while the cluster goes on (bash -oc posix
	// CODE; tree -Lo 1 out.txt is tree -L 1 -o out.txt).
	nextValues bool
	// nopt: npm's nopt reads any number of leading dashes alike, a
	// shorthand (spec.shorthands) or a word of single-letter shorthands
	// before the long names, "no-" before a name as its negation, and a
	// unique prefix of a name as the name (scanNopt).
	nopt bool
	// foldCase: option names are read without regard to case, as tsc
	// reads them (--OUTDIR is --outDir); the rows spell them in any case.
	foldCase bool
	// shortEq: "-x=value" gives the letter x the value "value", not
	// "=value" (minimist, yargs-parser, mri and optionator, the parsers
	// of JavaScript's command lines).
	shortEq bool
	// whole: each option is a word of its own (its value attached, or
	// the next word), and the first word that is none ends the options
	// (find's leading -H -L -P -D -O, before the starting points).
	whole bool
	// wordShorts: a word that is exactly one of the rows' one-dash
	// names of more than one letter (-ntp, -pl) is that option, its
	// value the next word, before the word is read as a cluster of
	// letters (Apache commons-cli, Maven's parser: hasShortOption of the
	// whole word first).
	wordShorts bool
	// longOnly: getopt_long_only's, as nmap reads its line: a one-dash
	// word is a long option first ("-script=x", "-oN F", a unique prefix
	// for the name), unless it is one letter the short options have
	// ("-o F"); a word no long option names or abbreviates is a cluster
	// of short ones ("-sV", "-oNF" is -o with the value NF).
	longOnly bool
}

// kind is what an option, its value, or an operand does. The zero kind
// is unclassified, and asks: a spec row that forgets its kind fails
// closed.
type kind uint8

const (
	kUnknown    kind = iota // not classified: Ask
	kFlag                   // harmless, and takes no value
	kWord                   // its value is a harmless word: a number, a name, a format, a revision
	kPattern                // its value is a pattern matched against data
	kRead                   // its value is a file the program reads (and may print)
	kProbe                  // its value is a path whose metadata alone is read
	kList                   // its value is a file listing names, one a line, each read
	kList0                  // its value is a file listing names, each ended by a NUL, each read (--files0-from)
	kWrite                  // its value is a file the program writes
	kProgram                // it runs a program (its value, or one configured): Ask no allow rule lifts
	kChange                 // it changes state (the repository, a setting): Ask an allow rule may lift
	kMore                   // it does more than the command's query (go list -export compiles, -u reaches the network): Ask an allow rule may lift
	kContent                // it makes the output carry the content of files (a patch)
	kFormat                 // it prints a summary in place of the content (--stat, --name-only)
	kEnv                    // it prints the environment
	kAsk                    // it asks, for the reason of its row: Ask no allow rule lifts
	kRangeFile              // its value is a line range of a file, <range>:<file> (git log -L): the file is read
	kDir                    // its value is a directory the program works in (git -C)
	kRepo                   // it makes the program work on another repository, whose config can run programs
	kSetProgram             // with a value, it names where programs are found; without one it only prints
	kPathspec               // operands: paths, patterns of paths or revisions, judged by the command's model
	// kClientScript: its value is a script of a database client, SQL
	// with the client's own commands (psql -c, mysql -e), read by
	// clientScriptRuns: one that runs a program or reaches a file is an
	// Ask no allow rule lifts, the rest an Ask an allow rule may lift, as
	// kChange.
	kClientScript
	// kWriteOrPipe: its value is a file the program writes, or, after a
	// "|", a command it runs with its output (psql -o): the second an
	// Ask no allow rule lifts, as kProgram.
	kWriteOrPipe
	// kBind: its value binds a path of this machine into a container,
	// SRC:DST[:OPTS] (docker -v) or a list of key=value with source= and
	// type=bind (docker --mount): the path is read, and written unless
	// the bind is read-only, and so is the tree below it, as a recursive
	// read's (walk.go); a named volume is a word (bindSource).
	kBind
	// kFieldFile: its value is key=value, or key=@FILE, whose FILE the
	// program reads and sends (gh api -F): the file is judged as a read.
	kFieldFile
	// kInterpreter: its value is a version an interpreter is found by
	// (3.12, pypy@3.10, >=3.11), or the path of one, a program run: a
	// value with a "/" asks, as kProgram's does (uv run --python).
	kInterpreter
	// kKeyFiles: its value is a list of KEY=PATH, each PATH a file the
	// program reads and uses as the key's value (helm --set-file).
	kKeyFiles
	// kScriptFile: its value is a file whose script the program runs
	// (psql -f): read, as a path, and an Ask no allow rule lifts, as
	// kProgram, for the programs the script may run.
	kScriptFile
	// The values and operands of a container tool that name paths of
	// this machine a build or a container reaches, each in its own
	// format, read by containerPaths (bind.go): a path so named is judged
	// as the reads and writes it stands for; a value that does not read
	// as its format asks, naming the option.
	//
	// kVolumeOpt: an option of the local volume driver, KEY=VALUE
	// (docker volume create -o): device=PATH mounts PATH, a directory or
	// a disk of this machine, into the containers that use the volume,
	// judged as a bind.
	kVolumeOpt
	// kBuildSecret: a list of key=value whose src (source) is a file the
	// build is given (docker build --secret id=ID,src=PATH): read.
	kBuildSecret
	// kBuildSSH: default or ID, with =KEY[,KEY] the keys (or agent
	// sockets) the build is given (docker build --ssh): each read.
	kBuildSSH
	// kBuildOutput: PATH, or a list of key=value whose dest is the path
	// the build's result is written to (docker build -o type=local,dest=out).
	kBuildOutput
	// kBuildContext: a build context, PATH, URL or "-" (docker build's
	// operand), or NAME=PATH (--build-context): the tree below a path is
	// sent to the builder, read whole.
	kBuildContext
	// kURLOrFile: operands, or an option's value, each a URL or a file:
	// file:PATH, file://PATH and a word without a scheme are files read;
	// a URL with another scheme is the host reader's (w3m, links -dump).
	kURLOrFile
	// kRequestItems: operands, HTTPie's request items, of which those
	// whose separator takes a file (field@FILE, field=@FILE) send it:
	// the file is read (httpieItemPath).
	kRequestItems
	// kTypedWrite: its value is [TYPES:]PATH, a file or directory
	// written, TYPES a list of words that say which of the program's
	// outputs goes there (yt-dlp -o thumbnail:PATH, -P home:DIR): the
	// value is judged as a write with the prefix and without it.
	kTypedWrite
	// kDockerfile: its value is the Dockerfile a build reads (docker
	// build -f), read; the ignore file beside it (FILE.dockerignore)
	// takes the place of the context's .dockerignore, which is then not
	// used (dockerignore.go).
	kDockerfile
	// kComposeFile: its value is a compose file (docker compose -f),
	// read, and what it names judged (compose.go).
	kComposeFile
	// kToolCommand: operands, a command of the tool's own protocol,
	// sent to its server (redis-cli CONFIG SET dir /x): one of
	// spec.commands, which make a server of this machine write its
	// files or run code, asks past an allow rule for the tool.
	kToolCommand
	// kInputArg: it puts the tool's input among the arguments of the
	// command its operands are (redis-cli -x, -X TAG): a command of
	// spec.commands asks whatever its arguments say.
	kInputArg
	// kURLCopy: operands, a source and a destination, each a URL
	// (s3://, gs://), "-" (the input or the output) or a path of this
	// machine, whatever it holds (a ":" too): a local source is read with
	// the tree below it, a local destination written (aws s3 cp).
	kURLCopy
	// kTree: operands, each a directory or a file of this machine read
	// whole, the links below it followed (a helm chart), or a URL or "-",
	// which is not.
	kTree
	// kOutfile: operands, after the command's words (leadCommands),
	// each a file the program may write its output to (aws s3api
	// get-object ... OUTFILE): an unknown option's value among them is
	// judged so too, which is as strict.
	kOutfile
	// kContainerCopy: operands, a source and a destination, each
	// REMOTE:PATH (a container, a pod, a URL) or a path of this machine
	// (docker cp, kubectl cp, svn export): a local source is read with
	// the tree below it, a local destination written.
	kContainerCopy
	// What an option says of the tree a reader walks: harmless in
	// themselves, read by the reader's model (model_read.go).
	kRecurse       // it reads the trees below its operands (grep -r)
	kRecurseFollow // it reads the trees and follows the links in them (grep -R)
	kDirectories   // its value says what to do with a directory: "recurse" reads the tree (grep -d)
	kFollow        // it follows the links in the trees (rg -L, ls -L)
	kNoFollow      // it follows no link in the trees (diff --no-dereference)
	kHidden        // it reads the names that start with "." (rg --hidden)
	kUnrestricted  // given twice, it reads hidden names too (rg -u)
	kInclude       // its value is a pattern of the file names it reads alone (grep --include)
	kExclude       // its value is a pattern of the file names it skips (grep --exclude)
	kExcludeDir    // its value is a pattern of the directory names it skips (grep --exclude-dir)
	// What the writers' and the wrappers' options and operands are
	// (model_write.go, model_wrap.go).
	kTargetDir // its value is the directory the operands are written into; every operand is then a source (cp -t DIR)
	kCopy      // operands: sources read, the last the destination written, unless kTargetDir names it (cp, install)
	kMove      // operands: kCopy's, and the sources are removed, so written too (mv)
	kLink      // operands: targets linked to, the last the link written, unless kTargetDir names its directory; one alone links its name here (ln)
	kCommand   // operands: the command line the program runs, judged as its own (nice, timeout)
	kShellCode // its value is shell code the program runs with sh -c, judged as a script; as operands, they are joined into it (watch)
	kExecOps   // it makes the operands a command line run as it is, not shell code (watch -x)
	kLookup    // it makes the program look the operands up as command names, running nothing (command -v)
	kClearEnv  // it starts the command it runs with an empty environment (env -i)
	kUnsetVar  // its value is a variable removed from the environment of the command it runs (env -u)
	kSplitArgs // its value is split into the command line the program runs, which is not analysed (env -S)
	// What an option of a network client says of where it connects and
	// what it runs here, read by the host reader (model_hosts.go) and the
	// loopback check (model_net_loopback.go).
	kURL       // its value is a URL the program reaches (curl --url)
	kReroute   // it changes where the program connects in a way not read here (a proxy, a resolve, a file of URLs)
	kConfig    // its value is configuration the program reads, which can name hosts and run programs (ssh -F, wget -e)
	kJump      // its value is a list of jump hosts, [user@]host[:port] each (ssh -J)
	kSSHOption // its value is an ssh_config option, Key=value (ssh -o): some keys run programs, some move the host
	kForward   // it forwards the connection on to hosts not read here (ssh -L, -R, -D, -W)
	kListen    // it listens instead of connecting: its operands are no host (nc -l)
	kWriteOut  // its value is an output format whose %output{} writes a file and @file reads one (curl -w)
	// kVersion: it prints the version and exits (node --version): with
	// it, a line that names no subcommand is allowed.
	kVersion
	// What xargs's options say of how it splits its input into the
	// arguments of the command it runs (model_wrap.go: xargs).
	kDelim  // its value is the character that ends each argument read; without a value, NUL (xargs -d, -0)
	kSplit  // it reads its input into arguments otherwise than at a delimiter (xargs -I, -E): a lister's names do not reach the command whole
	kSetVar // its value is a variable set in the environment of the commands it runs (xargs --process-slot-var)
	// What the options of bash's assigning builtins do (model_assign.go).
	kAssign   // its value is the name of a variable the builtin assigns (read -a, printf -v, wait -p)
	kCallback // its value is a command the builtin runs for the lines it reads (mapfile -C)
	kFuncs    // it makes the operands names of functions, not of variables (unset -f)
	// kEndless: it makes the program run on until it is stopped (tail
	// -f): Ask an allow rule may lift, as kChange; a background job of
	// it stays asked whatever lifts that (background.go).
	kEndless
	// What the options of an interpreter do (model_code.go: interpreter).
	kInline      // its value is program text the interpreter runs (python -c, perl -e, node -e)
	kModule      // its value names a module the interpreter runs: as the program where the option ends the options (python -m), before it otherwise (node -r, perl -M)
	kInteractive // it starts an interactive prompt, which would wait for a person (python -i)
	// kSumList: it makes the operands checksum lists, each file a list
	// names read too, and the standard input the list without operands
	// (md5sum -c; model_sumlist.go).
	kSumList
	// kStore: its value is a file the program reads, and writes where
	// the line changes what it keeps (git config -f with a value to
	// set, or an option of kind kChange: specFacts.sets).
	kStore
	// What an option says of the history a git command's output
	// carries (gitHistoryContent).
	kCommit  // it makes the output compare with a commit, HEAD where no revision is named (git diff --cached): history's content
	kRenames // it follows a file's earlier names through history (git log --follow): a pathspec does not limit the files printed
	// kDeny: it is denied, for the row's reason, under the rule of the
	// spec's first danger row (rm --no-preserve-root).
	kDeny
	// kWriteFd: an operand that is a file the program opens to write,
	// creating it, or a descriptor already open, a number ("-" too)
	// (flock FILE, flock FD).
	kWriteFd
	// kCmdName: operands: names of commands, looked up as the shell finds
	// them; one that holds a "/", or is known only at run time, is a
	// path whose file is read (which; command -v).
	kCmdName
	// kToolFlags: its value is a list of flags go passes on to its
	// compiler, assembler or linker (-ldflags), each of which must be one
	// of goToolFlags.
	kToolFlags
	// kReadOrJSON: its value is a file the program reads and loads (a
	// configuration), or, beginning with "{", the configuration itself,
	// whose modules are not read here: Ask no allow rule lifts unless it
	// names the option (jest --config '{"setupFiles": [...]}').
	kReadOrJSON
)

// String names the kind as the table and reasons do.
func (k kind) String() string {
	if n, ok := kindNames[k]; ok {
		return n
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// kindNames are the kinds' names, each beside its constant, so that a
// kind added anywhere in the list keeps the names of the others.
var kindNames = map[kind]string{
	kUnknown: "unknown", kFlag: "flag", kWord: "word", kPattern: "pattern", kRead: "read", kProbe: "probe",
	kList: "list", kList0: "list0", kWrite: "write", kProgram: "program", kChange: "change", kMore: "more",
	kContent: "content", kFormat: "format", kEnv: "env", kAsk: "ask", kRangeFile: "range-file", kDir: "dir",
	kRepo: "repo", kSetProgram: "set-program", kPathspec: "pathspec", kClientScript: "client-script",
	kWriteOrPipe: "write-or-pipe", kBind: "bind", kFieldFile: "field-file", kScriptFile: "script-file",
	kVolumeOpt: "volume-opt", kBuildSecret: "build-secret", kBuildSSH: "build-ssh",
	kBuildOutput: "build-output", kBuildContext: "build-context", kURLOrFile: "url-or-file",
	kRequestItems: "request-items", kTypedWrite: "typed-write", kDockerfile: "dockerfile",
	kComposeFile: "compose-file", kContainerCopy: "container-copy", kToolCommand: "tool-command", kURLCopy: "url-copy", kTree: "tree", kInterpreter: "interpreter", kOutfile: "outfile", kKeyFiles: "key-files", kInputArg: "input-arg", kRecurse: "recurse",
	kRecurseFollow: "recurse-follow", kDirectories: "directories", kFollow: "follow", kNoFollow: "no-follow",
	kHidden: "hidden", kUnrestricted: "unrestricted", kInclude: "include", kExclude: "exclude",
	kExcludeDir: "exclude-dir", kTargetDir: "target-dir", kCopy: "copy", kMove: "move", kLink: "link",
	kCommand: "command", kShellCode: "shell-code", kExecOps: "exec-operands", kLookup: "lookup",
	kClearEnv: "clear-env", kUnsetVar: "unset-var", kSplitArgs: "split-args", kURL: "url", kReroute: "reroute",
	kConfig: "config", kJump: "jump", kSSHOption: "ssh-option", kForward: "forward", kListen: "listen",
	kWriteOut: "write-out", kVersion: "version", kDelim: "delim", kSplit: "split", kSetVar: "set-var",
	kAssign: "assign", kCallback: "callback", kFuncs: "funcs", kEndless: "endless", kInline: "inline",
	kModule: "module", kInteractive: "interactive", kSumList: "sum-list", kStore: "store", kCommit: "commit",
	kRenames: "renames", kDeny: "deny", kWriteFd: "write-fd", kCmdName: "cmd-name", kToolFlags: "tool-flags",
	kReadOrJSON: "read-or-json",
}

// arity says whether an option takes a value.
type arity uint8

const (
	argNone     arity = iota // takes no value
	argRequired              // takes a value: attached (-n5, --lines=5) or the next word
	argOptional              // takes a value only attached: -O<pager>, --color=always
	argDigits                // takes the digits attached to it, if any, and the cluster goes on (perl -l, -0: "-lne" is -l -n -e)
)

// optRow is one row of a spec's table: the spellings of an option, what it
// does, and for a kind that refuses, why (the end of the reason: "runs a
// pager on the matching files").
//
// Spellings are separated by spaces; each is "-x" or "--long" for an
// option without a value, "-x=" or "--long=" for one that requires a
// value, "-x[=]" or "--long[=]" for one whose value is optional (and so
// only ever attached), "-x[#]" for a letter whose optional value is the
// digits attached to it. A long spelling whose name ends in "*" names
// every long option that begins with what comes before it, and that the
// table does not spell whole ("--config.*=": pnpm's --config.KEY=VALUE).
type optRow struct {
	spell string
	kind  kind
	why   string
}

// option is a compiled row.
type option struct {
	name string // its first spelling, as reasons name it
	kind kind
	why  string
	ends bool // every word after it (and its value) is an operand (python -c; the spec's endOpts)
}

// spelling is one way to write an option.
type spelling struct {
	text   string // "-x" or "--long"
	arg    arity
	opt    *option
	prefix bool // it names every long option that begins with text (a row's "--config.*")
}

// example is a command line with the decision the guard must give it:
// "allow", "ask" or "deny" ("ask+": an Ask an allow rule for the command
// lifts; "ask!": one it does not); spec_test.go checks every one, and the effect
// test runs the allowed ones.
type example struct {
	line string
	want string
}

// spec is what the guard knows of one program or subcommand.
// histKind says when a git command's content comes from history.
type histKind uint8

const (
	histNone   histKind = iota // the work tree and the index only
	histAlways                 // the revisions given, or HEAD (git log -p, git show, git archive)
	histRevs                   // only with a revision, or an option of kind kCommit (git diff --cached)
	// histNamed: the objects the operands name, and nothing else: no
	// tree, no history (git cat-file); an id must name an object the
	// guard can read (gitNamedObjects).
	histNamed
)

type spec struct {
	name    string // "git grep"
	grammar grammar
	rows    []optRow
	// joined are more tables of rows, read after rows in their order
	// (join); help gives the spec the --help flag after all of them
	// (withHelp). Both leave the shared tables as they are: nothing is
	// copied when the package starts.
	joined   [][]optRow
	help     bool
	operands kind // what the operands are, for the engine's generic reading
	// expandsPaths: the program expands "~" and $VARIABLE in the paths
	// its options name itself (yt-dlp's expand_path), after the shell,
	// so a quoted '~/.bashrc' is the home's: expandToolPath.
	expandsPaths bool
	// compose: the command makes the containers of the project's
	// compose files, whose paths are judged (compose.go): docker compose
	// up, run and create.
	compose bool
	// scriptRuns, when set, reads the scripts of the options of kind
	// kClientScript, in place of clientScriptRuns: how one runs a
	// program or reaches a file here, or "" (lftp's commands).
	scriptRuns func(script string, fl wordFlags) string
	// commands are the commands of the tool's own protocol, its
	// operands (kToolCommand), that reach this machine (toolcommand.go).
	commands []toolCommand
	// leadCommands say what the operands after a command's first words
	// are, where those words name it (aws s3 cp: kContainerCopy; aws
	// s3api get-object: kOutfile), or, of kind kAsk, that the command
	// asks, for why (aws configure set): read by pathOperands.
	leadCommands []leadCommand
	// paramFiles are the prefixes of a word that make the rest of it a
	// file the tool reads as the value ("file://", "fileb://": aws's
	// parameter files), at the word's start or after an "=", wherever
	// the word stands on the line (paramFiles).
	paramFiles []string
	// fileSuffixes are the endings of the names of the options, not in
	// the rows, whose value is a file the tool reads or writes (gcloud's
	// --key-file, --data-file, --ciphertext-file: its style names every
	// file so): the value is judged as a read and as a write (fileSuffix).
	fileSuffixes []string
	// scriptOps are the endings of the operands that are scripts the
	// tool runs (mongosh's .js and .mongodb): each is read, and asks
	// past an allow rule for the tool, as kScriptFile's value does.
	scriptOps []string
	allow     string // the reason of an allowed command line
	// subs are the subcommands, chosen by the first operand after the
	// spec's own options. other reads the rest of the line, that
	// operand included, when it is none of them; without other, such a
	// line asks for otherWhy ("changes the stash"), as a line with no
	// operand at all asks for bareWhy (allowed when it is empty). An
	// allow rule may lift either Ask.
	subs     map[string]*spec
	other    *spec
	otherWhy string
	bareWhy  string
	// ask, when set, makes every line of the command ask for it after
	// its options are judged (an allow rule may lift it, not what an
	// option asks for): the command is known, but not read-only.
	ask string
	// tooMany, when set, says why a line with more than maxOps operands
	// asks (an allow rule may lift it) unless one of the listing
	// options is given: "git branch NAME" creates a branch, "git
	// config NAME VALUE" sets it.
	tooMany string
	maxOps  int
	listing []string
	// scans: the command hashes the files the index tracks whose times
	// changed, and lists the work tree for untracked names, printing
	// only names (git status, git diff refreshing the index). The model
	// judges the work tree as a Probe; the effect test holds the
	// command to it.
	scans bool
	// helpers are the programs a command that is a script runs itself,
	// from the standard directories, with arguments it fixes (Debian's
	// lsb_release runs getopt, cut and tr): the effect test takes them
	// for the command's own.
	helpers []string
	// tree is what a reader, or a tool whose operands are read, reaches
	// below its operands before its options say more (readerTree).
	tree treeDefaults
	// leadOps are the kinds of the first operands, by position, of a
	// line that meets the query rows; the operands after them, and those
	// of a line that does not, are of the kind operands (xxd IN OUT;
	// unzip -l ARCHIVE MEMBER...).
	leadOps []kind
	// bareDot: without operands, the command works on the working
	// directory (ls, du), which is judged as its operand.
	bareDot bool
	// firstOperand, when set, is what the first operand is unless an
	// option of patternBy gives it (grep's pattern, jq's program).
	firstOperand kind
	patternBy    []string
	// query are the conditions a line must meet to be the query the
	// spec allows ("lsof needs -n"), read in order after the options
	// (judgeQuery): the first the line fails decides, and the spec's
	// check is not run.
	query []cond
	// dangers are the operands a command that changes files is denied
	// for (rm -rf /, chmod -R 777 /, shred /dev/sda), read in order by
	// the writers' engine (writer).
	dangers []danger
	// check is the command's own model of its operands and output,
	// where the kinds and the query rows cannot say it.
	check func(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts)
	// content: without an option of kind kFormat or kContent, the
	// output carries the content of files (git diff prints a patch).
	content bool
	// history says when the content the output carries comes from the
	// files of the repository's history, not only from those the index
	// tracks (gitHistoryContent).
	history histKind
	// typeOps are the words that, as the first of two operands, name
	// the type of the object the second names (git cat-file blob
	// OBJECT): no path. One of kind kContent makes the output carry the
	// object's content, as an option of that kind does.
	typeOps map[string]kind
	// search, when set, says the command searches the content of the
	// files of a tree (git grep; gitSearch).
	search *treeSearch
	// keys, when set, says which keys of git's configs the command
	// prints, each judged against the credentials it holds (git config,
	// git var -l; gitPrintsKeys).
	keys *keysPrinted
	// namesProbe: where the command's listing model reads the line as
	// one that prints names alone (listed), its operands are only looked
	// at, not read (git ls-files: a pattern that matches a secret file
	// prints its name).
	namesProbe bool
	// config are the configuration keys (section.key, or
	// section.*.key for any subsection) that make the program run a
	// program when the repository's own configuration sets them.
	config   []string
	examples []example
	// byClass: the spec knows only some forms of its command (a
	// toolchain's queries); a line it does not read whole at the
	// command's own level is judged by the command's class, as if it had
	// no spec (sysTool).
	byClass bool
	// own: the command's words are a language of its own that the
	// scanner does not read (test's expression): check reads the whole
	// line, given facts of no option and no operand.
	own bool

	// tab is the rows read into tables of spellings, built on the first
	// use of the spec (tables): a hook process judges a few commands, and
	// building every spec's tables at start-up was most of its start.
	// A copy of the spec (a variant of its grammar) shares them.
	lazy *lazyTables

	// lists, when set, says what the command prints as a listing of
	// names, by what each option it takes does (model_list.go); a command
	// of subcommands lists there the options of its own they may follow.
	lists *listModel

	// endless, when set, says why the command may not end on its own
	// ("waits for the time it is given"): a background job that runs it
	// stays asked, since it can outlive the call (background.go).
	endless string

	// askFinal: the Ask of ask is one no allow rule lifts (setsid
	// escapes the limits of the process group whatever it runs).
	askFinal bool

	// net, for a network client, is how its operands name the hosts it
	// reaches and what it may do on the loopback (specs_net.go).
	net *netClient

	// atFiles: every word "@FILE" of the line, an operand or an option's
	// value, makes the program read more arguments from FILE, which are
	// not analysed (binutils' expandargv, before it reads its options):
	// FILE is read, and the line asks, as tool judges it.
	atFiles bool

	// afterFirst are the spellings of options, separated by spaces, that
	// the program looks for itself right after its first operand, each
	// with its value the operand after it (flock FILE -c CODE): read as if
	// given among the options (readAfterFirst).
	afterFirst string

	// shorthands, for a nopt grammar, are the words each shorthand
	// stands for, without its dashes: npm's "C" is "--prefix", "s" is
	// "--loglevel silent".
	shorthands map[string][]string

	// anywhere are options the program looks for in its whole line: a
	// word equal to one of a row's spellings, with its value the next
	// word (unless that begins with "-"), wherever it stands — after the
	// subcommand, among the words passed on to a script, after "--"
	// (yarn classic's rc loader finds --use-yarnrc FILE so). Read by
	// readAnywhere, as the option's kind, before the line's levels.
	anywhere []optRow

	// passOn: an option the spec does not list is not the command's: it
	// passes it on, with its value, to the program it runs (go test's
	// test binary, whose package defines flags of its own: -update).
	// That program is what an allow rule for the command lets run, so
	// the option is one of its words; but one whose name (without its
	// dashes) begins with passOn is read by that program's own library
	// (test.*, the testing package's), and the rows must classify it.
	// The --help test keeps the rows whole, so that no option of the
	// command's own passes for one of the program's.
	passOn string

	// script, for a subcommand that runs a script of the package's
	// package.json (npm test, npm run NAME), says which, and the words
	// it passes on to it are judged as the script's last command takes
	// them (model_pkgscript.go).
	script *pkgScript

	// endOpts are the spellings of the options after which every word
	// is an operand, whatever it looks like ("python3 -c CODE -i": -i is
	// the program's argument).
	endOpts string

	// pkgName: the wrapper's first operand names a package, NAME or
	// NAME@VERSION (@SCOPE/NAME[@VERSION]), whose program NAME it runs
	// (npx): the command judged is NAME with the words after it.
	pkgName bool

	// state: where, beneath the home, the program keeps bookkeeping of
	// its own that it writes whatever its command line says (go's
	// telemetry counters). The guard cannot stop it; the confinement
	// keeps the home read-only, where the write fails and the program
	// goes on. The effect test holds the program to these places.
	state []string
}

// danger is a row of what operands a command that changes files may not
// be given.
type danger struct {
	test dangerTest
	// when are the spellings of options, separated by spaces, one of
	// which must be given for the row to hold; empty, it always holds.
	when string
	// home: a word known only at run time that names the home directory
	// ("$HOME", "${HOME}/") holds too.
	home bool
	rule permission.RuleID
	why  string // the reason; "%s" stands for the operand
}

// dangerTest is what a danger row tests of an operand.
type dangerTest uint8

const (
	dNone     dangerTest = iota // no test: every operand holds, so that a row that forgets its test fails closed
	dCritical                   // it is a critical path, and literal (the working directory, its parents, the home, /, "*")
	dDevice                     // it names a path below /dev/
)

// cond is one condition a command line must meet to be the query its
// spec allows: a row of the spec's query table.
type cond struct {
	test condTest
	// opts are the options the test reads, by their spellings as the
	// scanner resolves them, separated by spaces.
	opts string
	// values are the values or operands the test compares with, or the
	// forms of cForms.
	values []string
	// n is the number of operands cMaxOps allows.
	n int
	// unless are the spellings of options, separated by spaces, any of
	// which given makes the line meet the row (tar's --force-local).
	unless string
	// why is what a line that fails the test does, after the spec's
	// name ("without -n looks addresses up in the DNS"); "%s" stands for
	// what failed: the option and its value ("-mod=mod"), the operand, or
	// the command line after the name.
	why  string
	fail condFail
}

// condTest is what a cond tests of a command line.
type condTest uint8

const (
	cNone     condTest = iota // no test: fails, so that a row that forgets its test fails closed
	cNeeds                    // one of opts is given, or an option that prints the version (kVersion)
	cLastIn                   // the value the last of opts given ends with is one of values (Go's flag and optparse keep the last)
	cEachIn                   // every value given to opts is one of values (each --print prints)
	cFirstIn                  // the first operand, if any, is one of values
	cNoneIn                   // no operand is one of values; each that is fails
	cOperands                 // the line has an operand, or gives one of opts
	cMaxOps                   // the line has at most n operands
	cPlainOps                 // no operand begins with "-", which the program may read as an option
	cOneOf                    // exactly one of opts is given, once (one action a line), or an option that prints the version
	cPrefixed                 // every operand begins with one of values; each that does not fails
	// cLocal: no value given to opts names a file on another host,
	// HOST:FILE with the colon before any slash (GNU tar reaches it
	// through rsh), or an option that prints the version is given.
	cLocal
	// cForms: the line is one of the forms in values, as a synopsis
	// writes them (meetsForms): "--status-all", "NAME status",
	// "[-l] -t [WORD...]"; a line that gives an option that prints the
	// version and no operand meets the forms without it, and meets the
	// empty form too.
	cForms
)

// condFail is what a line that fails a cond gets.
type condFail uint8

const (
	// fUnlisted: the Ask of an unlisted command, an allow rule may lift
	// it: "not on the safe list (NAME WHY)".
	fUnlisted condFail = iota
	// fClass: the line is given to the command's class, as if the spec
	// did not know it (a byClass spec: sysLeaf).
	fClass
	// fPlain: the Ask of an unlisted command, with why alone (its "%s"
	// replaced) for its reason.
	fPlain
	// fArgs: the Ask of the command's arguments (ArgsRule), with why
	// alone (its "%s" replaced) for its reason, which no allow rule
	// lifts.
	fArgs
	// fArgsByRule: the Ask of the command's arguments (ArgsRule), with
	// why alone (its "%s" replaced) for its reason, which an allow rule
	// may lift.
	fArgsByRule
)

// optTables are a spec's spellings, by how the scanner looks them up.
type optTables struct {
	short map[byte]*spelling
	bsd   map[byte]*spelling // the BSD options of a bsd grammar
	long  []spelling         // sorted by text
	// prefixes are the spellings that name every long option beginning
	// with their text (a row's "--config.*"), in the rows' order.
	prefixes []spelling
	// words are the one-dash names of more than one letter of a
	// wordShorts grammar, by their text.
	words map[string]*spelling
}

// lazyTables are a spec's tables, built once.
type lazyTables struct {
	once sync.Once
	t    optTables
}

// noTables are the tables of a spec compile never saw: no option is
// known, so every one asks. TestSpecTablesBuild holds every spec of the
// package to having its own.
var noTables = &optTables{}

// tables returns the spellings of s, reading its rows on first use. It is
// safe for concurrent use.
func (s *spec) tables() *optTables {
	if s.lazy == nil {
		return noTables
	}
	s.lazy.once.Do(s.build)
	return &s.lazy.t
}

// place puts the spelling sp into the table of s its text says: a
// short option, a BSD letter, or a long option. The first row wins (see
// rows).
func (s *spec) place(sp spelling) {
	if s.grammar.foldCase {
		sp.text = strings.ToLower(sp.text)
	}
	w, t := sp.text, &s.lazy.t
	switch {
	case len(w) == 2 && w[0] == '-' && w[1] != '-':
		if t.short[w[1]] == nil {
			t.short[w[1]] = &sp
		}
	case len(w) == 1 && t.bsd != nil && w[0] != '-':
		if t.bsd[w[0]] == nil {
			t.bsd[w[0]] = &sp
		}
	case strings.HasPrefix(w, "--") && strings.HasSuffix(w, "*") && len(w) > 3:
		sp.text, sp.prefix = strings.TrimSuffix(w, "*"), true
		t.prefixes = append(t.prefixes, sp)
	case strings.HasPrefix(w, "--") && len(w) > 2 || s.grammar.oneDash && strings.HasPrefix(w, "-") && len(w) > 2:
		t.long = append(t.long, sp)
	case s.grammar.wordShorts && len(w) > 2 && w[0] == '-' && w[1] != '-':
		if t.words == nil {
			t.words = map[string]*spelling{}
		}
		if t.words[w] == nil {
			t.words[w] = &sp
		}
	default:
		panic(fmt.Sprintf("bashguard: spec %s: bad spelling %q", s.name, w))
	}
}

// compile names the subcommands of s, and theirs, and returns s; their
// tables are read from the rows on first use (tables). build panics on a
// malformed row: the tables are the package's own, and a test builds
// each (TestSpecTablesBuild).
func (s *spec) compile() *spec {
	if s.lazy != nil {
		return s
	}
	s.lazy = &lazyTables{}
	if s.lists != nil {
		s.lists.compile(s)
	}
	for n, sub := range s.subs {
		if sub.name == "" {
			sub.name = s.name + " " + n
		}
		sub.compile()
	}
	if s.other != nil {
		s.other.compile()
	}
	if s.script != nil && s.script.own != nil {
		s.script.own.compile()
	}
	return s
}

// build reads the rows of s into its tables.
func (s *spec) build() {
	t := &s.lazy.t
	t.short = map[byte]*spelling{}
	if s.grammar.bsd {
		t.bsd = map[byte]*spelling{}
	}
	for r := range s.eachRow {
		o := &option{kind: r.kind, why: r.why}
		for w := range strings.FieldsSeq(r.spell) {
			sp := spelling{arg: argNone, opt: o}
			switch {
			case strings.HasSuffix(w, "[#]"):
				w, sp.arg = strings.TrimSuffix(w, "[#]"), argDigits
			case strings.HasSuffix(w, "[=]"):
				w, sp.arg = strings.TrimSuffix(w, "[=]"), argOptional
			case strings.HasSuffix(w, "="):
				w, sp.arg = strings.TrimSuffix(w, "="), argRequired
			}
			sp.text = w
			if o.name == "" {
				o.name = w
			}
			s.place(sp)
		}
	}
	sort.SliceStable(t.long, func(i, j int) bool { return t.long[i].text < t.long[j].text })
	t.long = slices.CompactFunc(t.long, func(x, y spelling) bool { return x.text == y.text }) // the first row wins (see rows)
	for w := range strings.FieldsSeq(s.endOpts) {
		// Not by longExact: the tables are being built.
		var sp *spelling
		if len(w) == 2 {
			sp = t.short[w[1]]
		}
		for k := range t.long {
			if t.long[k].text == w {
				sp = &t.long[k]
			}
		}
		if sp == nil {
			panic(fmt.Sprintf("bashguard: spec %s: endOpts names %q, which it has no row for", s.name, w))
		}
		sp.opt.ends = true
	}
}

// withHelp gives every subcommand of s, and theirs, the --help option
// (git prints the manual, or the usage, wherever it is among the options)
// and returns s.
func (s *spec) withHelp() *spec {
	for _, sub := range s.subs {
		sub.help = true
		sub.withHelp()
	}
	if s.other != nil {
		s.other.help = true
	}
	return s
}

// helpRow is the row withHelp gives a spec.
var helpRow = optRow{"--help", kFlag, ""}

// eachRow yields the rows of s in order: rows, then each table of
// joined, then --help where withHelp gave it. Where two rows spell an
// option alike, the first one is the option (see join).
func (s *spec) eachRow(yield func(*optRow) bool) {
	for i := range s.rows {
		if !yield(&s.rows[i]) {
			return
		}
	}
	for _, t := range s.joined {
		for i := range t {
			if !yield(&t[i]) {
				return
			}
		}
	}
	if s.help {
		yield(&helpRow)
	}
}

// hasRows reports whether s has a row of options.
func (s *spec) hasRows() bool {
	for range s.eachRow {
		return true
	}
	return false
}

// treeDefaults are a reader's walk of the trees below its operands when no
// option changes it.
type treeDefaults struct {
	recursive  bool // it reads every operand's tree (rg)
	skipHidden bool // it skips names that start with "." (rg)
	follow     bool // it follows the links in the trees it reads (diff -r)
	listing    bool // it lists names only, and walks a tree only where it follows links (ls, du)
}

// rows joins tables of rows into one, for specs that share options (git
// log, show and diff share the diff options). Where two tables spell an
// option alike, the first one's row is the option, as a program whose own
// parser reads its options before handing the rest on (git shortlog's -n
// is --numbered, not the revision walk's -n NUM).
func rows(tables ...[]optRow) []optRow {
	var all []optRow
	for _, t := range tables {
		all = append(all, t...)
	}
	return all
}

// join is rows for a spec's joined tables: the same order and the same
// first-row-wins, without a copy of the tables (git's subcommands share
// large ones).
func join(tables ...[]optRow) [][]optRow { return tables }
