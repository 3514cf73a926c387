package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The hook is a process Claude Code starts for every tool call, so the
// toolgate command links only what its subcommands need. What serves
// pages or talks to a database is toolgate-serve's; what would bring
// the C library in (os/user's and net's cgo builds) has a Go
// replacement here (userHome, netip). Nothing it links has cgo files, so
// that a default build (CGO_ENABLED=1 with a C compiler present) is
// still a static binary that starts without the dynamic loader; the
// confinement's Landlock calls are the runner's own for that reason.
func TestHookLinksLean(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("SKIPPED LOUDLY: no go command on PATH, so the toolgate command's dependencies cannot be listed")
	}
	out, err := exec.Command(goCmd, "list", "-deps", ".").Output()
	require.NoError(t, err)
	deps := strings.Fields(string(out))
	require.Contains(t, deps, "github.com/toolgate/toolgate/bashguard", "the list is the command's")
	for _, heavy := range []string{
		"net", "net/http", "crypto/tls", "os/user",
		"modernc.org/sqlite", "github.com/jackc/pgx/v5",
		"github.com/toolgate/toolgate/runtime/store/sqlstore", "github.com/toolgate/toolgate/runtime/approvalpage",
	} {
		assert.False(t, slices.Contains(deps, heavy), "toolgate links %s: it belongs in a sibling (toolgate-serve, toolgate-mcp)", heavy)
	}
	out, err = exec.Command(goCmd, "list", "-deps", "-f", "{{if .CgoFiles}}{{.ImportPath}}{{end}}", ".").Output()
	require.NoError(t, err)
	for _, pkg := range strings.Fields(string(out)) {
		assert.Fail(t, "toolgate links a package with cgo files", "%s has cgo files, so a default build links the C library and is no longer static", pkg)
	}
}
