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

// In the loopback network mode without network access, a loopback
// command whose options are not all those its spec's loopback lists is
// asked, and the reason names the option as the scanner read it:
// clusters, attached values, abbreviations, --opt=value.
func TestLoopbackOptionsNamed(t *testing.T) {
	pol := Policy{Confined: true, Loopback: true}
	paths := CheckerJudge(rootChecker{dir: testWork, roots: []string{testWork}})
	for script, why := range map[string]string{
		"curl -so out.html http://localhost:8080/":      "-o out.html reads or writes a file",
		"curl --output=out.html http://localhost:8080/": "--output out.html reads or writes a file",
		"curl -sH@h.txt http://localhost/":              "-H @h.txt reads or writes a file",
		"curl -H @h.txt http://localhost/":              "-H @h.txt reads or writes a file",
		"curl -w '%output{x}' http://localhost/":        "-w %output{x} reads or writes a file",
		"curl --url http://localhost/":                  "the option --url is not one it is allowed with",
		"wget -nc -O- http://localhost/":                "-n c is not a value it is allowed with",
		"wget -O /dev/null http://localhost/":           "-O /dev/null reads or writes a file",
		"wget -q http://localhost/":                     "it writes what it downloads to a file (-O - sends it to standard output)",
		"nc -zu localhost 53":                           "the option -u (written -zu) is not one it is allowed with",
		"curl -s -- http://localhost/":                  "-- is not read here",
		"curl --sil http://localhost/":                  "the option --silent (written --sil) is not one it is allowed with",
	} {
		v := New(pol).Judge(context.Background(), testWork, paths, script)
		assert.Equal(t, permission.Ask, v.Decision, "%q: %s", script, v.Reason)
		assert.Contains(t, v.Reason, "connects only to this machine's loopback, but "+why, script)
	}
	for _, script := range []string{"curl --silent --max-time=5 http://localhost:8080/", "curl -sSm5 -o/dev/null http://127.0.0.1:8000/",
		"curl --data-raw @x http://localhost/", "wget -nv -O- http://localhost/", "wget --output-document=- http://localhost/",
		"wget --spider http://localhost/", "nc -zvw1 localhost 5432", "netcat -z localhost 22"} {
		v := New(pol).Judge(context.Background(), testWork, paths, script)
		assert.Equal(t, permission.Allow, v.Decision, "%q: %s", script, v.Reason)
		require.Len(t, v.Commands, 1)
		assert.Equal(t, "connects only to the loopback of its own network namespace (the loopback network mode)", v.Commands[0].Reason, script)
	}
	// An option the spec cannot resolve may move the client anywhere:
	// the command is not taken for a loopback one.
	for _, script := range []string{"curl --cook x http://localhost/", "curl --frobnicate http://localhost/", "wget -Z http://localhost/"} {
		v := New(pol).Judge(context.Background(), testWork, paths, script)
		assert.Equal(t, permission.Deny, v.Decision, "%q: %s", script, v.Reason)
		assert.Contains(t, v.Reason, "reaches the network; network access is denied by the policy", script)
	}
}

// Every spelling of a write option is judged: attached, clustered, by
// its long name with "=", abbreviated.
func TestLoopbackWriteSpellings(t *testing.T) {
	paths := CheckerJudge(rootChecker{dir: testWork, roots: []string{testWork}})
	for _, script := range []string{"curl -so/etc/x http://localhost/", "curl --output=/etc/x http://localhost/",
		"curl --dump-head /etc/x http://localhost/", "wget -qO/etc/x http://localhost/", "wget --output-doc=/etc/x http://localhost/",
		"wget -a /etc/x http://localhost/"} {
		v := New(Policy{Confined: true, Loopback: true}).Judge(context.Background(), testWork, paths, script)
		assert.Equal(t, permission.Deny, v.Decision, "%q: %s", script, v.Reason)
		assert.Contains(t, v.Reason, "writes /etc/x outside the allowed roots", script)
	}
}
