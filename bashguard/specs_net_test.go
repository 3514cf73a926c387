package bashguard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every network client's spec is whole: each row has a kind, each
// loopback and needs entry names an option of the spec by its row's name,
// and a spec that moves where the client connects says how the operands
// name hosts.
func TestNetSpecRows(t *testing.T) {
	for name, s := range netSpecs() {
		assert.NotNil(t, s.net, name)
		assert.NotZero(t, s.net.dest, name)
		names := map[string]bool{}
		for r := range s.eachRow {
			assert.NotEqual(t, kUnknown, r.kind, "%s: %s", name, r.spell)
			first, _, _ := strings.Cut(r.spell, " ")
			names[strings.TrimSuffix(strings.TrimSuffix(first, "[=]"), "=")] = true
		}
		for _, e := range append(append([]string{}, s.net.loopback...), s.net.needs...) {
			n, _, _ := strings.Cut(e, "=")
			assert.True(t, names[n], "%s: the loopback entry %s names no row", name, e)
		}
		if s.net.needs != nil {
			assert.NotEmpty(t, s.net.needsWhy, name)
		}
	}
}
