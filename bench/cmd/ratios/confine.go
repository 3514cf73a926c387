package main

import (
	"fmt"
	"strings"
)

// Confinement (BenchmarkConfinedCommand in cmd/toolgate): ls src bare and
// through toolgate exec, alternating, in a small project and in a
// generated one of 100,000 entries, each unchanged between commands and
// changed (a file made before each confined command, removed after).

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

// confineNames are the rows of the table, in order: the two projects
// unchanged, then changed, then the small one with a developer's home
// (a Python install of 30,000 entries on PATH).
var confineNames = []string{"small", "100k", "small-changed", "100k-changed", "small-toolchains"}

// confineRows reads the projects from res; benchfmt reads the metrics'
// "-ms" as seconds ("added-sec").
func confineRows(res map[string]*samples) []confineRow {
	var rows []confineRow
	for _, name := range confineNames {
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

// confineRowNamed is the row of that name, or nil.
func confineRowNamed(rows []confineRow, name string) *confineRow {
	for i := range rows {
		if rows[i].name == name {
			return &rows[i]
		}
	}
	return nil
}

// confineTargets says whether the unchanged projects' rows meet the
// targets, with a line for each (and one for the changed projects, which
// have no target).
func confineTargets(rows []confineRow) (smallOK, largeOK bool, lines []string) {
	sr, lr := confineRowNamed(rows, "small"), confineRowNamed(rows, "100k")
	if sr == nil || lr == nil {
		return false, false, []string{"confinement: no figures (BenchmarkConfinedCommand skipped?)"}
	}
	small, large := sr.added, lr.added
	smallOK, largeOK = small <= confineSmallTarget, large <= confineLargeRatio*small
	lines = []string{
		fmt.Sprintf("confinement adds %.1f ms to a command in a small project (target at most %.0f ms)", small, confineSmallTarget),
		fmt.Sprintf("confinement adds %.1f ms in a 100,000-entry project, %.2f× the small one (target at most %.1f×)", large, large/small, confineLargeRatio),
	}
	if sc, lc := confineRowNamed(rows, "small-changed"), confineRowNamed(rows, "100k-changed"); sc != nil && lc != nil {
		lines = append(lines, fmt.Sprintf("after a change in the project, confinement adds %.1f ms in a small project and %.1f ms in a 100,000-entry one (%.2f×)",
			sc.added, lc.added, lc.added/sc.added))
	}
	return smallOK, largeOK, lines
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
	fmt.Fprintf(b, "most %.1f× that in a generated project of 100,000 entries with secrets scattered in it). The changed rows make a\n", confineLargeRatio)
	b.WriteString("file in the project before each confined command and remove it after, as a build or an edit does: the kept\n")
	b.WriteString("walk is walked again only where the project changed (no target). The toolchains row runs the small one with\n")
	b.WriteString("a home that holds a version manager's Python install of 30,000 entries on PATH, some named as secrets are (no target):\n\n")
	b.WriteString("| project | bare | confined | added |\n|---|---:|---:|---:|\n")
	small, smallChanged := confineRowNamed(rows, "small"), confineRowNamed(rows, "small-changed")
	for _, r := range rows {
		var target string
		switch r.name {
		case "small":
			target = mark(smallOK)
		case "100k":
			if small != nil {
				target = fmt.Sprintf("%.2f× the small, %s", r.added/small.added, mark(largeOK))
			}
		case "small-changed":
			target = "changed"
		case "small-toolchains":
			if small != nil {
				target = fmt.Sprintf("a Python install in the home, %.2f× the small", r.added/small.added)
			}
		case "100k-changed":
			target = "changed"
			if smallChanged != nil {
				target = fmt.Sprintf("changed, %.2f× the small", r.added/smallChanged.added)
			}
		}
		if target != "" {
			target = " (" + target + ")"
		}
		fmt.Fprintf(b, "| %s | %.2f ms | %.2f ms | %.2f ms%s |\n", r.name, r.bare, r.whole, r.added, target)
	}
}
