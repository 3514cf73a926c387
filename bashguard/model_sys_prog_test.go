package bashguard

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// A toolchain named by its path prints its version when the system
// installed it, and stays asked anywhere the agent could have written
// it: the workspace, a directory below /tmp, a path that does not exist.
func TestSystemProgramVersion(t *testing.T) {
	dir := t.TempDir()
	g := New(DefaultPolicy())
	paths := CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})
	judge := func(line string) Verdict { return g.Judge(context.Background(), dir, paths, line) }

	fake := filepath.Join(dir, "bin", "java")
	require.NoError(t, os.MkdirAll(filepath.Dir(fake), 0o755))
	require.NoError(t, os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755))
	for _, line := range []string{fake + " -version", "/usr/lib/jvm/no-such-jdk/bin/java -version", "/usr/../tmp/java -version"} {
		v := judge(line)
		assert.Equal(t, permission.Ask, v.Decision, "%q (%s)", line, v.Reason)
		assert.Contains(t, v.Reason, "which is not a standard command", line)
	}

	java, err := exec.LookPath("java")
	if err == nil {
		java, err = filepath.EvalSymlinks(java)
	}
	if err != nil || stdDir(filepath.Dir(java)) || !systemProgram(java) {
		t.Skipf("SKIP: no java installed by the system outside the standard directories here (%v, %s), so the allowed half is not checked", err, java)
	}
	v := judge(java + " -version")
	assert.Equal(t, permission.Allow, v.Decision, v.Reason)
	assert.Equal(t, RuleSafe, v.Rule)
	assert.Equal(t, "every command is read-only and on the safe list", v.Reason)
	for _, line := range []string{java + " -version Main", java + " -jar x.jar", java + " -cp . Main"} {
		v := judge(line)
		assert.Equal(t, permission.Ask, v.Decision, "%q (%s)", line, v.Reason)
		assert.True(t, strings.Contains(v.Reason, "not a standard command"), "%q: %s", line, v.Reason)
	}
}
