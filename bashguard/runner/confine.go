package runner

import (
	"errors"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// Errors of kernel confinement; see [Confinement].
var (
	// ErrConfineUnavailable is wrapped by the error [Shell.Run] returns
	// when the kernel cannot confine the command as configured (no
	// Landlock, a Landlock too old for the network rule, or a program
	// that does not call [ConfineMain]) and the runner's
	// [Confinement.Fallback] is [ConfineRefuse]. The command did not
	// start; the result's Confined field says why.
	ErrConfineUnavailable = errors.New("runner: kernel confinement unavailable")
	// ErrConfineFailed is wrapped by the error [Shell.Run] returns when
	// the confinement could not be set up or applied (a root that cannot
	// be walked, a launcher that did not report, a ruleset the kernel
	// refused). The command did not start.
	ErrConfineFailed = errors.New("runner: kernel confinement failed")
)

// ConfineFallback is what a [Shell] does when the kernel cannot confine a
// command. The zero value refuses.
type ConfineFallback uint8

const (
	// ConfineRefuse refuses to run the command: Run returns an error
	// wrapping [ErrConfineUnavailable]. The default: fail closed.
	ConfineRefuse ConfineFallback = iota
	// ConfineRunUnconfined runs the command without kernel confinement,
	// under the runner's other limits. The result's Confined field says
	// so, and [Confinement.Logger], when set, receives a warning for
	// every such run. An explicit opt-in.
	ConfineRunUnconfined
)

// String returns "refuse" or "run-unconfined".
func (f ConfineFallback) String() string {
	switch f {
	case ConfineRefuse:
		return "refuse"
	case ConfineRunUnconfined:
		return "run-unconfined"
	}
	return "invalid(" + strconv.Itoa(int(f)) + ")"
}

// ConfineMaxWalk is how many directory entries a [Shell] visits by default
// under its roots to find the secret paths it must leave unreadable; see
// [Confinement.MaxWalk].
const ConfineMaxWalk = 100_000

// ConfineMaxGrantDepth is how deep below a read-only location
// ([Confinement.ReadOnly]) the walk for its secret paths goes: a location
// with a directory nested deeper is not granted ([ConfineLevel.Dropped]).
// The deepest trees of programs and toolchains are well within it (below
// /usr 18 levels, a Go module cache and GOROOT 13, ~/.rustup 14, a
// node_modules tree 15); a tree nested deeper was most likely made so
// to make the walk, which holds a path and a frame per level, costly.
const ConfineMaxGrantDepth = 64

// DefaultConfineReadOnly returns the system locations a confined command
// may read and execute but not write, by default: the programs, libraries
// and configuration a shell and common tools need. A location that does
// not exist is skipped. Each call returns a new slice, which the caller
// may extend.
//
// /proc is not in the list: with it, a confined command could read the
// environment (/proc/PID/environ) of the host and of the user's other
// processes, which often holds credentials. Without it, paths under /proc
// still resolve (readlink /proc/self/fd/0 works, and so do /dev/stdout
// and <(...)), but its files cannot be opened: tools such as ps fail. Add
// "/proc" knowingly. /etc is granted whole: a command that runs as root
// can read /etc/shadow; run commands as an unprivileged user
// ([Shell.Credential]) or list only the /etc entries they need.
func DefaultConfineReadOnly() []string {
	return []string{
		"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
		"/etc", "/opt",
	}
}

// DefaultConfineDevices returns the device files a confined command may
// read and write by default. Each call returns a new slice, which the
// caller may extend.
func DefaultConfineDevices() []string {
	return []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}
}

