package bashguard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// In the loopback network mode a confined curl, wget or nc to the
// loopback is allowed, and the command says why; without the mode, or
// unconfined, it is asked.
func TestLoopbackCommandReason(t *testing.T) {
	pol := DefaultPolicy()
	pol.AllowNetwork, pol.Loopback, pol.Confined = true, true, true
	paths := CheckerJudge(rootChecker{dir: testWork, roots: []string{testWork}})
	for _, script := range []string{"curl -s http://localhost:8080/health", "wget -qO- 127.0.0.1:8000", "nc -zv 127.0.0.1 5432"} {
		v := New(pol).Judge(context.Background(), testWork, paths, script)
		require.Len(t, v.Commands, 1)
		assert.Equal(t, permission.Allow, v.Decision, "%q: %s", script, v.Reason)
		assert.Equal(t, NetworkRule(v.Commands[0].Args[0]), v.Commands[0].Rule, script)
		assert.Equal(t, "connects only to the loopback of its own network namespace (the loopback network mode)", v.Commands[0].Reason, script)
		for _, p := range []Policy{{Loopback: true, AllowNetwork: true}, {Confined: true, AllowNetwork: true}, {Confined: true}} {
			v := New(p).Judge(context.Background(), testWork, paths, script)
			assert.Equal(t, permission.Ask, v.Decision, "%q under %+v: %s", script, p, v.Reason)
			assert.Contains(t, v.Reason, "connects only to this machine's loopback", script)
		}
	}
}

// A loopback command's file writes are judged whichever Ask it gets:
// with Loopback and Confined but not AllowNetwork too.
func TestLoopbackWritesJudged(t *testing.T) {
	paths := CheckerJudge(rootChecker{dir: testWork, roots: []string{testWork}})
	for _, p := range []Policy{{}, {Confined: true, Loopback: true}, {Confined: true, Loopback: true, AllowNetwork: true}} {
		v := New(p).Judge(context.Background(), testWork, paths, "curl -o /etc/profile.d/x.sh http://localhost:8000/x")
		assert.Equal(t, permission.Deny, v.Decision, "%+v: %s", p, v.Reason)
		assert.Equal(t, "curl: writes /etc/profile.d/x.sh outside the allowed roots: /etc/profile.d/x.sh is outside every root", v.Reason)
	}
}
