//go:build linux && !amd64 && !386 && !arm && !mips && !mipsle && !ppc64 && !ppc64le

package main

import "syscall"

// sysMemfdCreate is memfd_create(2)'s number, as the syscall package of
// this architecture names it.
const sysMemfdCreate = syscall.SYS_MEMFD_CREATE
