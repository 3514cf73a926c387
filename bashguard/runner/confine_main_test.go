package runner

import (
	"os"
	"testing"
)

// TestMain lets this test binary serve as the launcher of confined
// commands: a Shell starts it again, and ConfineMain then confines itself
// and executes bash instead of running the tests.
func TestMain(m *testing.M) {
	ConfineMain()
	os.Exit(m.Run())
}
