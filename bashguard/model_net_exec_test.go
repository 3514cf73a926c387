package bashguard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// An option of a host reader's spec (netTools) that runs a program, or
// reads configuration that can, asks whether or not domain rules are set
// (none are here: the judge reads paths alone), and no allow rule for the
// command lifts it unless the rule names the option; an option the spec
// of a tool cannot resolve asks the same way, naming it, where that spec
// is the tool's only one, and its files go to the path judge.
func TestNetToolProgramsAsk(t *testing.T) {
	pol, paths := casePolicy("net")
	g := New(pol)
	for _, c := range []struct{ script, lifted, reason string }{
		{"npm install --script-shell=./x.sh lodash", "--script-shell", "npm: uses the npm option --script-shell, which names a program npm runs"},
		{"npm install lodash --script-shell ./x.sh", "--script-shell", "option --script-shell, which names a program npm runs"},
		{"npm i --scr=./x.sh lodash", "--script-shell", "option --script-shell (written --scr=./x.sh), which names a program npm runs"},
		{"npm ci --node-options=--require=./x.js", "--node-options", "option --node-options, which names a program npm runs"},
		{"npm install --userconfig x.npmrc", "--userconfig", "option --userconfig, which reads configuration that can run programs"},
		{"psql -o '|sh' db", "-o", "psql: uses the psql option -o, which pipes the output to a command it runs"},
		{"psql -o'|sh' db", "-o", "option -o (written -o|sh), which pipes the output to a command it runs"},
		{"psql -Xo '|sh' db", "-o", "option -o (written -Xo), which pipes the output"},
		{"psql --out='|sh' db", "--output", "option --output (written --out=|sh), which pipes the output"},
		{"apt-get -o APT::Update::Pre-Invoke::=x update", "-o", "apt-get: uses the apt-get option -o, which reads configuration that can run programs"},
		{"apt-get -oAPT::Update::Pre-Invoke::=x update", "-o", "option -o (written -oAPT::Update::Pre-Invoke::=x)"},
		{"apt-get update --option APT::Update::Pre-Invoke::=x", "--option", "option --option, which reads configuration"},
		{"apt-get -c x.conf update", "-c", "option -c, which reads configuration"},
		{"gem install --config-file x.yml rails", "--config-file", "gem: uses the gem option --config-file, which reads configuration"},
		{"docker --config x pull alpine", "--config", "docker: uses the docker option --config"},
	} {
		v := g.Judge(context.Background(), testWork, paths, c.script)
		assert.Equal(t, permission.Ask, v.Decision, "%q (%s)", c.script, v.Reason)
		assert.Contains(t, v.Reason, c.reason, "%q", c.script)
		if assert.Len(t, v.Commands, 1, c.script) {
			assert.False(t, v.Commands[0].Overridable && len(v.Commands[0].LiftedBy) == 0, "%q: an allow rule for the command lifts it (%s)", c.script, v.Reason)
			assert.Contains(t, v.Commands[0].LiftedBy, c.lifted, "%q: only a rule that names %s lifts it", c.script, c.lifted)
		}
	}
	for _, c := range []struct{ script, reason string }{
		{"psql --bogus db", "psql: uses the psql option --bogus, which"},
		{"psql --no-p db", "psql: uses the psql option --no-p"}, // --no-psqlrc or --no-password
	} {
		v := g.Judge(context.Background(), testWork, paths, c.script)
		assert.Equal(t, permission.Ask, v.Decision, "%q (%s)", c.script, v.Reason)
		assert.Contains(t, v.Reason, c.reason, "%q", c.script)
		require.Len(t, v.Commands, 1, c.script)
		assert.False(t, v.Commands[0].Overridable, "%q: an allow rule for the command lifts it (%s)", c.script, v.Reason)
	}
	// A whole spec's files go to the path judge.
	for _, c := range []struct{ script, rule, reason string }{
		{"psql -f private.txt db", "Read(./private.txt)", "psql: reads private.txt: deny by rule Read(./private.txt)"},
		{"psql -Xfprivate.txt db", "Read(./private.txt)", "psql: reads private.txt: deny"},
		{"psql --fil=private.txt db", "Read(./private.txt)", "psql: reads private.txt: deny"},
		{"pg_dump -f locked.txt db", "Edit(./locked.txt)", "pg_dump: writes locked.txt: deny by rule Edit(./locked.txt)"},
		{"pg_dump db --file locked.txt", "Edit(./locked.txt)", "pg_dump: writes locked.txt: deny"},
	} {
		v := g.Judge(context.Background(), testWork, paths, c.script)
		assert.Equal(t, permission.Deny, v.Decision, "%q (%s)", c.script, v.Reason)
		assert.Equal(t, c.rule, string(v.Rule), "%q (%s)", c.script, v.Reason)
		assert.Contains(t, v.Reason, c.reason, "%q", c.script)
	}
	// What the options leave harmless stays as the command is: asked, as
	// one no list knows, for an allow rule to lift.
	for _, script := range []string{"npm install lodash", "psql -X -h db.example -c 'select 1' db", "apt-get -y install jq"} {
		v := g.Judge(context.Background(), testWork, paths, script)
		assert.Equal(t, permission.Ask, v.Decision, "%q (%s)", script, v.Reason)
		require.Len(t, v.Commands, 1, script)
		assert.True(t, v.Commands[0].Overridable, "%q: an allow rule for the command lifts it (%s)", script, v.Reason)
	}
}
