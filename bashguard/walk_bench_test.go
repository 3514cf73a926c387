package bashguard_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/sandbox"
)

// BenchmarkJudgeWalk judges grep -r over trees of growing size: the walk
// of a recursive read is bounded, so a tree past the bound costs what the
// bound costs, however big it is.
func BenchmarkJudgeWalk(b *testing.B) {
	for _, n := range []int{100, 1000, 4000, 16000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			ws, err := filepath.EvalSymlinks(b.TempDir())
			require.NoError(b, err)
			for i := range n {
				d := filepath.Join(ws, fmt.Sprintf("d%02d", i%50))
				require.NoError(b, os.MkdirAll(d, 0o755))
				require.NoError(b, os.WriteFile(filepath.Join(d, fmt.Sprintf("f%05d.go", i)), nil, 0o644))
			}
			sb, err := sandbox.New(sandbox.Config{Roots: []string{ws}, WorkDir: ws})
			require.NoError(b, err)
			g := bashguard.New(bashguard.DefaultPolicy())
			judge := bashguard.CheckerJudge(sb)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if v := g.Judge(ctx, ws, judge, "grep -r TODO ."); v.Rule == "" {
					b.Fatal("verdict without rule")
				}
			}
		})
	}
}
