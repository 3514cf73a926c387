// Command ratios reads the output of the bench module's benchmarks (go test
// -bench, several counts) and prints, from the median of each benchmark,
// how many times faster toolgate decides than each other engine at each
// policy size, the side-by-side ratios of the layer benchmarks, and whether
// the targets are met:
//
//   - per decision with 50 rules, toolgate at least 20 times faster than
//     cedar-go and at least 100 times faster than casbin and OPA, with no
//     allocation;
//   - at 10,000 rules, toolgate within 1.5 times its time at 50 rules,
//     the two alternating in one loop (BenchmarkDecisionRatio);
//   - on the 40 commands of testdata/commands.jsonl (BenchmarkGemini),
//     Gemini CLI's PolicyEngine at least 20 times slower than toolgate's
//     Pipeline.Check in every class of commands, and at least 5 times on
//     every single command.
//
// With -readme, it also writes README's performance section between the
// markers <!-- bench:begin --> and <!-- bench:end -->: the machine and the
// date, the per-decision table, the layers, and, with -packages, the table
// of the library packages' own side-by-side benchmarks (min–max and median
// of their runs), and the Gemini CLI comparison by class.
//
// Usage:
//
//	go run ./cmd/ratios [-readme ../README.md] [-packages packages.txt] [-commands testdata/commands.jsonl] [-confine confine.txt] results.txt
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/bench"
	"golang.org/x/perf/benchfmt"
)

// procs is the "-N" GOMAXPROCS suffix of a benchmark name.
var procs = regexp.MustCompile(`-\d+$`)

type samples struct {
	sec, allocs []float64
	units       map[string][]float64 // every value, by unit
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func read(r io.Reader, name string) (map[string]*samples, error) {
	out := map[string]*samples{}
	br := benchfmt.NewReader(r, name)
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			if e, bad := br.Result().(*benchfmt.SyntaxError); bad {
				return nil, e
			}
			continue
		}
		n := procs.ReplaceAllString(string(bytes.TrimPrefix(res.Name.Full(), []byte("Benchmark"))), "")
		s := out[n]
		if s == nil {
			s = &samples{}
			out[n] = s
		}
		if v, ok := res.Value("sec/op"); ok {
			s.sec = append(s.sec, v)
		}
		if s.units == nil {
			s.units = map[string][]float64{}
		}
		for _, v := range res.Values {
			s.units[v.Unit] = append(s.units[v.Unit], v.Value)
		}
		if v, ok := res.Value("allocs/op"); ok {
			s.allocs = append(s.allocs, v)
		}
	}
	return out, br.Err()
}