// Confinement configures the kernel confinement of a [Shell]'s commands
// with Linux Landlock. The zero value confines every command to the
// runner's working directory, the default system locations and a private
// temporary directory, with no TCP, and refuses to run a command where
// that cannot be enforced.
//
// # What a confined command may do
//
//   - Read and write beneath Roots (the runner's Dir when Roots is empty),
//     except the secret paths there, see ReadSecrets.
//   - Read and execute, not write, beneath ReadOnly.
//   - Read and write the device files of Devices.
//   - Read and write a private temporary directory that the runner
//     creates for the run, names in TMPDIR, and removes afterwards.
//   - Connect or bind TCP sockets only when Network is set (Landlock ABI
//     4 and later enforce this; UDP only from ABI 10).
//   - Not send signals to processes outside its confinement, nor connect
//     to abstract UNIX sockets created outside it (Landlock ABI 6 and
//     later).
//
// Everything else on the file system is refused by the kernel with a
// permission error (EACCES), whatever the command is and whoever approved
// it. Not covered by Landlock: reading file metadata (stat) and following
// paths, connecting to UNIX sockets by path before ABI 9, and UDP before
// ABI 10.
//
// # Beyond Landlock
//
// The launcher also installs a seccomp filter (required): no socket but a
// connected AF_UNIX stream pair, and with the network off no connect,
// bind, listen or sendto to an address (so no pathname or abstract UNIX
// socket: ssh-agent, gpg-agent, D-Bus, a database's socket; no UDP, MPTCP,
// raw or packet socket); no io_uring; prlimit64, setpriority, ioprio_set
// and the sched_set* calls only on the caller itself; no keyctl, add_key or
// request_key. And, where the kernel gives an unprivileged user
// namespaces, it runs the command in new user, PID, mount and (unless the
// network is on) network namespaces: every process ends with the call,
// processes outside have no number to signal, the runtime sockets of
// Hidden are covered, and the network holds only a loopback interface.
// Namespaces are required where Landlock has no signal scoping (ABI 4-5)
// and for Loopback; elsewhere they add to the confinement, and
// [ConfineLevel.Layers] says whether they applied.
//
// # Secret paths
//
// Landlock only grants; it cannot take back part of a granted tree. So
// that the secret paths inside the roots stay unreadable, the runner walks
// the roots and asks [Shell.Checker] about each entry as a read: a
// directory with no entry that the checker refuses (Ask or Deny) is
// granted whole; a refused entry is not granted at all; and a directory
// that holds refused entries somewhere below gets every right except
// reading and executing files, while its other entries are granted one by
// one. Symbolic links inside the roots are never granted: the kernel
// judges what they lead to. A refused entry that the mount namespace binds
// read-only anyway (one the checker refuses to let a command write too,
// as the sandbox does its secret paths, or one below a protected path) is
// covered there instead, where no other mount reaches the roots' files:
// an empty file or directory that no one may read is mounted over it, and
// the directories that hold it are granted whole, so that a large project
// with secrets scattered in it needs a mount a secret rather than a rule
// an entry (confine_cover_linux.go says why that refuses what leaving it
// out refused).
//
// The walk is a fact of the session: a [Shell] walks at its first
// confined run as a one-shot process must, and at its second walks once
// more and keeps the result, with inotify watches on every directory it
// listed (a Shell that runs once, as in toolgate check, makes neither
// watches nor the directory below). Each later run reads the changes queued since the
// last one (an entry created, removed, renamed, linked, written or
// changed in mode) and judges again only the entries they name, walking a
// directory that appeared; the kernel ruleset is made once, in the
// runner, and made again only when the grants change, so a run costs the
// same in a project of any size. A secret added, renamed or linked
// between two runs is hidden from the second. Where the walk cannot be
// kept (no inotify or too few watches, a root on a file system whose
// changes inotify may not see, such as a network or FUSE one, a mount
// table that changed, an overflowing queue), the runner walks again, per
// run if need be. The checker's answers are taken as facts too: an entry
// is judged again when it changes, not when the checker's rules do (a
// Shell with another Checker, or other Roots, Protect, IdentityFile or
// MaxWalk, walks afresh). The kept ruleset grants the run's private
// temporary directory through an empty directory of the Shell's (named
// toolgate-tmp-* in the system's temporary directory, removed once the
// Shell is collected), onto which the mount namespace binds it.
//
// Consequences, all of them failing closed:
//
//   - A secret file or directory cannot be read, listed below, or
//     executed. It can be written, created, renamed or removed like the
//     rest of its directory (the static guard asks about such writes),
//     unless the mount namespace binds or covers it: then it cannot.
//   - A file that the command creates during the run in a directory
//     that holds a secret left out of the grant (the root itself, when
//     the root has such a .env), or anywhere below a directory it creates
//     there, can be written but not read back or executed in the same
//     run; the next run grants it. A covered secret's directory is
//     granted whole, and keeps no such limit.
//   - The first walk costs time on large trees and stops after MaxWalk
//     entries; a larger tree is refused with [ErrConfineFailed] (set
//     ReadSecrets, narrower Roots, or a higher MaxWalk).
//
// With ReadSecrets set there is no walk and the roots are granted whole.
//
// # Protected paths
//
// The walk also finds the protected paths of the roots (those the checker
// refuses to let a command write, the names of Protect, and a git
// directory's config and hooks), which the mount namespace binds
// read-only. A protected path that does not exist cannot be bound, and
// Landlock cannot refuse the creation of one name in a directory the
// command may write; so the walk records every directory it lists, and
// once every process of the run is gone the runner lists again those that
// changed and moves each entry the command created at a protected path
// aside, to NAME.toolgate-quarantine in the same directory, reporting it
// in [ConfineLevel.Planted] and in the command's output. Anything created
// at a protected path between the walk and the end of the run, by whoever,
// is moved aside; what existed at the walk is never touched.
//
// # The launcher
//
// Landlock confines the process that asks and everything it starts, and a
// Go program cannot run code between fork and exec; so the runner does not
// confine itself. It starts a program, the launcher, that applies the
// confinement and the process-count limit to itself and then executes
// bash. By default the launcher is the running program itself, which must
// call [ConfineMain] first thing in main (and in TestMain of a test binary
// that runs confined commands); a program that does not is treated as
// lacking confinement.
type Confinement struct {
	// Roots are the directory trees a command may read and write. Each
	// must be an absolute path to an existing directory; its symbolic
	// links are resolved. Empty: the runner's resolved Dir.
	Roots []string
	// ReadOnly are the locations (directories or files) a command may
	// read and execute beneath. Nil: [DefaultConfineReadOnly]; an empty,
	// non-nil slice grants none. Each location that is not a system
	// location (one of DefaultConfineReadOnly or beneath one) is walked
	// for secret paths as the roots are, and its secret entries are left
	// out of the grant (a .env in a granted directory,
	// ~/.cargo/credentials.toml were ~/.cargo granted): the checker names
	// them through a method Secret(path string) (pattern string, ok bool)
	// ([sandbox.Sandbox.Secret]). A location that holds more than MaxWalk
	// entries, or directories nested more than [ConfineMaxGrantDepth]
	// deep, or whose secrets the checker cannot name (no such method), is
	// not granted at all: [ConfineLevel.Dropped] says so, and so does a
	// line at the end of the command's output (its standard error when
	// streamed), once per run for each such location. The walk
	// is kept between runs and done again only when a directory it listed
	// changed.
	ReadOnly []string
	// Packages are further read-only locations granted whole, without
	// the walk for secret paths that ReadOnly gets: package caches that
	// hold only the published packages a toolchain downloaded (the Go
	// module cache, Cargo's registry, Maven's repository), whose files
	// are public and too many to walk per command (35,000 entries of a
	// modest module cache take about two seconds). Nothing of the user's
	// own belongs there; a location that may hold it belongs in
	// ReadOnly. A location that does not exist is skipped.
	Packages []string
	// Devices are the files a command may read and write besides the
	// roots, such as /dev/null. Nil: [DefaultConfineDevices].
	Devices []string
	// Writable are further locations a command may read and write
	// whole, without the walk for secret paths that the roots get: the
	// caches of toolchains (a Go build cache, an npm cache), which hold
	// nothing of the user's own and are too large to walk per command.
	// A location that does not exist is skipped.
	Writable []string
	// Network lets a command connect and bind TCP sockets. False: the
	// kernel refuses both (which needs Landlock ABI 4).
	Network bool
	// Loopback, with Network false, lets a command bind and connect IP
	// sockets on the loopback interface only (127.0.0.1 and ::1): it runs
	// in a network namespace of its own that holds nothing else, so a
	// test server it starts answers it, and nothing outside does (not
	// even the host's own loopback services). It needs the user,
	// PID, mount and network namespaces; where the kernel refuses them,
	// the command is treated as unconfinable.
	Loopback bool
	// IdentityFile, when not empty, is a file (outside every root and
	// Writable location) where the runner records the device and inode
	// of each secret entry its walk leaves out; a later walk leaves out
	// an entry with a recorded identity whatever its name, so that a
	// secret one command renames (mv .env notes.txt) stays unreadable to
	// the next. Empty: secrets are found by the checker alone.
	IdentityFile string
	// NamespacesProbed says that the host has found the namespaces a
	// run needs available (CanConfine answered true), so that the runner
	// does not start a process to probe them again before every
	// command; a launcher that then finds them missing fails, and the
	// command does not run (ErrConfineFailed, not ErrConfineUnavailable).
	NamespacesProbed bool
	// WalkFile, when not empty, is a file (outside every root and
	// Writable location, in a directory of the user's that no one else
	// may write) where a runner records its walk of the roots between
	// processes, so that a program that runs one command per process
	// (a launcher such as toolgate exec) walks only when a directory of
	// the roots changed: a later run stats each directory the walk
	// listed and takes the walk from the file when none changed. A file
	// in another place, of another user, writable by others, or made for
	// another configuration (roots, Protect, IdentityFile, MaxWalk,
	// WalkKey, the mount table) is ignored, and the roots are walked.
	// See confine_walkfile_linux.go.
	WalkFile string
	// WalkKey describes the checker for WalkFile: a walk recorded under
	// another key is not used. A host that changes what its checker
	// refuses (other lists, another home) changes the key.
	WalkKey string
	// Protect are further names of entries (at any depth of the roots)
	// bound read-only, besides those the checker refuses to let a
	// command write: files the agent or a later run reads as
	// instructions (CLAUDE.md, AGENTS.md).
	Protect []string
	// Hidden are the locations a mount namespace covers for the command
	// (directories with an empty read-only file system, other files
	// with /dev/null). Nil: [DefaultConfineHidden].
	Hidden []string
	// ReadSecrets grants the roots whole, secret paths included: the
	// checker is not consulted and nothing is walked.
	ReadSecrets bool
	// MaxWalk bounds the directory entries the walk for secret paths
	// visits, and holds, under the roots. Zero: [ConfineMaxWalk];
	// negative: an error.
	MaxWalk int
	// Fallback decides what happens where the kernel cannot confine a
	// command. Zero: [ConfineRefuse].
	Fallback ConfineFallback
	// Launcher is the absolute path of the program that runs
	// [ConfineMain] and executes bash. Empty: the running program, which
	// then must have called ConfineMain. Another program is trusted to
	// call it, built with this version of the package (the plan it is
	// sent is in the package's own form, which another version refuses):
	// if it does not report back, the run fails with [ErrConfineFailed]. With [Shell.Credential] set, the launcher
	// must be executable by that user. The launcher's package
	// initialisation runs before ConfineMain, unconfined, on every
	// command: a program whose packages do much at init can name a
	// small program of its own here that calls ConfineMain and nothing
	// else.
	Launcher string
	// OwnProcess says that the program exists to run this one command
	// (toolgate exec): where the command needs the namespaces, the
	// runner then lowers its own process count limit to MaxProcs and
	// starts the launcher's second stage, in the namespaces, itself,
	// instead of through a first stage that would do only that (one
	// process start less a command). A host that runs commands from a
	// longer-lived process leaves it false. It has no effect with
	// [Shell.Credential] set.
	OwnProcess bool
	// Logger, when not nil, receives a warning for every command run
	// without confinement under [ConfineRunUnconfined].
	Logger *slog.Logger
}

