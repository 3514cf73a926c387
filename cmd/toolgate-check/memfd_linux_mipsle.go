package main

// sysMemfdCreate is memfd_create(2)'s number: the syscall package of
// this architecture does not name it.
const sysMemfdCreate = 4354
