package main

import (
	"fmt"
	"strings"
)

// Confinement (BenchmarkConfinedCommand in cmd/toolgate): ls src bare and
// through toolgate exec, alternating, in a small project and in a
// generated one of 100,000 entries.

// Targets of confinement.
const (
	confineSmallTarget = 5.0 // ms added in the small project, at most
	confineLargeRatio  = 1.2 // the 100,000-entry project's added time ÷ the small one's, at most
)

// confineRow is one project of BenchmarkConfinedCommand.
type confineRow struct {
	name               string
	added, bare, whole float64 // milliseconds, medians
}

// confineRows reads the two projects from res; benchfmt reads the
// metrics' "-ms" as seconds ("added-sec").
func confineRows(res map[string]*samples) []confineRow {
	var rows []confineRow
	for _, name := range []string{"small", "100k"} {
		s := res["ConfinedCommand/"+name]
		if s == nil {
			continue
		}
		ms := func(unit string) float64 {
			if v := s.units[unit+"-sec"]; len(v) > 0 {
				return median(v) * 1000
			}
			return median(s.units[unit+"-ms"])
		}
		r := confineRow{name: name, added: ms("added"), bare: ms("bare"), whole: ms("confined")}
		if r.added == 0 && r.whole == 0 {
			continue
		}
		rows = append(rows, r)
	}
	return rows
}

// confineTargets says whether the rows meet the targets, with a line for
// each.
func confineTargets(rows []confineRow) (smallOK, largeOK bool, lines []string) {
	if len(rows) != 2 {
		return false, false, []string{"confinement: no figures (BenchmarkConfinedCommand skipped?)"}
	}
	small, large := rows[0].added, rows[1].added
	smallOK, largeOK = small <= confineSmallTarget, large <= confineLargeRatio*small
	return smallOK, largeOK, []string{
		fmt.Sprintf("confinement adds %.1f ms to a command in a small project (target at most %.0f ms)", small, confineSmallTarget),
		fmt.Sprintf("confinement adds %.1f ms in a 100,000-entry project, %.2f× the small one (target at most %.1f×)", large, large/small, confineLargeRatio),
	}
}

// confineTable writes the rows as README's table.
func confineTable(b *strings.Builder, rows []confineRow) {
	if len(rows) == 0 {
		return
	}
	smallOK, largeOK, _ := confineTargets(rows)
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "missed"
	}
	b.WriteString("\nConfinement, on by default: `ls src` bare and through `toolgate exec` (the launcher, the kept walk of the\n")
	b.WriteString("roots, Landlock, the namespaces), as Claude Code runs the command the hook hands back, alternating in one\n")
	fmt.Fprintf(b, "loop (`BenchmarkConfinedCommand` in `cmd/toolgate`; targets: at most %.0f ms added in a small project, and at\n", confineSmallTarget)
	fmt.Fprintf(b, "most %.1f× that in a generated project of 100,000 entries with secrets scattered in it):\n\n", confineLargeRatio)
	b.WriteString("| project | bare | confined | added |\n|---|---:|---:|---:|\n")
	for i, r := range rows {
		target := mark(smallOK)
		if i == 1 {
			target = fmt.Sprintf("%.2f× the small, %s", r.added/rows[0].added, mark(largeOK))
		}
		fmt.Fprintf(b, "| %s | %.2f ms | %.2f ms | %.2f ms (%s) |\n", r.name, r.bare, r.whole, r.added, target)
	}
}
