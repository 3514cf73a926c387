package bench

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgate/toolgate/permission"
)

// The calls every engine decides: the same 1,000 for every policy size.
const (
	nCalls = 1000
	seed   = 9
)

// sizes are the policy sizes compared; 50 is the main one.
var sizes = []int{10, 50, 100, 1000, 10000}

type decider interface {
	Decide(i int) (permission.Decision, error)
}

type engine struct {
	name string
	new  func(rules []Rule, calls []Call) (decider, error)
}

var engines = []engine{
	{"toolgate", func(r []Rule, c []Call) (decider, error) { return NewToolgate(r, c) }},
	{"cedar", func(r []Rule, c []Call) (decider, error) { return NewCedar(r, c) }},
	{"casbin", func(r []Rule, c []Call) (decider, error) { return NewCasbin(r, c) }},
	{"opa", func(r []Rule, c []Call) (decider, error) { return NewRego(r, c) }},
}

// built caches engines across the runs of a benchmark (-count): compiling
// 10,000 rules of Rego takes seconds.
var built sync.Map // key{engine, n} → decider

type key struct {
	engine string
	n      int
}

func build(tb testing.TB, e engine, n int) decider {
	tb.Helper()
	if d, ok := built.Load(key{e.name, n}); ok {
		return d.(decider)
	}
	rules := Policy(n)
	d, err := e.new(rules, Calls(rules, nCalls, seed))
	require.NoError(tb, err, "%s with %d rules", e.name, n)
	built.Store(key{e.name, n}, d)
	return d
}

// sample returns the indexes of the calls an engine is checked on at size
// n: all of them up to 100 rules; at 1,000 rules every fourth and at 10,000
// every twentieth, where casbin and cedar take milliseconds a decision.
func sample(n int) []int {
	step := 1
	switch {
	case n >= 10000:
		step = 20
	case n >= 1000:
		step = 4
	}
	var idx []int
	for i := 0; i < nCalls; i += step {
		idx = append(idx, i)
	}
	return idx
}

// TestEquivalence asserts that every engine gives toolgate's decision for
// every call, at every policy size, and that the calls are a mix: a
// benchmark of different answers, or of one answer, measures nothing.
func TestEquivalence(t *testing.T) {
	for _, n := range sizes {
		t.Run(fmt.Sprintf("rules=%d", n), func(t *testing.T) {
			ref := build(t, engines[0], n).(*Toolgate)
			want := make([]permission.Decision, nCalls)
			var count [3]int
			for i := range want {
				r := ref.Check(i)
				require.NotEmpty(t, r.Reason, "call %d", i)
				want[i] = r.Decision
				count[r.Decision]++
			}
			for d, c := range count {
				assert.GreaterOrEqual(t, c, nCalls/10, "%d rules: %d calls answered %s, want at least a tenth", n, c, permission.Decision(d))
			}
			t.Logf("%d rules: %d deny, %d ask, %d allow", n, count[permission.Deny], count[permission.Ask], count[permission.Allow])
			calls := Calls(Policy(n), nCalls, seed)
			for _, e := range engines[1:] {
				t.Run(e.name, func(t *testing.T) {
					d := build(t, e, n)
					bad := 0
					for _, i := range sample(n) {
						got, err := d.Decide(i)
						require.NoError(t, err, "call %d", i)
						if !assert.Equal(t, want[i], got, "%s, %d rules, call %d: %+v", e.name, n, i, calls[i]) {
							if bad++; bad > 5 {
								t.FailNow()
							}
						}
					}
				})
			}
		})
	}
}

// TestToolgateDoesNotAllocate guards the comparison's zero: a decision
// allocates nothing at any size.
func TestToolgateDoesNotAllocate(t *testing.T) {
	for _, n := range []int{50, 10000} {
		tg := build(t, engines[0], n).(*Toolgate)
		i := 0
		allocs := testing.AllocsPerRun(nCalls, func() {
			if tg.Check(i%nCalls).Reason == "" {
				panic("no reason")
			}
			i++
		})
		assert.Zero(t, allocs, "%d rules", n)
	}
}

// BenchmarkDecision times one decision, cycling through the 1,000 calls,
// for each engine at each policy size: compare engine=toolgate with the
// others at the same rules=N, and rules=10000 with rules=50.
func BenchmarkDecision(b *testing.B) {
	for _, n := range sizes {
		for _, e := range engines {
			b.Run(fmt.Sprintf("rules=%d/engine=%s", n, e.name), func(b *testing.B) {
				d := build(b, e, n)
				b.ReportAllocs()
				i := 0
				for b.Loop() {
					if _, err := d.Decide(i % nCalls); err != nil {
						b.Fatal(err)
					}
					i++
				}
			})
		}
	}
}

// BenchmarkDecisionRatio times toolgate's decision at 50 and at 10,000
// rules alternating in one loop, so that both sizes see the same load on
// the machine (separate runs of BenchmarkDecision do not): each round
// decides a batch of ratioBatch calls at one size, then a batch at the
// other, the order swapped every round, each size cycling through its own
// 1,000 calls. It reports the median over the rounds of each size's time
// per decision and of the round's ratio, rules10000/rules50, the figure
// README's target is measured by: a round another process preempted is
// an outlier the median leaves out, where it would weigh on a sum. ns/op
// counts a round of both batches.
func BenchmarkDecisionRatio(b *testing.B) {
	const ratioBatch = 100
	small, large := build(b, engines[0], 50), build(b, engines[0], 10000)
	batch := func(d decider, i *int) time.Duration {
		t0 := time.Now()
		for range ratioBatch {
			if _, err := d.Decide(*i % nCalls); err != nil {
				b.Fatal(err)
			}
			*i++
		}
		return time.Since(t0)
	}
	var ts, tl, ratio []float64
	var is, il int
	n := 0
	for b.Loop() {
		var s, l time.Duration
		if n%2 == 0 {
			s = batch(small, &is)
			l = batch(large, &il)
		} else {
			l = batch(large, &il)
			s = batch(small, &is)
		}
		ts, tl, ratio = append(ts, float64(s)), append(tl, float64(l)), append(ratio, float64(l)/float64(s))
		n++
	}
	median := func(v []float64) float64 {
		slices.Sort(v)
		return v[len(v)/2]
	}
	b.ReportMetric(median(ts)/ratioBatch, "rules50-ns/op")
	b.ReportMetric(median(tl)/ratioBatch, "rules10000-ns/op")
	b.ReportMetric(median(ratio), "rules10000/rules50")
}
