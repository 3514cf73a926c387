package main

import "fmt"

// The rule engine's size target: toolgate's decision at 10,000 rules
// within ruleRatioTarget times its time at 50 rules, the two measured
// alternating in one loop (BenchmarkDecisionRatio), so that both see the
// same load on the machine.
const (
	ruleRatioBench  = "DecisionRatio"
	ruleRatioUnit   = "rules10000/rules50"
	ruleRatioTarget = 1.5
)

// ruleRatio returns the median of BenchmarkDecisionRatio's ratio and the
// number of its runs; 0 runs when the results do not hold it.
func ruleRatio(res map[string]*samples) (float64, int) {
	s := res[ruleRatioBench]
	if s == nil || len(s.units[ruleRatioUnit]) == 0 {
		return 0, 0
	}
	v := s.units[ruleRatioUnit]
	return median(v), len(v)
}

// ruleRatioTargetLine is the target line for the ratio: whether it is
// met, and what it says.
func ruleRatioTargetLine(res map[string]*samples) (bool, string) {
	r, n := ruleRatio(res)
	if n == 0 {
		return false, fmt.Sprintf("10,000 rules: no %s results (target at most %.1f× the 50-rule time, alternating in one loop)", ruleRatioBench, ruleRatioTarget)
	}
	return r <= ruleRatioTarget, fmt.Sprintf("10,000 rules: toolgate takes %.2f× its 50-rule time, alternating in one loop (median of %d runs; target at most %.1f×)",
		r, n, ruleRatioTarget)
}

// ruleRatioSentence is README's sentence for the ratio, or "" without
// results.
func ruleRatioSentence(res map[string]*samples) string {
	r, n := ruleRatio(res)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("\nAt 10,000 rules toolgate takes %.2f× its 50-rule time, the two sizes alternating in one loop (`BenchmarkDecisionRatio`, median of %d runs).", r, n)
}
