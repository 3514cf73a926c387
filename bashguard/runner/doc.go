// Package runner runs shell commands that the guard in package bashguard
// allowed.
//
// A [Shell] runs a command with bash under fixed limits: a checked
// working directory, an explicit environment, a timeout, an output cap, a
// process-count bound, and a kill of everything the command started. On
// Linux the kernel also confines the command with Landlock ([Confinement]):
// it can write only inside the roots and a private temporary directory,
// read only those and the system locations (secret paths inside the roots
// excepted), and open no TCP connection unless the network is on, whoever
// approved it. The host process is never restricted: the runner starts the
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
