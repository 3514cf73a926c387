//go:build !unix

package main

import "errors"

// execve cannot replace the process here: "toolgate mcp" and "toolgate
// serve" run their program as a child and pass its exit status on.
func execve(string, []string, []string) error { return errors.ErrUnsupported }
