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
