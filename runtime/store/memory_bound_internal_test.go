package store

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Memory keeps at most memoryAnsweredKept answered approvals, dropping
// the oldest answered first, and never drops one that waits for its
// answer: the heap of a pipeline that answers one approval for every Ask
// stays bounded within the hour answers are kept.
func TestMemoryKeepsBoundedAnswered(t *testing.T) {
	ctx := context.Background()
	m := NewMemory()
	now := time.Now()
	put := func(id string) {
		require.NoError(t, m.PutApproval(ctx, Approval{ID: id, Session: "s", Tool: "Bash", Created: now, Expires: now.Add(time.Hour)}))
	}
	put("waiting")
	n := 3 * memoryAnsweredKept
	for i := range n {
		id := fmt.Sprintf("a%d", i)
		put(id)
		require.NoError(t, m.AnswerApproval(ctx, id, Answer{Choice: ChoiceDeny, Reason: "denied to make room"}))
	}
	m.mu.Lock()
	answered := 0
	for _, a := range m.approvals {
		if a.Answered {
			answered++
		}
	}
	m.mu.Unlock()
	assert.LessOrEqual(t, answered, 2*(memoryAnsweredKept+1)+64, "answered approvals kept: the bound, at most doubled between two amortised prunes")
	_, err := m.Approval(ctx, "a0")
	assert.True(t, errors.Is(err, ErrNotFound), "the oldest answered approval is dropped: %v", err)
	last, err := m.Approval(ctx, fmt.Sprintf("a%d", n-1))
	require.NoError(t, err)
	assert.True(t, last.Answered, "the newest answer is kept for reading")
	assert.Equal(t, "denied to make room", last.Answer.Reason)
	pending, err := m.Pending(ctx)
	require.NoError(t, err)
	require.Len(t, pending, 1, "the approval that waits is never dropped")
	assert.Equal(t, "waiting", pending[0].ID)
	m.mu.Lock()
	assert.LessOrEqual(t, len(m.approvals), memoryAnsweredKept+1, "after Pending's prune: the kept answers and the one waiting")
	m.mu.Unlock()
}
