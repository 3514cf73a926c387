package main

import (
	"fmt"
	"strings"
)

// The hook as a process (BenchmarkHookProcess): toolgate check against a
// static Go hello-world, alternating in one loop, for the first call of a
// session, a later one, and a later one after a file was made in the
// project.

// Targets of the hook process.
const (
	hookRatioTarget = 1.5      // check ÷ hello-world per call, at most
	hookPeakTarget  = 8 * 1024 // peak resident set in KiB, at most
)

// hookCalls are the calls of BenchmarkHookProcess in README's order, and
// hookCallNames their names there.
var (
	hookCalls     = []string{"first", "later", "changed", "warm-first", "warm-later", "warm-changed"}
	hookCallNames = map[string]string{
		"first": "`toolgate check`, first", "later": "`toolgate check`, later",
		"changed":    "`toolgate check`, later, a file made in the project since the last",
		"warm-first": "`toolgate-check` (warm), first", "warm-later": "`toolgate-check` (warm), later",
		"warm-changed": "`toolgate-check` (warm), later, a file made in the project since the last",
	}
)

// hookRow is one call of BenchmarkHookProcess, from its median run.
type hookRow struct {
	call                 string
	ratio, check, hello  float64 // check/hello; wall seconds
	peakKiB, helloKiB    float64 // the largest of the runs, of the hook and of the hello-world
	measured             bool    // the peaks were measured (GNU time was there)
	ratioOK, peakOK, got bool
}

// hookRows reads the calls of BenchmarkHookProcess from res (benchfmt
// reads its check-ns and hello-ns as check-sec and hello-sec).
func hookRows(res map[string]*samples) []hookRow {
	var rows []hookRow
	for _, call := range hookCalls {
		s := res["HookProcess/call="+call]
		if s == nil || len(s.units["check/hello"]) == 0 {
			continue
		}
		r := hookRow{call: call, got: true, ratio: median(s.units["check/hello"]),
			check: median(s.units["check-sec"]), hello: median(s.units["hello-sec"])}
		for _, v := range s.units["peak-KiB"] {
			r.peakKiB, r.measured = max(r.peakKiB, v), true
		}
		for _, v := range s.units["hello-peak-KiB"] {
			r.helloKiB = max(r.helloKiB, v)
		}
		// A peak not measured is not a target met.
		r.ratioOK, r.peakOK = r.ratio <= hookRatioTarget, r.measured && r.peakKiB <= hookPeakTarget
		rows = append(rows, r)
	}
	return rows
}

// hookTable writes the rows as README's table, with the targets met or
// missed.
func hookTable(b *strings.Builder, rows []hookRow) {
	if len(rows) == 0 {
		return
	}
	mark := func(ok bool) string {
		if ok {
			return "met"
		}
		return "missed"
	}
	b.WriteString("\nThe hook as the process Claude Code starts for every tool call (a Bash `ls -la` PreToolUse in a\n")
	b.WriteString("small git project, a throwaway home), against a static Go hello-world (`CGO_ENABLED=0`), the two\n")
	fmt.Fprintf(b, "alternating in one loop (`BenchmarkHookProcess`; targets: at most %.1f× per call, peak RSS at most %d MiB).\n", hookRatioTarget, hookPeakTarget/1024)
	b.WriteString("`toolgate check` is a process of its own; `toolgate-check`, its small client, hands the call to a warm\n")
	b.WriteString("toolgate process (started by the first call, which runs the check itself):\n\n")
	b.WriteString("| hook, call of the session | check | hello-world | check ÷ hello-world | peak RSS (hello-world's) |\n|---|---:|---:|---:|---:|\n")
	for _, r := range rows {
		peak := "not measured (no GNU time)"
		if r.measured {
			peak = fmt.Sprintf("%.1f MiB (%s; %.1f MiB)", r.peakKiB/1024, mark(r.peakOK), r.helloKiB/1024)
		}
		fmt.Fprintf(b, "| %s | %s | %s | %.1f× (%s) | %s |\n", hookCallNames[r.call], duration(r.check), duration(r.hello),
			r.ratio, mark(r.ratioOK), peak)
	}
	b.WriteString("\nThe peak resident set is GNU time's `%M` of a run of its own: the rusage a Go parent reads for its\n")
	b.WriteString("child counts the parent's memory, shared with the child from its vfork until its exec.\n")
}

// hookTargets checks the rows against the targets.
func hookTargets(rows []hookRow, check func(ok bool, format string, args ...any)) {
	for _, r := range rows {
		check(r.ratioOK, "%s call of a session: %.1f× a static hello-world process (target at most %.1f×)", hookCallNames[r.call], r.ratio, hookRatioTarget)
		check(r.peakOK, "%s call of a session: peak RSS %.1f MiB (target at most %d MiB)", hookCallNames[r.call], r.peakKiB/1024, hookPeakTarget/1024)
	}
}
