package bashguard

import (
	"context"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// benchScript1K is about 1 KiB of an ordinary build-and-inspect script.
var benchScript1K = strings.Repeat(`git status --short && git diff --stat HEAD~1 | head -n 20
grep -rn "TODO" src | sort | uniq -c | sort -rn | head
find . -name '*.go' -type f | wc -l
cat README.md | sed -n '1,5p'
echo "build done" > build.log 2>&1
`, 6)[:1024-18] + "\necho end of run\n"

var benchInputs = []struct{ name, script string }{
	{"pipeline", "git status && go test ./... | tee out.txt"},
	{"1KiB", benchScript1K},
}

// BenchmarkJudge compares judging a script with the bare parse of the same
// input, side by side: Judge/x against Parse/x.
func BenchmarkJudge(b *testing.B) {
	g := New(casePolicy(""))
	ctx := context.Background()
	for _, in := range benchInputs {
		b.Run("Parse/"+in.name, func(b *testing.B) {
			p := syntax.NewParser(syntax.Variant(syntax.LangBash))
			b.ReportAllocs()
			b.SetBytes(int64(len(in.script)))
			for b.Loop() {
				if _, err := p.Parse(strings.NewReader(in.script), ""); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("Judge/"+in.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in.script)))
			for b.Loop() {
				if v := g.Judge(ctx, in.script); v.Rule == "" {
					b.Fatal("verdict without rule")
				}
			}
		})
	}
}
