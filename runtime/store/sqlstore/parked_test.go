package sqlstore_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/runtime/store"
	"github.com/toolgate/toolgate/runtime/store/sqlstore"
)

// The bounds of parked approvals hold with the SQL stores too: many
// goroutines asking at once in a few sessions leave no more waiting in
// the store than the bounds, and every approval denied to make room
// resumes as a Deny of runtime:parked-full that names the bound.
func TestParkedApprovalsBoundedInSQLStores(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) store.Store{
		"sqlite": func(t *testing.T) store.Store {
			st, err := sqlstore.OpenSQLite(t.Context(), filepath.Join(t.TempDir(), "state.db"))
			require.NoError(t, err)
			t.Cleanup(func() { st.Close() })
			return st
		},
		"postgres": func(t *testing.T) store.Store { return openPG(t) },
	} {
		t.Run(name, func(t *testing.T) {
			st := open(t)
			const max, perSession, sessions, each = 6, 3, 3, 8
			p, err := runtime.Open(runtime.Workspace{Dir: workspace(t), Rules: permission.Config{Default: permission.Ask},
				Store: st, User: "ann", AskTimeout: time.Minute, MaxParked: max, MaxParkedPerSession: perSession,
				Limits: runtime.Limits{MaxSteps: 1 << 20}})
			require.NoError(t, err)
			t.Cleanup(func() { p.Close() })
			prefix := fmt.Sprintf("parked-%d-", time.Now().UnixNano())
			for s := range sessions {
				sess, err := p.Session(t.Context(), runtime.SessionOptions{ID: fmt.Sprint(prefix, s)})
				require.NoError(t, err)
				t.Cleanup(func() { sess.End("test over", "", nil) })
			}
			var mu sync.Mutex
			var tickets []string
			var wg sync.WaitGroup
			for g := range sessions * each {
				wg.Go(func() {
					v := p.Check(t.Context(), bash(fmt.Sprint(prefix, g%sessions), fmt.Sprintf("make t%d", g)))
					assert.Equal(t, permission.Ask, v.Decision, v.Reason)
					mu.Lock()
					tickets = append(tickets, v.Ticket)
					mu.Unlock()
				})
			}
			wg.Wait()
			pend, err := st.Pending(t.Context())
			require.NoError(t, err)
			bySession, mine := map[string]int{}, 0
			for _, ap := range pend {
				if strings.HasPrefix(ap.Session, prefix) {
					bySession[ap.Session]++
					mine++
				}
			}
			assert.LessOrEqual(t, mine, max, "the pipeline's bound")
			for sid, n := range bySession {
				assert.LessOrEqual(t, n, perSession, "session %s", sid)
			}
			denied := 0
			for _, tk := range tickets {
				require.NotEmpty(t, tk)
				ap, err := st.Approval(t.Context(), tk)
				require.NoError(t, err)
				if !ap.Answered {
					continue
				}
				denied++
				rv, err := p.Resume(t.Context(), tk)
				require.NoError(t, err)
				assert.Equal(t, permission.Deny, rv.Decision, rv.Reason)
				assert.Equal(t, permission.LayerRuntime, rv.Layer)
				assert.Equal(t, runtime.RuleParkedFull, rv.Rule, rv.Reason)
				assert.Regexp(t, `^denied by toolgate to make room: (its session's|the pipeline's) bound of \d+ approvals waiting for a person was reached \(\d+ pending in the`, rv.Reason)
			}
			assert.Equal(t, len(tickets)-mine, denied, "every approval not pending was denied to make room")
		})
	}
}
