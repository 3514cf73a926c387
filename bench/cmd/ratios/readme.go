package main

import (
	"bytes"
	"fmt"
	"os"
	goruntime "runtime"
	"slices"
	"strings"
	"time"

	"github.com/toolgate/toolgate/bench"
)

const (
	beginMark = "<!-- bench:begin -->"
	endMark   = "<!-- bench:end -->"
)

// writeReadme replaces README's performance section (between beginMark
// and endMark) with one written from the results: the machine and the
// date first, then the tables.
func writeReadme(path string, res, pkg map[string]*samples, gem []geminiRow, conf []confineRow) error {
	old, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	i, j := bytes.Index(old, []byte(beginMark)), bytes.Index(old, []byte(endMark))
	if i < 0 || j < i {
		return fmt.Errorf("%s: no %s ... %s section to write", path, beginMark, endMark)
	}
	var b strings.Builder
	b.WriteString(beginMark + "\n")
	b.WriteString("<!-- written by bench/run.sh: edit bench/cmd/ratios, not this section -->\n")
	fmt.Fprintf(&b, "Last run: %s, %d cores (`nproc`), %s, %s %s/%s, load average %s at the end of the run.\n",
		time.Now().UTC().Format("2006-01-02 15:04 UTC"), goruntime.NumCPU(), cpuModel(), goruntime.Version(),
		goruntime.GOOS, goruntime.GOARCH, loadAverage())
	b.WriteString("Median time of one decision, and how many times slower each engine is than toolgate:\n\n")
	b.WriteString("| rules | toolgate | allocs | cedar-go | casbin | OPA |\n|---:|---:|---:|---:|---:|---:|\n")
	med := func(name string) float64 {
		if s := res[name]; s != nil {
			return median(s.sec)
		}
		return 0
	}
	for _, n := range []int{10, 50, 100, 1000, 10000} {
		tg := fmt.Sprintf("Decision/rules=%d/engine=toolgate", n)
		s := res[tg]
		if s == nil {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %.0f |", thousands(n), duration(med(tg)), median(s.allocs))
		for _, e := range []string{"cedar", "casbin", "opa"} {
			other := med(fmt.Sprintf("Decision/rules=%d/engine=%s", n, e))
			if other == 0 || med(tg) == 0 {
				b.WriteString(" n/a |")
				continue
			}
			fmt.Fprintf(&b, " %s (%s×) |", duration(other), thousands(int(other/med(tg)+0.5)))
		}
		b.WriteString("\n")
	}
	b.WriteString(ruleRatioSentence(res))
	var layers []string
	for _, c := range []string{"Read", "Bash", "TodoWrite"} {
		if t := med("Pipeline/call=" + c); t > 0 {
			layers = append(layers, fmt.Sprintf("%s for a %s call", duration(t), c))
		}
	}
	if len(layers) > 0 {
		fmt.Fprintf(&b, " Whole layers: `Pipeline.Check` %s", strings.Join(layers, ", "))
	}
	for _, p := range []struct{ what, a, b string }{
		{"`bashguard` Judge ÷ the bare `syntax` parse of a short pipeline", "Shell/script=pipeline/impl=bashguard.Judge", "Shell/script=pipeline/impl=syntax.Parse"},
		{"of a 1 KiB script", "Shell/script=1KiB/impl=bashguard.Judge", "Shell/script=1KiB/impl=syntax.Parse"},
		{"`sandbox.Resolve` ÷ `filepath.EvalSymlinks` + `os.Lstat`", "Resolve/impl=sandbox.Resolve", "Resolve/impl=EvalSymlinks+Lstat"},
	} {
		if x, y := med(p.a), med(p.b); x > 0 && y > 0 {
			fmt.Fprintf(&b, "; %s %.2f×", p.what, x/y)
		}
	}
	b.WriteString(".\n")
	if len(gem) > 0 {
		low := lowestRow(gem)
		b.WriteString("\nAgainst Gemini CLI's own `PolicyEngine` (`@google/gemini-cli-core` " + bench.GeminiVersion + ", its default policies, default\n")
		b.WriteString("approval mode, called in node as Gemini CLI calls it) on the 40 shell commands of `bench/testdata/commands.jsonl`,\n")
		b.WriteString("toolgate's `Pipeline.Check` with its defaults, the two alternating in one run (`BenchmarkGemini`, each side's\n")
		b.WriteString("loop timed in its own process): mean time of one check over a class's commands, and Gemini ÷ toolgate:\n\n")
		geminiTable(&b, geminiClasses(gem))
		fmt.Fprintf(&b, "\nLowest single command: `%s` (%s), %.1f×; %d of %d commands at least 5×.\n",
			low.Command.Command, low.Class, low.ratio, countAtLeast(gem, 5), len(gem))
	}
	hookTable(&b, hookRows(res))
	confineTable(&b, conf)
	if pkg != nil {
		b.WriteString("\nThe packages' own benchmarks measure each layer against its baseline, the two sides alternating in one\n")
		b.WriteString("loop so that both see the same load (`go test -run '^$' -bench <name> -benchmem -count=N ./<package>`):\n\n")
		b.WriteString("| benchmark | what | last runs |\n|---|---|---|\n")
		for _, r := range packageRows {
			s := pkg[r.name]
			if s == nil || len(s.units[r.unit]) == 0 {
				continue
			}
			v := s.units[r.unit]
			lo, hi := slices.Min(v), slices.Max(v)
			format := func(x float64) string { return fmt.Sprintf("%.2f×", x) }
			switch r.unit {
			case "sec/op", "sec/call": // benchfmt reads ns/call as sec/call
				format = duration
			}
			fmt.Fprintf(&b, "| %s | %s | %s–%s, median %s (%d runs) |\n", r.label, r.what, format(lo), format(hi), format(median(v)), len(v))
		}
	}
	b.WriteString(endMark)
	out := append(append(slices.Clone(old[:i]), b.String()...), old[j+len(endMark):]...)
	return os.WriteFile(path, out, 0o644)
}

// packageRows are the library packages' benchmarks README's second table
// shows: the benchmark, the unit of the figure, and what it measures.
var packageRows = []struct{ label, name, unit, what string }{
	{"`runtime` `BenchmarkPipelineRead/check-vs-resolve`", "PipelineRead/check-vs-resolve", "check/resolve", "Check of a Read (50 rules, 3 hooks) ÷ `sandbox.Resolve` of its path"},
	{"`runtime` `BenchmarkPipelineBash/check-vs-judge`", "PipelineBash/check-vs-judge", "check/judge", "Check of a Bash call ÷ `bashguard` Judge of its command"},
	{"`runtime` `BenchmarkPipelineExecutor`", "PipelineExecutor/pipeline-executor", "sec/call", "a batch of 100 no-op calls through Check, run and After, a call"},
	{"`hooks` `BenchmarkPreToolUseNoop3Timed`", "PreToolUseNoop3Timed", "sec/op", "three no-op PreToolUse hooks under the default timeout"},
	{"`hooks` `BenchmarkPreToolUseNoop3Inline`", "PreToolUseNoop3Inline", "sec/op", "the same hooks declared `NoTimeout`"},
	{"`bashguard` `BenchmarkJudgeVsParse/pipeline`", "JudgeVsParse/pipeline", "judge/parse", "Judge ÷ the bare parse of a pipeline, with a path checker that works on text"},
	{"`bashguard` `BenchmarkJudgeVsParse/1KiB`", "JudgeVsParse/1KiB", "judge/parse", "the same for a 1 KiB script"},
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	if f := strings.Fields(string(data)); len(f) > 0 {
		return f[0]
	}
	return "unknown"
}

// thousands writes n with commas between thousands.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// countAtLeast counts the commands whose ratio is at least x.
func countAtLeast(rows []geminiRow, x float64) int {
	n := 0
	for _, r := range rows {
		if r.ratio >= x {
			n++
		}
	}
	return n
}
