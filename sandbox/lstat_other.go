//go:build !unix

package sandbox

import "errors"

// The resolver speaks POSIX paths; elsewhere New refuses to build.
const supported = false

type statBuf struct{}

var errUnsupported = errors.New("unsupported platform")

func lstatKind(p []byte, st *statBuf) (fileKind, error) { return kindOther, errUnsupported }
func readlink(p []byte) (string, error)                 { return "", errUnsupported }
func isNotExist(err error) bool                         { return false }
func isNotDir(err error) bool                           { return false }
func isNameTooLong(err error) bool                      { return false }

const anchored = false

func lstatAt(dir int, p []byte, st *statBuf) (fileKind, error) { return lstatKind(p, st) }
func openDirAt(dir int, p []byte) (int, error)                 { return -1, errUnsupported }
func closeFd(fd int)                                           {}
