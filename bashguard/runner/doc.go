// Package runner runs shell commands that the guard in package bashguard
// allowed.
//
// A [Shell] runs a command with bash under fixed limits: a checked
// working directory, an explicit environment, a timeout, an output cap, a
// process-count bound, CPU, memory and file-size bounds, and a kill of
// everything the command started. On Linux the kernel also confines the
// command in layers ([Confinement]), whoever approved it: Landlock (it can
// write only inside the roots and a private temporary directory, read only
// those and the system locations, secret paths inside the roots excepted,
// and open no TCP connection unless the network is on); a seccomp filter
// (no socket but a UNIX pair with the network off, never a pathname UNIX
// socket, MPTCP, raw or packet socket, no io_uring, no control of other
// processes, no keyrings); and, where the user may have them, PID, mount
// and network namespaces (every process ends with the call, runtime
// sockets hidden, protected paths read-only, a loopback-only network on
// request). A protected path that did not exist, which the command
// creates, is moved aside once the run is over ([ConfinePlant]). The
// host process is never restricted: the runner starts the
// program again as a launcher that confines itself and executes bash. For
// that, a program that runs commands adds one line at the start of main:
//
//	func main() {
//		runner.ConfineMain()
//		...
//	}
//
// (and the same in TestMain of its tests). Where the kernel cannot confine
// a command, the runner refuses it unless [Confinement.Fallback] is
// [ConfineRunUnconfined]; every [Result] says what was applied in
// [Result.Confined].
//
// # Concurrency
//
// A Shell's Run is safe for concurrent use; each call starts its own
// process group.
package runner
