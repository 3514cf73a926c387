package bashguard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The toolchains' queries are read by their specs (specs_sys.go): each
// spelling is judged with its reason; a line a spec does not read whole
// at the command's own level is the command's class's.
func TestSysToolSpellings(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	for _, tc := range []struct{ line, want, reason string }{
		{"node --version", "allow", "read-only and on the safe list"},
		{"go version -m", "allow", "read-only and on the safe list"},
		{"go env -json GOPATH", "allow", "read-only and on the safe list"},
		{"go mod why -m x", "allow", "read-only and on the safe list"},
		{"rustup toolchain list -vq", "allow", "read-only and on the safe list"},
		{"go list -export ./...", "ask", "go list -export compiles the packages"},
		{"go list -bogus ./...", "ask", "not on the safe list (go list option -bogus is not known to be harmless)"},
		{"go list -mod=mod ./...", "ask", "not on the safe list (go list -mod=mod may update go.mod)"},
		{"go env GOPROXY", "ask", "go env GOPROXY may hold credentials"},
		{"go env -w GOFLAGS=-x", "ask", "uses the go env option -w, which changes the go environment file"},
		{"go vet ./...", "ask", "go vet compiles the packages"},
		{"go mod tidy", "ask", "not on the safe list (go mod tidy)"},
		{"cargo -vV", "ask", "not on the safe list"},
		{"npm ls -la", "ask", "npm ls option -la is not known to be harmless"},
		{"npm view react", "ask", "npm view asks the package registry over the network"},
		{"rustc --print link-args", "ask", "not on the safe list"},
		{"pip list --format=xml --no-index", "ask", "not on the safe list (pip list --format=xml --no-index)"},
		{"pip list", "ask", "pip list asks the package index over the network"},
		{"gofmt -w src/main.go", "ask", "uses the gofmt option -w, which rewrites the files it formats"},
		{"gofmt -l .env", "deny", ".env"},
		{"yq -i .a=1 a.txt", "ask", "uses the yq option -i, which writes the file in place"},
		{"ulimit -n 10", "ask", "not on the safe list"},
		{"printenv GITHUB_TOKEN", "ask", "printenv: prints the environment: the environment holds secrets"},
	} {
		v := g.Judge(context.Background(), dir, paths, tc.line)
		assert.Equal(t, tc.want, v.Decision.String(), "%q (%s)", tc.line, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%q", tc.line)
	}
}

// The per-name knowledge the dispatcher and the walker read from tables
// (batchOptions, assigners, assignsAny, dataArgs) and from specs
// (test's model, which's check, hostname, ps) judges as before.
func TestNameTablesJudge(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	for _, tc := range []struct{ line, want, reason string }{
		{"top -bn1", "ask", "runs in batch mode; not on the safe list"},
		{"top", "deny", "is interactive and would hang"},
		{"printf '%s' x", "allow", "read-only and on the safe list"},
		{"printf -v PATH x", "ask", "printf assigns PATH"},
		{"mapfile -C cb arr", "ask", "mapfile -C runs a callback command"},
		{"getopts ab PATH", "ask", "getopts assigns PATH"},
		{"unset -f PATH", "ask", "not on the safe list"},
		{"test -v 'a[$(id)]'", "ask", "evaluates an array subscript"},
		{"[ -f .env ]", "ask", "reads .env: secret file"},
		{"which ./.env", "deny", ".env"},
		{"hostname -f", "ask", "hostname with arguments sets the name or looks it up in the DNS"},
		{"hostname --help", "allow", "read-only and on the safe list"},
		{"ps -auxe", "ask", "ps -auxe is read as BSD options"},
		{"echo \"$(date)\"", "allow", "read-only and on the safe list"},
	} {
		v := g.Judge(context.Background(), dir, paths, tc.line)
		assert.Equal(t, tc.want, v.Decision.String(), "%q (%s)", tc.line, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%q", tc.line)
	}
}

// A name the policy adds to the safe list (Policy.ExtraSafe) is allowed
// with any literal arguments where an allow rule for it would be: a spec's
// Ask for what the command does is lifted, what a row says no rule lifts
// is not.
func TestExtraSafeLiftsOnlyWhatARuleWould(t *testing.T) {
	dir, paths := specRepo(t)
	pol := DefaultPolicy()
	pol.ExtraSafe = []string{"make", "go", "npm"}
	g := New(pol)
	for _, tc := range []struct{ line, want, reason string }{
		{"make build", "allow", "on the policy's extra safe list"},
		{"make -j4 test V=1", "allow", "on the policy's extra safe list"},
		{"make --eval='$(shell id)' all", "ask", "uses the make option --eval"},
		{"make SHELL=/tmp/x", "ask", "sets SHELL, which chooses a program make runs"},
		{"go test ./...", "allow", "on the policy's extra safe list"},
		{"go test -exec /tmp/x ./...", "ask", "uses the go test option -exec"},
		{"npm test", "allow", "on the policy's extra safe list"},
		{"npm test --script-shell=/tmp/x", "ask", "uses the npm test option --script-shell"},
		{"make -f .env", "deny", ".env"},
	} {
		v := g.Judge(context.Background(), dir, paths, tc.line)
		assert.Equal(t, tc.want, v.Decision.String(), "%q: %s", tc.line, v.Reason)
		if assert.NotEmpty(t, v.Commands, tc.line) {
			assert.Contains(t, v.Commands[0].Reason, tc.reason, tc.line)
		}
	}
}
