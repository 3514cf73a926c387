package bashguard

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Against the real grep: every file grep -r searches under a sequence of
// --include, --exclude and --exclude-dir options is one the walk judges
// (skipsByName never skips what grep reads), for every sequence of up to
// three options over a pool of patterns, in a tree of files that all
// match.
func TestSkipsByNameAgreesWithGrep(t *testing.T) {
	grep, err := exec.LookPath("grep")
	if err != nil {
		t.Skip("SKIP: no grep to compare the name filters with: " + err.Error())
	}
	dir := t.TempDir()
	files := []string{".env", "a.go", "a.env", "env", "sub/.env", "sub/b.go", "x.txt", "deep/sub/c.go", "deep/.env", "[.]env"}
	for _, f := range files {
		p := filepath.Join(dir, f)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("needle\n"), 0o644))
	}
	patterns := []string{".env", "*.go", "*env", ".e*", "[.]env", "?env", "*", "sub", "a.*", `\.env`}
	kinds := []struct {
		opt  string
		kind nameKind
	}{{"--include=", includeFile}, {"--exclude=", excludeFile}, {"--exclude-dir=", excludeDir}}
	var seqs [][]nameFilter
	var grow func(seq []nameFilter)
	grow = func(seq []nameFilter) {
		if len(seq) > 0 {
			seqs = append(seqs, append([]nameFilter(nil), seq...))
		}
		if len(seq) == 3 {
			return
		}
		for _, k := range kinds {
			for _, p := range patterns {
				// Bounded: the second option from a smaller pool, the
				// third from a smaller one still.
				if len(seq) == 1 && !slices.Contains([]string{".env", "*.go", "*", "[.]env", ".e*"}, p) || len(seq) == 2 && p != ".env" {
					continue
				}
				grow(append(seq, nameFilter{kind: k.kind, pattern: p}))
			}
		}
	}
	grow(nil)
	require.Greater(t, len(seqs), 1500)
	checked := 0
	for _, seq := range seqs {
		args := []string{"-rl"}
		for _, f := range seq {
			args = append(args, kinds[f.kind-1].opt+f.pattern)
		}
		cmd := exec.Command(grep, append(args, "needle", ".")...)
		cmd.Dir = dir
		out, _ := cmd.Output() // status 1 when nothing matches
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if line == "" {
				continue
			}
			rel := strings.TrimPrefix(line, "./")
			parts := strings.Split(rel, "/")
			for i, part := range parts {
				isDir := i < len(parts)-1
				assert.False(t, skipsByName(seq, part, isDir), "grep %v reads %s, but the walk skips %q", args, rel, part)
			}
			checked++
		}
	}
	t.Logf("%d option sequences, %d files grep read, none skipped by the walk", len(seqs), checked)
	assert.Positive(t, checked)
}
