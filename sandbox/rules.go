package sandbox

import (
	"errors"

	"github.com/toolgate/toolgate/permission"
)

// The rule IDs of the sandbox's answers, as the path pipeline names them
// in a [permission.Result]. A refusal's ID follows its [PathError]'s Kind
// (see [RuleOf]); the Result keeps the *PathError as its Cause.
const (
	RuleOutsideRoots   permission.RuleID = "sandbox:outside-roots"   // ErrOutsideRoots
	RuleInvalidPath    permission.RuleID = "sandbox:invalid-path"    // ErrInvalidPath
	RuleSymlinkLoop    permission.RuleID = "sandbox:symlink-loop"    // ErrSymlinkLoop
	RuleHomeRef        permission.RuleID = "sandbox:home-ref"        // ErrHomeRef
	RuleUnresolvable   permission.RuleID = "sandbox:unresolvable"    // ErrUnresolvable
	RuleForeignProcess permission.RuleID = "sandbox:foreign-process" // ErrForeignProcess
	RuleSpecialFile    permission.RuleID = "sandbox:special-file"    // ErrSpecialFile
	RuleOtherMount     permission.RuleID = "sandbox:other-mount"     // ErrOtherMount
	RuleRefused        permission.RuleID = "sandbox:refused"         // any other refusal
	// RuleProtected is the Ask for a write to a protected path.
	RuleProtected permission.RuleID = "sandbox:protected"
	// RuleSecret is the Ask for a secret path.
	RuleSecret permission.RuleID = "sandbox:secret"
	// RuleNone is the Deny of every path when no sandbox is configured.
	RuleNone permission.RuleID = "sandbox:none"
)

// RuleOf returns the rule ID of the refusal err, by the sentinel it
// wraps: [RuleOutsideRoots] for [ErrOutsideRoots], and so on;
// [RuleRefused] for an error that wraps none of them.
func RuleOf(err error) permission.RuleID {
	for _, k := range [...]struct {
		err  error
		rule permission.RuleID
	}{
		{ErrOutsideRoots, RuleOutsideRoots}, {ErrInvalidPath, RuleInvalidPath},
		{ErrSymlinkLoop, RuleSymlinkLoop}, {ErrHomeRef, RuleHomeRef}, {ErrUnresolvable, RuleUnresolvable},
		{ErrForeignProcess, RuleForeignProcess}, {ErrSpecialFile, RuleSpecialFile}, {ErrOtherMount, RuleOtherMount},
		{ErrSecret, RuleSecret}, {ErrProtected, RuleProtected},
	} {
		if errors.Is(err, k.err) {
			return k.rule
		}
	}
	return RuleRefused
}
