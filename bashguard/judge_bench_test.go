package bashguard

import (
	"context"
	"strings"
	"testing"
	"time"

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
	pol, paths := casePolicy("")
	g := New(pol)
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
				if v := g.Judge(ctx, testWork, paths, in.script); v.Rule == "" {
					b.Fatal("verdict without rule")
				}
			}
		})
	}
}

// BenchmarkJudgeVsParse times the bare parse and Judge of the same input
// alternately within one loop, so that both see the same load on the
// machine, and reports each one's time per call and their ratio
// (judge/parse). Both sides reuse their parser: the bare parse keeps one,
// Judge takes one from its Guard's pool. ns/op and allocs/op count one
// parse plus one Judge.
func BenchmarkJudgeVsParse(b *testing.B) {
	pol, paths := casePolicy("")
	g := New(pol)
	ctx := context.Background()
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			p := syntax.NewParser(syntax.Variant(syntax.LangBash))
			parse := func() {
				if _, err := p.Parse(strings.NewReader(in.script), ""); err != nil {
					b.Fatal(err)
				}
			}
			judge := func() {
				if v := g.Judge(ctx, testWork, paths, in.script); v.Rule == "" {
					b.Fatal("verdict without rule")
				}
			}
			var tp, tj time.Duration
			n := 0
			b.ReportAllocs()
			for b.Loop() {
				// Alternate which side goes first.
				if n%2 == 0 {
					t0 := time.Now()
					parse()
					t1 := time.Now()
					judge()
					tp, tj = tp+t1.Sub(t0), tj+time.Since(t1)
				} else {
					t0 := time.Now()
					judge()
					t1 := time.Now()
					parse()
					tj, tp = tj+t1.Sub(t0), tp+time.Since(t1)
				}
				n++
			}
			b.ReportMetric(float64(tp.Nanoseconds())/float64(n), "parse-ns")
			b.ReportMetric(float64(tj.Nanoseconds())/float64(n), "judge-ns")
			b.ReportMetric(float64(tj)/float64(tp), "judge/parse")
		})
	}
}
