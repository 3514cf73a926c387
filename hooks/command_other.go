//go:build !unix

package hooks

import "os/exec"

// killGroup is a no-op where process groups are not available: only the
// command itself is killed on timeout.
func killGroup(*exec.Cmd) {}
