package bashguard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Policy.Environ gives the host's values of the variables of
// environNames: $NAME stands for its value as $HOME does, unless the
// script assigns it or the value would split or glob unquoted; other
// names and empty values are ignored.
func TestEnvironValues(t *testing.T) {
	dir := t.TempDir()
	pol := DefaultPolicy()
	pol.Home = t.TempDir()
	pol.Environ = map[string]string{"PATH": "/usr/bin:/bin", "SHELL": "/bin/bash", "TERM": "x*", "LANG": "C UTF-8",
		"AWS_SECRET_ACCESS_KEY": "abc", "USER": ""}
	g := New(pol)
	paths := CheckerJudge(rootChecker{dir: dir, roots: []string{dir}})
	for _, c := range []struct{ script, decision, rule, reason string }{
		{"echo $PATH", "allow", "safe", "every command is read-only and on the safe list"},
		{"echo $SHELL $PATH", "allow", "safe", "every command is read-only and on the safe list"},
		{`echo "$TERM"`, "allow", "safe", "every command is read-only and on the safe list"},
		{"echo $TERM", "ask", "dynamic:arg", "echo: argument $TERM is only known at run time"},
		{"echo $LANG", "ask", "dynamic:arg", "echo: argument $LANG is only known at run time"},
		{"echo $USER", "ask", "dynamic:arg", "echo: argument $USER is only known at run time (unquoted"},
		{"echo $AWS_SECRET_ACCESS_KEY", "ask", "dynamic:arg", "argument $AWS_SECRET_ACCESS_KEY is only known at run time"},
		{"PATH='/root/*'; echo $PATH", "ask", "env:assign", "assignment to PATH can change what a command runs"},
		{"read SHELL; echo $SHELL", "ask", "env:assign", "read assigns SHELL"},
		{"cat $SHELL", "ask", "path:read", "cat: reads /bin/bash outside the allowed roots"},
	} {
		v := g.Judge(context.Background(), dir, paths, c.script)
		assert.Equal(t, c.decision, v.Decision.String(), "%q: %s", c.script, v.Reason)
		assert.Equal(t, c.rule, string(v.Rule), c.script)
		assert.Contains(t, v.Reason, c.reason, c.script)
	}
	assert.Equal(t, []string{"LANG", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}, EnvironNames())
}
