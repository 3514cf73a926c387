package store

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// panicky is a store that promises never to wait and panics.
type panicky struct{ *Memory }

func (p *panicky) immediateStore() Store { return p }

func (*panicky) Grants(context.Context, Scope, string) ([]string, error) { panic("boom") }

// A store that never waits is called directly, and its panic is still an
// error; a type that only embeds one does not inherit the promise.
func TestBoundedDirect(t *testing.T) {
	p := &panicky{NewMemory()}
	b := Bound(p, 0)
	assert.True(t, b.direct)
	rules, err := b.Grants(t.Context(), ScopeUser, "ann")
	assert.EqualError(t, err, "store: reading grants panicked: boom")
	assert.Nil(t, rules)
	assert.True(t, Bound(NewMemory(), 0).direct, "a Memory")
	assert.False(t, Bound(struct{ *Memory }{NewMemory()}, 0).direct, "a type that embeds a Memory")
}
