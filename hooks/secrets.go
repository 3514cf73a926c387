package hooks

import (
	"cmp"
	"regexp"
	"strings"
	"sync"
)

// RedactSecrets returns s with the values that look like secrets masked:
// each keeps what names it (the key, the flag, a token's vendor prefix,
// the quotes around it) and loses the rest to "****", so that a row says
// a token was there without saying which. It reads text as a command
// line, an environment, a configuration file or a JSON object holds it,
// JSON-escaped inside a JSON string too (the audit log's input is a JSON
// object whose command member is a script):
//
//   - NAME=value, NAME: value, "NAME": "value" and --NAME value, for a
//     NAME ending in password, passwd, secret, token, api_key (apikey,
//     api-key), access_key, private_key or credentials (any case, any
//     prefix: DB_PASSWORD, GITHUB_TOKEN, client_secret), the value bare
//     or quoted; a JSON member's value only when it is a string, inside
//     its quotes, so that a JSON input stays JSON;
//   - an Authorization header's or a bearer token's credentials;
//   - the password of a URL's user information (https://user:****@host)
//     and of curl's -u user:password;
//   - tokens by their shape: AWS access key ids, GitHub, Slack, OpenAI-
//     and Anthropic-style keys, Google API keys, JSON web tokens, and
//     PEM private key blocks (to their end line, or to the end of s).
//
// It is the audit log's default ([AuditOptions.Redact]) and a ready
// redaction for the output hook ([Redaction]); a host with secrets of its
// own shapes wraps it. It is a heuristic: a secret in no shape it knows
// passes. It is safe for concurrent use, returns s itself (no allocation)
// when nothing looks secret, and costs time linear in len(s): one pass
// that looks for the rows' hints, and at each hint an anchored match
// bounded by the row's window.
func RedactSecrets(s string) string {
	var b strings.Builder
	done := 0 // s[:done] has been written to b
	for i := 0; i < len(s); i++ {
		hints := secretHints[lowerASCII(s[i])]
		if len(hints) == 0 {
			continue
		}
		for _, h := range hints {
			if len(s)-i < len(h.text) || !strings.EqualFold(s[i:i+len(h.text)], h.text) {
				continue
			}
			r := &secretRows[h.row]
			end := len(s)
			if r.window >= 0 {
				end = min(len(s), i+cmp.Or(r.window, secretWindow))
			}
			m := r.re().FindStringSubmatchIndex(s[i:end])
			if m == nil {
				continue
			}
			if s[i+m[4]:i+m[5]] != secretMask {
				b.WriteString(s[done : i+m[4]])
				b.WriteString(secretMask)
				done = i + m[5]
			}
			i += max(m[1], 1) - 1 // past the match, group 3 included
			break
		}
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// NoRedaction returns s as it is. Given to [AuditOptions.Redact], it is
// the explicit choice to store inputs and output previews unredacted: an
// AuditLog without a Redact masks with [RedactSecrets].
func NoRedaction(s string) string { return s }

// secretMask replaces what a secret row matched.
const secretMask = "****"

// secretWindow bounds how far past its hint a row's match may reach,
// unless the row says otherwise: a secret is shorter, and the bound keeps
// an input full of hints that match nothing linear.
const secretWindow = 1 << 10

// secretName is the end of a key, variable or flag name that says its
// value is a secret; whatever precedes it (DB_, client_, aws_) is left
// outside the match.
const secretName = `(?i:(?:password|passwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|credentials?)(?:[_-]?key)?)`

// secretNameHints are the literals a secretName begins with.
var secretNameHints = []string{"password", "passwd", "secret", "token", "api_key", "api-key", "apikey",
	"access_key", "access-key", "private_key", "private-key", "credential"}

// secretRow is one shape of secret. Every match begins with one of hints
// (compared without regard to ASCII case), where re, anchored, is tried:
// so a text without a hint costs a scan for the hints and nothing else.
// In re, group 1 is kept before the mask, group 2 is masked and group 3,
// when there is one, is kept after it (a closing quote, a PEM block's end
// line). window bounds the match (0: secretWindow; -1: the rest of the
// text). re is compiled on the row's first use: a process that redacts
// nothing (a hook call that allows) compiles none.
type secretRow struct {
	name   string
	hints  []string
	window int
	re     func() *regexp.Regexp
}

// lazyRE is the expression expr, compiled on the first call; safe for
// concurrent use. It panics on a malformed expression, as
// regexp.MustCompile does: the rows are the package's own, and the tests
// use every one.
func lazyRE(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// secretRows is the table RedactSecrets reads: at each position the
// rows whose hint begins there are tried in order and the first match
// masks; a match of an earlier mask leaves it. The cases of secrets_test.go are the
// examples each row must mask, and those it must leave alone.
var secretRows = []secretRow{
	{"PEM private key", []string{"-----begin "}, -1, lazyRE(`^(-----BEGIN [A-Z ]*PRIVATE KEY-----)((?s:.*?))(-----END [A-Z ]*PRIVATE KEY-----|$)`)},
	{"name, JSON-escaped double quotes", secretNameHints, 0, lazyRE(`^(` + secretName + `(?:\\")?\s*[=:]\s*\\")((?:[^"\\]|\\[^"])+)(\\")`)},
	{"name, double quotes", secretNameHints, 0, lazyRE(`^(` + secretName + `"?\s*[=:]\s*")((?:[^"\\]|\\.)+)(")`)},
	{"name, single quotes", secretNameHints, 0, lazyRE(`^(` + secretName + `'?\s*[=:]\s*')([^']+)(')`)},
	{"name, bare value", secretNameHints, 0, lazyRE(`^(` + secretName + `'?\s*[=:]\s*)([^\s"'\\,;&|(){}\[\]<>*][^\s"'\\,;&|(){}\[\]<>]*)`)},
	{"flag, value after a space", []string{"--"}, 0, lazyRE(`^(--(?i:[a-z0-9_-]*)` + secretName + `\s+)([^\s"'\\*-][^\s"'\\]*)`)},
	{"authorization header", []string{"authorization"}, 0, lazyRE(`^((?i:authorization)(?:\\?"|')?\s*[:=]\s*(?:\\?"|')?(?i:bearer|basic|token|digest)\s+)([^\s"'\\*][^\s"'\\]*)`)},
	{"authorization header, no scheme", []string{"authorization"}, 0, lazyRE(`^((?i:authorization)(?:\\?"|')?\s*[:=]\s*(?:\\?"|')?)([A-Za-z0-9._~+/=-]{16,})`)},
	{"bearer token", []string{"bearer"}, 0, lazyRE(`^((?i:bearer)\s+)([A-Za-z0-9._~+/=-]{8,})`)},
	{"URL user information", []string{"://"}, 0, lazyRE(`^(://[^/\s:@"'\\]+:)([^/\s@"'\\*][^/\s@"'\\]*)(@)`)},
	{"curl -u user:password", []string{"-u", "--user"}, 0, lazyRE(`^((?:-u|--user)\s+[^\s:"'\\]+:)([^\s"'\\*][^\s"'\\]*)`)},
	{"AWS access key id", []string{"akia", "asia"}, 0, lazyRE(`^(AKIA|ASIA)([0-9A-Z]{16})\b`)},
	{"GitHub token", []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, 0, lazyRE(`^(gh[pousr]_|github_pat_)([A-Za-z0-9_]{20,})`)},
	{"Slack token", []string{"xox"}, 0, lazyRE(`^(xox[abposr]-)([A-Za-z0-9-]{10,})`)},
	{"sk- style API key", []string{"sk-"}, 0, lazyRE(`^(sk-(?:proj-|ant-)?)([A-Za-z0-9_-]{20,})`)},
	{"Google API key", []string{"aiza"}, 0, lazyRE(`^(AIza)([0-9A-Za-z_-]{35})`)},
	{"JSON web token", []string{"eyj"}, 0, lazyRE(`^(eyJ)([A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`)},
}

// secretHint is one hint of one row.
type secretHint struct {
	text string
	row  int
}

// secretHints indexes the rows' hints by their first byte, lower case:
// at a position, the rows are tried in table order, and the first that
// matches masks.
var secretHints = func() (t [256][]secretHint) {
	for r, row := range secretRows {
		for _, h := range row.hints {
			t[h[0]] = append(t[h[0]], secretHint{h, r})
		}
	}
	return t
}()

// lowerASCII lowers an ASCII letter.
func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