// ConfineLevel is the kernel confinement a command ran under, or the
// reason it had none. It is part of every [Result].
type ConfineLevel struct {
	// Enforced reports that the kernel confined the command.
	Enforced bool
	// ABI is the Landlock ABI version the confinement used; 0 when none.
	ABI int
	// Restricted names what the kernel restricted, in this order, when
	// enforced: "fs" (file system access to the granted locations),
	// "tcp" (connect and bind), "udp" (connect, send and bind), "signal"
	// (signals to processes outside) and "abstract-unix" (abstract UNIX
	// sockets outside); then what the seccomp filter refuses:
	// "unix-socket" (connecting to or binding UNIX sockets by path: no
	// socket but a connected pair), "mptcp" (MPTCP sockets), "raw-socket"
	// (raw and packet sockets), "io-uring", "other-processes" (resource
	// limits, priorities and CPU affinity of any process but the caller)
	// and "keyring" (the user's kernel keyrings). With the network off
	// the filter refuses every socket but a UNIX pair, so "udp" and
	// "abstract-unix" appear whatever the Landlock ABI.
	Restricted []string
	// Layers names the mechanisms besides Landlock that confined the
	// command, in this order: "seccomp" (the system call filter).
	Layers []string
	// Secrets is how many secret paths inside the roots and the walked
	// read-only locations were left out of the grant (the entries
	// refused by the checker, each counted once, directories as one).
	Secrets int
	// Dropped are the read-only locations (Confinement.ReadOnly) left out
	// of the grant whole, each with why: one whose secret paths could not
	// all be found (more entries than Confinement.MaxWalk, directories
	// nested deeper than [ConfineMaxGrantDepth], a checker that cannot
	// name secret paths outside the roots); see [Confinement.ReadOnly].
	// The output ends with a line for each.
	Dropped []string
	// Planted are the entries the command created where no command may
	// write (a protected path that did not exist when it started, such
	// as .mcp.json, .claude/settings.local.json or .git/hooks/pre-commit),
	// which the runner moved aside once the command was over; see
	// [ConfinePlant]. The command's output ends with a line for each.
	Planted []ConfinePlant
	// Reason says why the command had no confinement (and that it ran
	// without it, or was refused); empty when Enforced.
	Reason string
}

