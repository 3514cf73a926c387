// Package costtest builds the adversarial inputs of the cost benchmarks:
// inputs of a given size made of one shape repeated (deep nesting, long
// runs of one character, many keys, many commands, many path components,
// many rules), so that a benchmark can show that the time a decision
// takes grows linearly with the size of its input.
package costtest

import (
	"fmt"
	"strings"
	"testing"
)

// Sizes are the input sizes every cost benchmark runs at: 1 KiB, 64 KiB
// and 1 MiB.
var Sizes = []int{1 << 10, 64 << 10, 1 << 20}

// Fill repeats unit, separated by sep, between head and tail, as often as
// the whole stays at most n bytes long.
func Fill(head, unit, sep, tail string, n int) string {
	return FillN(head, func(int) string { return unit }, sep, tail, n)
}

// FillN is Fill with a unit that depends on its index.
func FillN(head string, unit func(i int) string, sep, tail string, n int) string {
	var b strings.Builder
	b.Grow(n)
	b.WriteString(head)
	for i := 0; ; i++ {
		u := unit(i)
		if i > 0 {
			u = sep + u
		}
		if b.Len()+len(u)+len(tail) > n {
			break
		}
		b.WriteString(u)
	}
	b.WriteString(tail)
	return b.String()
}

// Run runs f as a sub-benchmark named shape/size for every size of Sizes
// that make accepts (make returns the input of about that size, or false
// to skip the size), and reports ns/KiB: the time per KiB of input.
func Run(b *testing.B, shape string, make func(n int) (string, bool), f func(b *testing.B, input string)) {
	for _, n := range Sizes {
		in, ok := make(n)
		if !ok {
			continue
		}
		b.Run(fmt.Sprintf("%s/%s", shape, size(n)), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			f(b, in)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(float64(len(in))/1024), "ns/KiB")
		})
	}
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%dMiB", n>>20)
	default:
		return fmt.Sprintf("%dKiB", n>>10)
	}
}
