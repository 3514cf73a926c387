package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolgate/toolgate/bench"
)

// geminiRow is one command of the Gemini comparison: the medians of its
// runs of BenchmarkGemini, each side's time per check in seconds
// (benchfmt reads the benchmark's gemini-ns/op as gemini-sec/op) and their
// ratio.
type geminiRow struct {
	bench.Command
	index             int
	gemini, tg, ratio float64
}

// geminiClass is a class of commands: the mean time per check over its
// commands (each command weighted alike) on each side, their ratio, and
// its command with the lowest ratio.
type geminiClass struct {
	name   string
	n      int
	gemini float64
	tg     float64
	ratio  float64
	lowest geminiRow
}

// geminiRows reads BenchmarkGemini's results for each command of the table,
// in the table's order; commands without results are left out.
func geminiRows(res map[string]*samples, cmds []bench.Command) []geminiRow {
	var rows []geminiRow
	for i, c := range cmds {
		s := res[fmt.Sprintf("Gemini/class=%s/cmd=%02d", c.Class, i)]
		if s == nil || len(s.units["gemini/toolgate"]) == 0 {
			continue
		}
		rows = append(rows, geminiRow{Command: c, index: i,
			gemini: median(s.units["gemini-sec/op"]), tg: median(s.units["toolgate-sec/op"]), ratio: median(s.units["gemini/toolgate"])})
	}
	return rows
}

// geminiClasses groups the rows by class, in the order classes first appear.
func geminiClasses(rows []geminiRow) []geminiClass {
	var out []geminiClass
	for _, r := range rows {
		i := slices.IndexFunc(out, func(c geminiClass) bool { return c.name == r.Class })
		if i < 0 {
			out = append(out, geminiClass{name: r.Class, lowest: r})
			i = len(out) - 1
		}
		c := &out[i]
		c.n++
		c.gemini += r.gemini
		c.tg += r.tg
		if r.ratio < c.lowest.ratio {
			c.lowest = r
		}
	}
	for i := range out {
		c := &out[i]
		c.gemini /= float64(c.n)
		c.tg /= float64(c.n)
		c.ratio = c.gemini / c.tg
	}
	return out
}

// lowestRow is the command with the lowest ratio.
func lowestRow(rows []geminiRow) geminiRow {
	return slices.MinFunc(rows, func(a, b geminiRow) int {
		switch {
		case a.ratio < b.ratio:
			return -1
		case a.ratio > b.ratio:
			return 1
		}
		return 0
	})
}

// geminiTable writes the per-class table in Markdown.
func geminiTable(b *strings.Builder, classes []geminiClass) {
	b.WriteString("| class | commands | Gemini CLI | toolgate | Gemini ÷ toolgate | lowest command |\n|---|---:|---:|---:|---:|---|\n")
	for _, c := range classes {
		fmt.Fprintf(b, "| %s | %d | %s | %s | %.1f× | `%s` %.1f× |\n", c.name, c.n, duration(c.gemini), duration(c.tg),
			c.ratio, strings.ReplaceAll(c.lowest.Command.Command, "|", `\|`), c.lowest.ratio)
	}
}
