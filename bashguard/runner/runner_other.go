//go:build !linux

package runner

import "context"

// runCommand refuses: the process-group kill, the /proc sweep and the
// process-count bound that Run promises are implemented for Linux only.
func runCommand(ctx context.Context, c runConfig, command string) (Result, error) {
	return Result{}, ErrUnsupported
}
