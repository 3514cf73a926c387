package hooks_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgate/toolgate/hooks"
)

// Each case is a text and what RedactSecrets leaves of it: every row of
// its table masks its examples, keeps the name, prefix and quotes around
// them, and leaves alone what only looks near a secret.
func TestRedactSecrets(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		// names, in every spelling a shell, an environment or JSON gives
		{`export GITHUB_TOKEN=abc123def`, `export GITHUB_TOKEN=****`},
		{`DB_PASSWORD='s3cr3t pass' ./run`, `DB_PASSWORD='****' ./run`},
		{`API_KEY="k-123" make deploy`, `API_KEY="****" make deploy`},
		{`mysql --password=hunter2 -h db`, `mysql --password=**** -h db`},
		{`tool --api-key hunter2 --verbose`, `tool --api-key **** --verbose`},
		{`client_secret: xyz789`, `client_secret: ****`},
		{`{"password":"hunter2","user":"bob"}`, `{"password":"****","user":"bob"}`},
		{`{"config":{"aws_secret_access_key": "wJalrXUtnFEMI/K7MDENG"}}`, `{"config":{"aws_secret_access_key": "****"}}`},
		{`{"command":"curl -d '{\"token\":\"abc\"}' https://x.test"}`, `{"command":"curl -d '{\"token\":\"****\"}' https://x.test"}`},
		{`{"command":"export SECRET=\"a b c\"; run"}`, `{"command":"export SECRET=\"****\"; run"}`},
		{`{"command":"PASSWORD=hunter2 psql"}`, `{"command":"PASSWORD=**** psql"}`},
		// headers, URLs, curl -u
		{`curl -H 'Authorization: Bearer abcdefgh12345678' x`, `curl -H 'Authorization: Bearer ****' x`},
		{`authorization: Basic dXNlcjpwYXNz`, `authorization: Basic ****`},
		{`Authorization: 0123456789abcdef0123`, `Authorization: ****`},
		{`token is Bearer eyabcdefgh123456`, `token is Bearer ****`},
		{`git clone https://bob:hunter2@example.test/r.git`, `git clone https://bob:****@example.test/r.git`},
		{`curl -u admin:hunter2 https://x.test`, `curl -u admin:**** https://x.test`},
		// shapes
		{`key AKIAIOSFODNN7EXAMPLE here`, `key AKIA**** here`},
		{`ghp_abcdefghijklmnopqrstuvwxyz0123456789`, `ghp_****`},
		{`xoxb-1234567890-abcdefghij`, `xoxb-****`},
		{`sk-proj-abcdefghijklmnopqrstuvwxyz`, `sk-proj-****`},
		{`AIzaSyA1234567890abcdefghijklmnopqrstuv`, `AIza****`},
		{`eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N`, `eyJ****`},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----\nrest", "-----BEGIN RSA PRIVATE KEY-----****-----END RSA PRIVATE KEY-----\nrest"},
		{"-----BEGIN PRIVATE KEY-----\nMIIEow (cut)", "-----BEGIN PRIVATE KEY-----****"},
		// near misses, left as they are
		{`{"max_tokens": 100, "token": 5}`, `{"max_tokens": 100, "token": 5}`},
		{`PWD=/home/bob cd src`, `PWD=/home/bob cd src`},
		{`git commit -m 'fix password reset'`, `git commit -m 'fix password reset'`},
		{`{"file_path":"/w/src/token.go"}`, `{"file_path":"/w/src/token.go"}`},
		{`see https://example.test:8080/x`, `see https://example.test:8080/x`},
		{`sk-short`, `sk-short`},
		{``, ``},
	} {
		got := hooks.RedactSecrets(tc.in)
		assert.Equal(t, tc.want, got, "RedactSecrets(%q)", tc.in)
		assert.Equal(t, got, hooks.RedactSecrets(got), "RedactSecrets(%q) is idempotent", tc.in)
		if json.Valid([]byte(tc.in)) {
			assert.True(t, json.Valid([]byte(got)), "a JSON input stays JSON: %q", got)
		}
	}
	assert.Equal(t, "TOKEN=abc", hooks.NoRedaction("TOKEN=abc"), "the opt-out keeps the text")
}

// RedactSecrets keeps a JSON input JSON and its secret out, whatever the
// text around it.
func FuzzRedactSecrets(f *testing.F) {
	for _, s := range []string{`x`, `{"command":"ls"}`, `curl -u a:b x`, `KEY=1`, `"a b"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, around string) {
		b, _ := json.Marshal(map[string]string{"command": around + " DB_PASSWORD=zq9Secret7 " + around})
		got := hooks.RedactSecrets(string(b))
		if !json.Valid([]byte(got)) {
			t.Fatalf("not JSON after redaction: %q -> %q", b, got)
		}
		if strings.Contains(got, "zq9Secret7") {
			t.Fatalf("the secret passed: %q -> %q", b, got)
		}
	})
}

// RedactSecrets costs time linear in its input, hints that match
// nothing included, and allocates nothing when there is nothing to mask.
func TestRedactSecretsCost(t *testing.T) {
	code := `{"content":"` + strings.Repeat(`func main() { fmt.Println(x) }\n`, 1<<15) + `"}`
	assert.Zero(t, testing.AllocsPerRun(5, func() { hooks.RedactSecrets(code) }), "nothing to mask: no allocation")
	// Hints without a secret, each a failed anchored match.
	hints := strings.Repeat(`password:\"x token -- -u ://a `, 1<<15)
	masked := hooks.RedactSecrets(hints)
	assert.NotContains(t, masked, `password:\"x`, "an unterminated JSON-escaped value is masked bare")
	assert.Equal(t, masked, hooks.RedactSecrets(masked))
}
