//go:build !linux

package main

import (
	"fmt"
	"os"
)

// main refuses: the subreaper and /proc that noleftover reads are Linux's.
func main() {
	fmt.Fprintln(os.Stderr, "noleftover: Linux only (it needs PR_SET_CHILD_SUBREAPER and /proc)")
	os.Exit(2)
}
