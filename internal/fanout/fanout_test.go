package fanout

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAllCallsEveryCheckOnce(t *testing.T) {
	for _, n := range []int{0, 1, 63, 64, 128, 1000, 4097} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			calls := make([]atomic.Int32, n)
			ok := All(n, func(i int) bool {
				calls[i].Add(1)
				return true
			})
			assert.True(t, ok, "every check passed")
			for i := range calls {
				assert.Equal(t, int32(1), calls[i].Load(), "check %d of %d is called once", i, n)
			}
		})
	}
}

func TestAllReportsAFailedCheck(t *testing.T) {
	for _, n := range []int{1, 100, 1000, 4097} {
		for _, bad := range []int{0, n / 2, n - 1} {
			var calls atomic.Int32
			ok := All(n, func(i int) bool {
				calls.Add(1)
				return i != bad
			})
			assert.False(t, ok, "check %d of %d failed", bad, n)
			assert.LessOrEqual(t, calls.Load(), int32(n), "no check is called twice")
		}
	}
}
