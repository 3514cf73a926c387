package bashguard

import (
	"context"
	"strconv"
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

// benchMixed is one block of the constructs the guard takes apart: here-
// documents, comments, loops with arithmetic, globs in option positions,
// assignments, tests of paths, git and environment prints.
const benchMixed = `cat <<'END' | grep -n x # a note
body line $x
END
for f in *.go; do wc -l "$f"; done
case $((n+1)) in 1) echo one;; *) echo other;; esac
[[ -e go.mod && $x -eq 1 ]] && realpath src
export LANG=C; read -r line < README.md
sort -u -k2 notes.txt | uniq -c | head -n 3
git log --oneline -5 -- src
`

// BenchmarkJudgeLength judges scripts of growing length made of the same
// mixed block, and reports the time per byte: it stays flat when Judge is
// linear in the length of the script. The limits allow 64 KiB and 1000
// commands; the longest input stays within both.
func BenchmarkJudgeLength(b *testing.B) {
	pol, paths := casePolicy("")
	g := New(pol)
	ctx := context.Background()
	for _, n := range []int{1, 4, 16, 64} {
		script := strings.Repeat(benchMixed, n)
		b.Run(strconv.Itoa(len(script))+"B", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(script)))
			for b.Loop() {
				if v := g.Judge(ctx, testWork, paths, script); v.Rule == "" || strings.HasPrefix(string(v.Rule), "limit:") {
					b.Fatal("verdict without rule, or over the limits: " + v.Reason)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(script)), "ns/byte")
		})
	}
}
