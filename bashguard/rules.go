package bashguard

import "github.com/toolgate/toolgate/permission"

// The rule IDs of the guard's own checks, as a [Verdict] and each
// [Command] name them. A command's Rule may also be what the [PathJudge]
// named for a path it reaches (a rule in Claude Code syntax, a sandbox
// check).
const (
	// RuleSafe: every factor allows the command (on the safe list, only
	// reads inside the roots, a literal test, a redirection only).
	RuleSafe permission.RuleID = "safe"
	// RuleSafeExtra: on the policy's extra safe list.
	RuleSafeExtra permission.RuleID = "safe:extra"
	// RuleUnlisted: not on the safe list; an explicit allow rule may lift
	// the Ask.
	RuleUnlisted permission.RuleID = "unlisted"
	// RuleBackground: a job started in the background (&).
	RuleBackground permission.RuleID = "background"
	// RuleEnvAssign: an assignment to a name that changes how the shell
	// or a program runs.
	RuleEnvAssign permission.RuleID = "env:assign"
	// RuleSecretEnvironment: prints the environment or the shell's
	// variables, which hold the host's secrets.
	RuleSecretEnvironment permission.RuleID = "secret:environment"
	// RuleSecretCredential: prints a credential a store or a service
	// keeps (gh auth token, kubectl get secrets -o yaml): an Ask only an
	// allow rule that names the word lifts.
	RuleSecretCredential permission.RuleID = "secret:credential"
	// RuleSyntaxAmbiguous: a construct bash and the parser read
	// differently.
	RuleSyntaxAmbiguous permission.RuleID = "syntax:ambiguous"
	// RuleEmpty: the script holds no command (comments, white space):
	// nothing runs, and it is allowed.
	RuleEmpty permission.RuleID = "empty"
)

// The rule IDs of a script that cannot be judged: Deny.
const (
	// RuleParse: the script (or shell code inside it) does not parse;
	// the Verdict's Cause is a *[ParseError].
	RuleParse permission.RuleID = "parse"
	// RuleInternal: no guard is configured, or the guard or the path
	// judge failed.
	RuleInternal permission.RuleID = "internal"
	// RuleCancelled: the context was cancelled before the judgement.
	RuleCancelled permission.RuleID = "cancelled"
	// RuleLimitSize: the script or shell code is over the size limit.
	RuleLimitSize permission.RuleID = "limit:size"
	// RuleLimitCommands: more simple commands than the policy allows.
	RuleLimitCommands permission.RuleID = "limit:commands"
	// RuleLimitDepth: shell code nested deeper than the policy allows.
	RuleLimitDepth permission.RuleID = "limit:depth"
)

// The rule IDs of commands no allow rule may run: Deny.
const (
	RuleDangerousRmCritical        permission.RuleID = "dangerous:rm-critical"        // removes a critical path
	RuleDangerousRecursiveCritical permission.RuleID = "dangerous:recursive-critical" // changes a critical path recursively
	RuleDangerousPrivilege         permission.RuleID = "dangerous:privilege"          // raises privileges (sudo, su, ...)
	RuleDangerousPower             permission.RuleID = "dangerous:power"              // shuts down or reboots
	RuleDangerousDisk              permission.RuleID = "dangerous:disk"               // changes disks or file systems
	RuleDangerousDevice            permission.RuleID = "dangerous:device"             // writes a device file
	RuleDangerousMount             permission.RuleID = "dangerous:mount"              // mounts or unmounts
	RuleDangerousKillAll           permission.RuleID = "dangerous:kill-all"           // signals every process
	RuleDangerousForkBomb          permission.RuleID = "dangerous:fork-bomb"          // a function that forks itself
	RuleDangerousInteractive       permission.RuleID = "dangerous:interactive"        // an interpreter that would wait for a person
)

