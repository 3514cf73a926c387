package main

import "github.com/toolgate/toolgate/sandbox"

// forbiddenRoot says why dir may not be a root, or returns "": the
// library's one answer, [sandbox.RefuseRoot], which runtime.Open applies
// too.
func forbiddenRoot(dir, home string) string { return sandbox.RefuseRoot(dir, home) }
