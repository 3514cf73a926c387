package sandbox

import "syscall"

const sysFstatat = syscall.SYS_FSTATAT
