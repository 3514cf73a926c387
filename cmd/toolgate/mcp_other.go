//go:build !unix

package main

import "errors"

// execve cannot replace the process here: "toolgate mcp" runs the gateway
// as a child and passes its exit status on.
func execve(string, []string, []string) error { return errors.ErrUnsupported }
