package bashguard

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"
)

// zshWords are words of zsh scripts: plain ones that zshPlain must accept
// and ones that zsh reads otherwise than bash (with the options a .zshenv
// may set), which it must refuse.
var zshWords = []struct {
	word  string
	plain bool
}{
	{"ls", true}, {"-la", true}, {"src/a.go", true}, {"--format=%h", true}, {"a,b", true}, {"x:y", true},
	{"user@host", true}, {"+5", true}, {"'it is'", true}, {`"two words"`, true}, {"'a*b'", true}, {`"a[1]"`, true},
	{"a'b'c", true}, {"--x='=y'", true},
	{"*.go", false}, {"=ls", false}, {"a==ls", false}, {"x=a:=ls", false}, {"~", false}, {"a~b", false}, {"^x", false},
	{"x#", false}, {"'a''b'", false}, {"{a,b}", false}, {"a?", false}, {`a\b`, false}, {`"a\$b"`, false}, {"$HOME", false},
	{`"$HOME"`, false}, {"$(echo)", false}, {"a<1-2>b.c", false}, {"'x'=ls", false}, {`"a!b"`, false},
}

// TestZshPlain checks zshPlain on each word, and runs each accepted word
// through real bash and real zsh, the latter with a .zshenv that sets the
// options that change how zsh reads words: both must pass the same
// arguments.
func TestZshPlain(t *testing.T) {
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	for _, w := range zshWords {
		f, err := p.Parse(strings.NewReader("printf '[%s]\\n' "+w.word), "")
		require.NoError(t, err, w.word)
		assert.Equal(t, w.plain, zshPlain(f), "zshPlain of the word %s", w.word)
	}
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		if os.Getenv(requireEffectsEnv) != "" {
			t.Fatal("zsh is needed to hold zshPlain to the real zsh (" + requireEffectsEnv + " is set): " + err.Error())
		}
		t.Skip("SKIPPED LOUDLY: no zsh to compare with bash (.ci/setup installs it): " + err.Error())
	}
	bash, err := exec.LookPath("bash")
	require.NoError(t, err)
	home := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(home, ".zshenv"), []byte(
		"setopt extendedglob rcquotes magicequalsubst globsubst shwordsplit braceccl nonomatch kshglob\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(home, "ls"), nil, 0o644))
	for _, w := range zshWords {
		if !w.plain {
			continue
		}
		script := "printf '[%s]\\n' " + w.word
		run := func(sh string) string {
			cmd := exec.Command(sh, "-c", script)
			cmd.Dir = home
			cmd.Env = []string{"HOME=" + home, "ZDOTDIR=" + home, "PATH=" + os.Getenv("PATH")}
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s -c %s: %s", sh, script, out)
			return string(out)
		}
		assert.Equal(t, run(bash), run(zsh), "bash and zsh read %s alike", w.word)
	}
}
