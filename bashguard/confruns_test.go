package bashguard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgate/toolgate/permission"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Mercurial config runs no program only when every key is in a section
// or a key of hgrcHarmless; a hook, an extension, an alias, a merge tool,
// the editor or %include is named.
func TestHgrcRuns(t *testing.T) {
	for text, want := range map[string]string{
		"[paths]\ndefault = https://h/r\n\n# note\n[ui]\nusername = me\n": "",
		"[paths]\ndefault = https://h/r\n  continued\n":                   "",
		"[hooks]\npre-status = id\n":                                      "sets hooks.pre-status",
		"[extensions]\nx = /tmp/x.py\n":                                   "sets extensions.x",
		"[alias]\nst = !id\n":                                             "sets alias.st",
		"[ui]\neditor = sh -c id\n":                                       "sets ui.editor",
		"[merge-tools]\nx.executable = /tmp/x\n":                          "sets merge-tools.x.executable",
		"%include /tmp/x.rc\n":                                            "has %include",
		"x = 1\n":                                                         "sets .x",
	} {
		got := hgrcRuns(text)
		if want == "" {
			assert.Empty(t, got, text)
			continue
		}
		assert.Contains(t, got, want, text)
	}
}

// A repository's .hg/hgrc is read once and kept on the Guard; written
// with a hook after the first call, it is read again, and the hook asks.
func TestHgrcRevalidated(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, ".hg"), 0o755))
	hgrc := filepath.Join(dir, ".hg", "hgrc")
	require.NoError(t, os.WriteFile(hgrc, []byte("[paths]\ndefault = https://hg.example/r\n"), 0o644))
	g := wsGuard(t, true)
	v := wsJudge(t, g, dir, "hg status")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "hg: not on the safe list", "a config of paths alone runs nothing: only the rule-less Ask")
	require.NoError(t, os.WriteFile(hgrc, []byte("[hooks]\npre-status = id\n"), 0o644))
	v = wsJudge(t, g, dir, "hg status")
	assert.Equal(t, permission.Ask, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "reads .hg/hgrc of the workspace, which sets hooks.pre-status")
}

// A path a tool expands itself is judged expanded: "~" is the home, a
// variable or another user's home is named.
func TestExpandToolPath(t *testing.T) {
	for p, want := range map[string][2]string{
		"~":          {"/home/u", ""},
		"~/.bashrc":  {"/home/u/.bashrc", ""},
		"out/%(id)s": {"out/%(id)s", ""},
		"$HOME/x":    {"", "names a variable"},
		"a/${X}":     {"", "names a variable"},
		"~root/x":    {"", "another user's home"},
	} {
		got, why := expandToolPath(p, "/home/u")
		assert.Equal(t, want[0], got, p)
		if want[1] == "" {
			assert.Empty(t, why, p)
		} else {
			assert.Contains(t, why, want[1], p)
		}
	}
	_, why := expandToolPath("~/x", "")
	assert.Contains(t, why, "not known here")
}