// ConfinePlant is an entry a confined command created at a protected
// path that did not exist when it started. The mount namespace binds the
// protected paths that exist read-only; Landlock cannot refuse the
// creation of one name in a directory the command may write. So the
// runner records the directories of its walk and, once every process of
// the command is gone, moves each such entry aside in its own directory
// (NAME.toolgate-quarantine, a name that nothing reads as configuration),
// so that no program that starts later outside the confinement (the
// agent, an editor, git, CI) runs what the command planted. Where it
// cannot be moved it is removed.
type ConfinePlant struct {
	// Path is where the command created the entry.
	Path string
	// MovedTo is where the runner moved it; empty when it was removed.
	MovedTo string
	// Reason says why no command may write Path.
	Reason string
	// Error, when not empty, says why the entry could be neither moved
	// nor removed: it is still at Path.
	Error string
}

// String describes what happened to the entry in one line, as the
// command's output ends with it.
func (p ConfinePlant) String() string {
	switch {
	case p.Error != "":
		return "toolgate: could not remove " + p.Path + ", which the command created where no command may write (" + p.Reason + "): " + p.Error
	case p.MovedTo != "":
		return "toolgate: moved " + p.Path + ", which the command created where no command may write (" + p.Reason + "), to " + p.MovedTo
	}
	return "toolgate: removed " + p.Path + ", which the command created where no command may write (" + p.Reason + ")"
}

