package runner_test

import (
	"fmt"

	"github.com/toolgate/toolgate/bashguard/runner"
)

// The level of confinement a command ran under, as a Result and the
// audit log report it.
func ExampleConfineLevel_String() {
	enforced := runner.ConfineLevel{Enforced: true, ABI: 7,
		Restricted: []string{"fs", "tcp", "signal", "abstract-unix"}, Secrets: 2}
	fmt.Println(enforced)

	unconfined := runner.ConfineLevel{Reason: "the kernel has no Landlock; the command ran unconfined"}
	fmt.Println(unconfined)
	// Output:
	// landlock v7: fs, tcp, signal, abstract-unix; 2 secret paths hidden
	// none: the kernel has no Landlock; the command ran unconfined
}
