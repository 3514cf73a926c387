package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard/runner"
)

// The namespace probe's answer is kept in the state directory for the
// boot and the user: every session of the user reads it, a file for
// another boot or one that is not private is probed over, and the probe's
// own answer is what is kept.
func TestNamespaceAnswerKeptForTheBoot(t *testing.T) {
	boot := bootID()
	if boot == "" {
		t.Skip("SKIPPED LOUDLY: no /proc/sys/kernel/random/boot_id, so no answer is kept (the runner probes every time)")
	}
	state := t.TempDir()
	path := nsKeptPath(state)
	assert.Equal(t, filepath.Join(state, "namespaces"), path, "one file for the state directory, not one a session")
	assert.Empty(t, nsKeptPath(""), "no state directory, no kept answer")

	probed := runner.ProbeNamespaces(true)
	assert.Equal(t, probed, keptNamespaces(path)(true), "the first session probes")
	var k keptNS
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &k))
	assert.Equal(t, keptNS{Boot: boot, UID: os.Getuid(), UserNS: userNS(), Why: map[string]string{"net": probed}}, k, "kept for this boot, user and user namespace")

	write := func(k keptNS, mode os.FileMode) {
		b, err := json.Marshal(k)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(path, b, mode))
		require.NoError(t, os.Chmod(path, mode))
	}
	// A kept answer is what a later session gets: here one no probe
	// gives, so that reading it is seen.
	write(keptNS{Boot: boot, UID: os.Getuid(), UserNS: userNS(), Why: map[string]string{"net": "kept answer"}}, 0o600)
	assert.Equal(t, "kept answer", keptNamespaces(path)(true), "another session reads the kept answer")
	assert.Equal(t, runner.ProbeNamespaces(false), keptNamespaces(path)(false), "the answer without a network namespace is probed for")

	write(keptNS{Boot: "another boot", UID: os.Getuid(), UserNS: userNS(), Why: map[string]string{"net": "kept answer"}}, 0o600)
	assert.Equal(t, probed, keptNamespaces(path)(true), "an answer of another boot is probed over")

	write(keptNS{Boot: boot, UID: os.Getuid(), UserNS: "user:[1]", Why: map[string]string{"net": "kept answer"}}, 0o600)
	assert.Equal(t, probed, keptNamespaces(path)(true), "an answer given in another user namespace (a container) is probed over")

	write(keptNS{Boot: boot, UID: os.Getuid(), UserNS: userNS(), Why: map[string]string{"net": "kept answer"}}, 0o662)
	assert.Equal(t, probed, keptNamespaces(path)(true), "an answer others could have written is probed over")
}

// The sandbox's facts are kept per workspace, shared by its sessions: the
// file is named by the project, the working directory and the home.
func TestFactsKeptPerWorkspace(t *testing.T) {
	state := "/state"
	a := factsPath(state, "/p", "/p/src", "/home/u")
	assert.Equal(t, filepath.Join(state, "facts"), filepath.Dir(a))
	assert.Equal(t, a, factsPath(state, "/p", "/p/src", "/home/u"), "the same workspace, the same file, whichever session")
	for _, other := range []string{factsPath(state, "/q", "/p/src", "/home/u"), factsPath(state, "/p", "/p", "/home/u"), factsPath(state, "/p", "/p/src", "/home/v")} {
		assert.NotEqual(t, a, other, "another workspace, another file")
	}
	assert.Empty(t, factsPath("", "/p", "/p", "/home/u"), "no state directory, no file")
}