// String describes the level in one line, as the audit log stores it:
// "landlock v7 + seccomp: fs, tcp, udp, signal, abstract-unix, unix-socket,
// ...; 1 secret path hidden" or
// "none: " and the reason.
func (l ConfineLevel) String() string {
	if !l.Enforced {
		if l.Reason == "" {
			return "none"
		}
		return "none: " + l.Reason
	}
	var b strings.Builder
	b.WriteString("landlock v")
	b.WriteString(strconv.Itoa(l.ABI))
	for _, layer := range l.Layers {
		b.WriteString(" + ")
		b.WriteString(layer)
	}
	b.WriteString(": ")
	b.WriteString(strings.Join(l.Restricted, ", "))
	switch {
	case l.Secrets == 1:
		b.WriteString("; 1 secret path hidden")
	case l.Secrets > 1:
		b.WriteString("; " + strconv.Itoa(l.Secrets) + " secret paths hidden")
	}
	switch {
	case len(l.Planted) == 1:
		b.WriteString("; 1 planted path moved aside")
	case len(l.Planted) > 1:
		b.WriteString("; " + strconv.Itoa(len(l.Planted)) + " planted paths moved aside")
	}
	return b.String()
}

// confineSupport is what the kernel offers: the Landlock ABI version, or
// why there is none.

type confineSupport struct {
	abi    int
	reason string
	// seccomp says why the seccomp filter cannot be installed; empty
	// when it can.
	seccomp string
}

// confineMainCalled records that the running program called ConfineMain,
// and so can serve as its own launcher. It is the only state the package
// keeps outside its values, set once and never cleared.
var confineMainCalled atomic.Bool

// The marks of a process started as a launcher: its argv[0] and a variable
// in its environment, which it removes before executing bash.
const (
	confineArg0     = "toolgate-confine"
	confineEnv      = "TOOLGATE_CONFINE"
	confineEnvValue = "1"
)

// ConfineMain makes the running program able to launch confined commands
// for a [Shell]. Call it first thing in main, before anything else runs:
//
//	func main() {
//		runner.ConfineMain()
//		...
//	}
//
// and in TestMain of a test binary that runs confined commands:
//
//	func TestMain(m *testing.M) {
//		runner.ConfineMain()
//		os.Exit(m.Run())
//	}
//
// In a process that a Shell started as its launcher (marked by its
// argv[0] and environment), ConfineMain applies the limits the runner
// sent, starts itself again in new namespaces where the kernel allows,
// applies Landlock and the seccomp filter, runs bash, exits with bash's
// status, and never returns; if it cannot, it reports why to the runner
// and exits with status 126. In any other
// process it only records that it was called and returns at once.
func ConfineMain() {
	confineMainCalled.Store(true)
	if len(os.Args) < 2 || os.Args[0] != confineArg0 || os.Getenv(confineEnv) != confineEnvValue {
		return
	}
	os.Exit(confineLaunch())
}
