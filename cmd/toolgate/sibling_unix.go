//go:build unix

package main

import "syscall"

// execve replaces the process with path: how "toolgate mcp" and "toolgate
// serve" hand over to their program on unix.
func execve(path string, argv, envv []string) error { return syscall.Exec(path, argv, envv) }
