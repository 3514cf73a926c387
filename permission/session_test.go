package permission

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSessionRules(t *testing.T) {
	c, err := New(Config{Deny: []string{"Bash(rm:*)"}, Default: Ask})
	require.NoError(t, err)
	s := c.NewSession()

	r := c.Check(sh("make", "test"), s)
	assert.Equal(t, Ask, r.Decision)
	assert.Equal(t, "no rule matched; the default for exec tools is ask", r.Reason)

	require.NoError(t, s.Add(Allow, "Bash(make test)"))
	r = c.Check(sh("make", "test"), s)
	assert.Equal(t, Allow, r.Decision, "the next check sees the session rule")
	assert.Equal(t, "allowed by allow rule Bash(make test) (session)", r.Reason)

	require.NoError(t, s.Add(Allow, "Bash(rm:*)"))
	r = c.Check(sh("rm", "x"), s)
	assert.Equal(t, Deny, r.Decision, "a session allow never beats a configuration deny")
	assert.Equal(t, "denied by deny rule Bash(rm:*) (config)", r.Reason)
	require.Equal(t, 1, r.Conflicts.Len())
	assert.Equal(t, "allowed by allow rule Bash(rm:*) (session)", r.Conflicts.At(0).Reason)

	require.NoError(t, s.Add(Deny, "Bash(make test)"))
	r = c.Check(sh("make", "test"), s)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, SourceSessionDeny, r.Source)
	assert.Equal(t, "denied by deny rule Bash(make test) (session)", r.Reason)

	err = s.Add(Allow, "Bash(ok)", "Bash(bad")
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.Contains(t, e.Reason, "specifier not closed")
	assert.Len(t, s.Rules(), 3, "a batch with a bad rule adds nothing")

	var zero SessionRules
	require.Error(t, zero.Add(Allow, "Bash"))
}

func TestSessionChildNarrowsOnly(t *testing.T) {
	c, err := New(Config{Default: Ask})
	require.NoError(t, err)
	parent := c.NewSession()
	child := parent.Child()
	sibling := parent.Child()

	require.ErrorIs(t, child.Add(Allow, "Bash(make:*)"), ErrNarrowOnly)

	require.NoError(t, parent.Add(Allow, "Bash(make:*)"))
	r := c.Check(sh("make"), child)
	assert.Equal(t, Allow, r.Decision, "a later grant to the parent applies to the child")
	assert.Equal(t, "allowed by allow rule Bash(make:*) (session)", r.Reason)

	require.NoError(t, child.Add(Deny, "Bash(make install)"))
	r = c.Check(sh("make", "install"), child)
	assert.Equal(t, Deny, r.Decision)
	assert.Equal(t, "denied by deny rule Bash(make install) (session)", r.Reason)
	for _, s := range []*SessionRules{parent, sibling} {
		r = c.Check(sh("make", "install"), s)
		assert.Equal(t, Allow, r.Decision, "the child's rules never reach parent or sibling")
		assert.Equal(t, "allowed by allow rule Bash(make:*) (session)", r.Reason)
	}
}

// TestSessionRulesRace: 8 goroutines check while another adds session
// rules. Run under -race. Every check sees either the state before or
// after an addition, never a torn one: once a goroutine has seen rule i
// allowed, it keeps seeing it allowed.
func TestSessionRulesRace(t *testing.T) {
	c, err := New(Config{Deny: []string{"Bash(rm:*)"}, Default: Ask})
	require.NoError(t, err)
	s := c.NewSession()
	const n = 200
	var added atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 2000; j++ {
				k := j % n
				known := added.Load() // rules 0..known-1 are certainly added
				r := c.Check(sh("tool"+fmt.Sprint(k)), s)
				if int64(k) < known && r.Decision != Allow {
					t.Errorf("rule %d was added but check says %v: %s", k, r.Decision, r.Reason)
					return
				}
				if r.Decision == Allow && r.Reason != "allowed by allow rule Bash(tool"+fmt.Sprint(k)+") (session)" {
					t.Errorf("wrong reason %q", r.Reason)
					return
				}
				if d := c.Check(sh("rm", "-rf", "x"), s); d.Decision != Deny {
					t.Errorf("rm not denied: %v", d.Decision)
					return
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		require.NoError(t, s.Add(Allow, "Bash(tool"+fmt.Sprint(i)+")"))
		added.Store(int64(i + 1))
	}
	wg.Wait()
	assert.Len(t, s.Rules(), n)
}

// State names the rules as they are: equal (==) while none is added, to the
// session rules or to a parent, and another once one is.
func TestSessionRulesState(t *testing.T) {
	c, err := New(Config{WorkDir: t.TempDir()})
	require.NoError(t, err)
	s := c.NewSession()
	child := s.Child()
	st, cst := s.State(), child.State()
	require.NotNil(t, st)
	assert.True(t, st == s.State(), "nothing added")
	assert.False(t, st == cst, "the child's rules are its own too")
	require.NoError(t, s.Add(Deny, "Read(./x.txt)"))
	assert.False(t, st == s.State(), "a rule added")
	assert.False(t, cst == child.State(), "a rule added to the parent reaches the child")
	deep := child
	for range 8 {
		deep = deep.Child()
	}
	assert.Nil(t, deep.State(), "a chain deeper than eight is not named")
	var none *SessionRules
	assert.NotNil(t, none.State(), "no session rules: a state of their own")
}