func readFile(path string) map[string]*samples {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	res, err := read(f, path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	return res
}

func main() {
	readme := flag.String("readme", "", "write README's performance section into this `file`")
	packages := flag.String("packages", "", "the library packages' benchmark `results`, for README's second table")
	commands := flag.String("commands", "testdata/commands.jsonl", "the Gemini comparison's `table` of commands")
	confine := flag.String("confine", "", "BenchmarkConfinedCommand's `results`, for README's confinement table")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: ratios [-readme README.md] [-packages packages.txt] [-confine confine.txt] results.txt")
		os.Exit(2)
	}
	res := readFile(flag.Arg(0))
	cmds, err := bench.LoadCommands(*commands)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	gem := geminiRows(res, cmds)
	var conf []confineRow
	if *confine != "" {
		conf = confineRows(readFile(*confine))
	}
	if *readme != "" {
		var pkg map[string]*samples
		if *packages != "" {
			pkg = readFile(*packages)
		}
		if err := writeReadme(*readme, res, pkg, gem, conf); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	sec := func(name string) float64 {
		if s := res[name]; s != nil {
			return median(s.sec)
		}
		return 0
	}
	allocs := func(name string) float64 {
		if s := res[name]; s != nil {
			return median(s.allocs)
		}
		return -1
	}
	ratio := func(a, b float64) string {
		if a == 0 || b == 0 {
			return "n/a"
		}
		return fmt.Sprintf("%.0f×", a/b)
	}

	engines := []string{"cedar", "casbin", "opa"}
	fmt.Println("Per decision: engine time / toolgate time (medians)")
	fmt.Println()
	fmt.Printf("| rules | toolgate | allocs | %s |\n", strings.Join(engines, " | "))
	fmt.Printf("|---:|---:|---:|%s\n", strings.Repeat("---:|", len(engines)))
	for _, n := range []int{10, 50, 100, 1000, 10000} {
		tg := fmt.Sprintf("Decision/rules=%d/engine=toolgate", n)
		if res[tg] == nil {
			continue
		}
		fmt.Printf("| %d | %s | %.0f |", n, duration(sec(tg)), allocs(tg))
		for _, e := range engines {
			fmt.Printf(" %s |", ratio(sec(fmt.Sprintf("Decision/rules=%d/engine=%s", n, e)), sec(tg)))
		}
		fmt.Println()
	}

	fmt.Println()
	fmt.Println("Layers: toolgate's time / the bare standard way")
	fmt.Println()
	for _, p := range [][2]string{
		{"Shell/script=pipeline/impl=bashguard.Judge", "Shell/script=pipeline/impl=syntax.Parse"},
		{"Shell/script=1KiB/impl=bashguard.Judge", "Shell/script=1KiB/impl=syntax.Parse"},
		{"Resolve/impl=sandbox.Resolve", "Resolve/impl=EvalSymlinks+Lstat"},
	} {
		if a, b := sec(p[0]), sec(p[1]); a != 0 && b != 0 {
			fmt.Printf("- %s / %s = %.2f\n", p[0], p[1], a/b)
		}
	}

	if len(gem) > 0 {
		fmt.Println()
		fmt.Println("Gemini CLI's PolicyEngine.check / toolgate's Pipeline.Check, each command (medians)")
		fmt.Println()
		fmt.Println("| # | class | command | Gemini | toolgate | ratio | decisions |")
		fmt.Println("|---:|---|---|---:|---:|---:|---|")
		for _, r := range gem {
			fmt.Printf("| %02d | %s | `%s` | %s | %s | %.1f× | %s / %s |\n", r.index, r.Class, strings.ReplaceAll(r.Command.Command, "|", `\|`),
				duration(r.gemini), duration(r.tg), r.ratio, r.Gemini, r.Toolgate)
		}
		fmt.Println()
		var b strings.Builder
		geminiTable(&b, geminiClasses(gem))
		fmt.Print(b.String())
	}

	hook := hookRows(res)
	if len(hook) > 0 {
		var b strings.Builder
		hookTable(&b, hook)
		fmt.Print(b.String())
	}

	fmt.Println()
	fmt.Println("Targets")
	fmt.Println()
	missed := 0
	check := func(ok bool, format string, args ...any) {
		mark := "met"
		if !ok {
			mark = "MISSED"
			missed++
		}
		fmt.Printf("- %s: %s\n", mark, fmt.Sprintf(format, args...))
	}
	tg50 := sec("Decision/rules=50/engine=toolgate")
	for _, t := range []struct {
		engine string
		want   float64
	}{{"cedar", 20}, {"casbin", 100}, {"opa", 100}} {
		got := sec("Decision/rules=50/engine="+t.engine) / tg50
		check(tg50 > 0 && got >= t.want, "50 rules: toolgate %.0f× faster than %s (target %.0f×)", got, t.engine, t.want)
	}
	a := allocs("Decision/rules=50/engine=toolgate")
	check(a == 0, "50 rules: toolgate allocates %.0f times per decision (target 0)", a)
	ok, line := ruleRatioTargetLine(res)
	check(ok, "%s", line)
	if len(gem) > 0 {
		check(len(gem) == len(cmds), "Gemini CLI: %d of the %d commands measured", len(gem), len(cmds))
		for _, c := range geminiClasses(gem) {
			check(c.ratio >= 20, "Gemini CLI, class %s: toolgate %.1f× faster (target 20×)", c.name, c.ratio)
		}
		low := lowestRow(gem)
		check(low.ratio >= 5, "Gemini CLI, every command: the lowest, %q, toolgate %.1f× faster (target 5×)", low.Command.Command, low.ratio)
	}
	hookTargets(hook, check)
	if *confine != "" {
		smallOK, largeOK, lines := confineTargets(conf)
		check(smallOK, "%s", lines[0])
		if len(lines) > 1 {
			check(largeOK, "%s", lines[1])
		}
		for _, l := range lines[min(len(lines), 2):] {
			fmt.Println(l) // no target
		}
	}
	if missed > 0 {
		os.Exit(1)
	}
}

// duration prints seconds the way benchstat does.
func duration(s float64) string {
	switch {
	case s < 1e-6:
		return fmt.Sprintf("%.1fns", s*1e9)
	case s < 1e-3:
		return fmt.Sprintf("%.2fµs", s*1e6)
	case s < 1:
		return fmt.Sprintf("%.2fms", s*1e3)
	}
	return fmt.Sprintf("%.2fs", s)
}