// The rule IDs of code the guard runs but cannot see into, or judges on
// its own.
const (
	RuleCodeShell       permission.RuleID = "code:shell"         // bash -c and the other shells' code
	RuleCodeEval        permission.RuleID = "code:eval"          // eval's text
	RuleCodeSource      permission.RuleID = "code:source"        // source or . of a file
	RuleCodeScript      permission.RuleID = "code:script"        // a script file run by an interpreter
	RuleCodeInline      permission.RuleID = "code:inline"        // an interpreter's inline program text
	RuleCodePipeToShell permission.RuleID = "code:pipe-to-shell" // a shell or interpreter reading code from its input
	RuleCodeAwk         permission.RuleID = "code:awk"           // an awk program that can run or write
	RuleCodeSed         permission.RuleID = "code:sed"           // a sed script from a file
	RuleCodeCallback    permission.RuleID = "code:callback"      // a command run for each line read
	RuleCodeEnvSplit    permission.RuleID = "code:env-split"     // env -S splitting a string into a command line
)

// The rule IDs of words known only at run time: Ask.
const (
	RuleDynamicArg        permission.RuleID = "dynamic:arg"        // an argument or path
	RuleDynamicExpansion  permission.RuleID = "dynamic:expansion"  // an expansion with an effect
	RuleDynamicArithmetic permission.RuleID = "dynamic:arithmetic" // an arithmetic operand
	RuleDynamicName       permission.RuleID = "dynamic:name"       // the command's name
)

// The rule IDs of the paths a command reaches, when the [PathJudge]
// names no rule of its own.
const (
	RulePathRead       permission.RuleID = "path:read"       // a read the judge did not allow
	RulePathSecret     permission.RuleID = "path:secret"     // a read of a secret path
	RulePathDevice     permission.RuleID = "path:device"     // a read of a device file
	RulePathGlob       permission.RuleID = "path:glob"       // a glob whose files cannot be checked
	RulePathList       permission.RuleID = "path:list"       // a list of files to read
	RulePathWalk       permission.RuleID = "path:walk"       // a recursive read below a root
	RuleWriteOutside   permission.RuleID = "write:outside"   // a write the judge denied
	RuleWriteProtected permission.RuleID = "write:protected" // a write the judge asked about
	RuleWriteRedirect  permission.RuleID = "write:redirect"  // a redirection's write inside the roots
	RuleArgsGlob       permission.RuleID = "args:glob"       // a glob that may expand to an option
	RuleGitRepository  permission.RuleID = "git:repository"  // a git repository whose config could run code
	RuleGitPathspec    permission.RuleID = "git:pathspec"    // a pathspec git matches itself
	RuleGitContent     permission.RuleID = "git:content"     // output that carries files git tracks, which cannot be judged
	RuleGitConfig      permission.RuleID = "git:config"      // the repository's config runs a program
	RuleNetworkDevTCP  permission.RuleID = "network:dev-tcp" // bash's /dev/tcp and /dev/udp
	RuleNetworkHost    permission.RuleID = "network:host"    // a host the HostJudge did not allow
)

// The families of rule IDs keyed by a command's name.

// WriteRule is the rule ID of a write inside the roots by the command
// cmd, "write:" and its name ("write:rm"): Ask, which an explicit allow
// rule may lift.
func WriteRule(cmd string) permission.RuleID { return "write:" + permission.RuleID(cmd) }

// ArgsRule is the rule ID of an option or operand of cmd that is not
// known to be harmless, "args:" and its name ("args:git").
func ArgsRule(cmd string) permission.RuleID { return "args:" + permission.RuleID(cmd) }

// WrapperRule is the rule ID of the wrapper cmd, which runs another
// command ("wrapper:xargs").
func WrapperRule(cmd string) permission.RuleID { return "wrapper:" + permission.RuleID(cmd) }

// NetworkRule is the rule ID of the command cmd, which reaches the
// network ("network:curl").
func NetworkRule(cmd string) permission.RuleID { return "network:" + permission.RuleID(cmd) }
