package runtime

import (
	"context"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionBackgroundEndsWithSession(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ss := newSessions(Limits{})
		s, err := ss.start(t.Context(), "s")
		require.NoError(t, err)
		require.NoError(t, s.Background().Go("t", func(ctx context.Context) (string, error) {
			<-ctx.Done()
			return "", context.Cause(ctx)
		}))
		ss.end("s")
		s.Background().Wait()
		n := s.Background().Drain()
		require.Len(t, n, 1)
		assert.ErrorIs(t, n[0].Err, ErrSessionEnded)
	})
}
