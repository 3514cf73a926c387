package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// Every key pattern and value shape of the credential table has a key it
// finds, and the everyday keys beside them are not taken for one.
func TestGitSecretKeysAndShapes(t *testing.T) {
	for _, tc := range []struct {
		key, val, what string
		inName         bool
	}{
		{"github.token", "ghp_x", "a credential", false},
		{"hub.oauthtoken", "x", "a credential", false},
		{"gitlab.accesstoken", "x", "a credential", false},
		{"jira.apitoken", "x", "a credential", false},
		{"tool.apikey", "x", "a credential", false},
		{"smtp.x.password", "x", "a credential", false},
		{"oauth.secret", "x", "a credential", false},
		{"sendemail.smtppass", "x", "a credential", false},
		{"sendemail.work.smtppass", "x", "a credential", false},
		{"imap.pass", "x", "a credential", false},
		{"http.extraheader", "AUTHORIZATION: basic eDp5", "a credential", false},
		{"http.https://example.com.extraheader", "x", "a credential", false},
		{"remote.origin.url", "https://dev:tok@github.com/o/r.git", "a URL with a password", false},
		{"remote.origin.url", "https://ghp_abc@github.com/o/r.git", "a URL with a token", false},
		{"url.https://dev:tok@github.com/.insteadof", "https://github.com/", "a URL with a password", true},
		{"url.https://x-access-token:t@github.com/.insteadof", "https://github.com/", "a URL with a password", true},
		{"credential.helper", "!f() { echo password=hunter2; }; f", "an inline password", false},
		{"alias.api", "!curl -H 'Authorization: Bearer x' https://api", "an authorization header", false},
		{"user.name", "dev", "", false},
		{"user.email", "dev@example.com", "", false},
		{"github.token", "", "", false},
		{"remote.origin.url", "https://github.com/o/r.git", "", false},
		{"remote.origin.url", "ssh://git@github.com/o/r.git", "", false},
		{"url.git@github.com:.insteadof", "https://github.com/", "", false},
		{"credential.helper", "cache --timeout=3600", "", false},
		{"credential.https://example.com.username", "dev", "", false},
		{"core.editor", "vim", "", false},
	} {
		what, inName, ok := secretOf(gitConfigKey{name: tc.key, val: tc.val})
		assert.Equal(t, tc.what != "", ok, "%s = %q", tc.key, tc.val)
		assert.Equal(t, tc.what, what, "%s = %q", tc.key, tc.val)
		assert.Equal(t, tc.inName, inName, "%s = %q", tc.key, tc.val)
	}
}

// The repository's own config is printed by git config too: a remote
// whose URL holds a token makes the forms that print it ask, and the
// user's config read once is read again when it changes.
func TestGitConfigSecretsOfTheRepositoryAndChanges(t *testing.T) {
	dir, paths := specRepo(t)
	gitIn(t, dir, "config", "remote.origin.url", "https://dev:tok@example.com/o/r.git")
	pol := DefaultPolicy()
	pol.Home = t.TempDir()
	g := New(pol)
	judge := func(script string) Verdict { return g.Judge(context.Background(), dir, paths, script) }
	for _, tc := range []struct{ script, want, reason string }{
		{"git config --get remote.origin.url", "ask", "git: git config prints remote.origin.url from the repository's config, which holds a URL with a password"},
		{"git config --local -l", "ask", "remote.origin.url from the repository's config"},
		{"git config -l --name-only", "allow", "every command is read-only"},
		{"git config --global -l", "allow", "every command is read-only"},
		{"git config --get core.bare", "allow", "every command is read-only"},
		// git remote prints the remotes' URLs with -v, through get-url
		// and show, whatever the remote's name (git remote -v show); the
		// names alone otherwise.
		{"git remote -v", "ask", "git: git remote prints remote.origin.url from the repository's config, which holds a URL with a password"},
		{"git remote --verbose", "ask", "git: git remote prints remote.origin.url from the repository's config"},
		{"git remote get-url origin", "ask", "git: git remote get-url prints remote.origin.url from the repository's config"},
		{"git remote get-url --push upstream", "ask", "git: git remote get-url prints remote.origin.url from the repository's config"},
		{"git remote show -n origin", "ask", "git: git remote show prints remote.origin.url from the repository's config"},
		{"git remote -v show", "ask", "git: git remote show prints remote.origin.url from the repository's config"},
		{"git remote", "allow", "every command is read-only"},
	} {
		v := judge(tc.script)
		assert.Equal(t, tc.want, v.Decision.String(), "%q (%s)", tc.script, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, tc.script)
		if tc.want == "ask" {
			assert.Equal(t, RulePathSecret, v.Rule, tc.script)
		}
	}

	v := judge("git config --global --list")
	require.Equal(t, permission.Allow, v.Decision, v.Reason)
	require.NoError(t, os.WriteFile(filepath.Join(pol.Home, ".gitconfig"), []byte("[github]\n\ttoken = ghp_abc\n"), 0o644))
	v = judge("git config --global --list")
	assert.Equal(t, permission.Ask, v.Decision, "the user's config changed after it was read: %s", v.Reason)
	assert.Contains(t, v.Reason, "git config prints github.token from ~/.gitconfig, which holds a credential")
	assert.Equal(t, permission.Allow, judge("git config --get user.name").Decision, "a harmless key is printed alone")
}

// A remote's URL is printed as git rewrites it: a token in the base of
// an insteadOf of the user's config is printed by git remote -v in a
// repository whose own URLs hold none, and a repository without one
// prints nothing secret.
func TestGitRemoteURLsRewritten(t *testing.T) {
	dir, paths := specRepo(t)
	gitIn(t, dir, "config", "remote.origin.url", "https://github.com/o/r.git")
	pol := DefaultPolicy()
	pol.Home = t.TempDir()
	g := New(pol)
	judge := func(script string) Verdict { return g.Judge(context.Background(), dir, paths, script) }
	for _, script := range []string{"git remote -v", "git remote get-url origin", "git remote show -n origin"} {
		v := judge(script)
		assert.Equal(t, permission.Allow, v.Decision, "%q: no URL holds a credential (%s)", script, v.Reason)
		assert.Contains(t, v.Reason, "every command is read-only", script)
	}
	cfg := "[url \"https://x-access-token:ghp_abc@github.com/\"]\n\tinsteadOf = https://github.com/\n"
	require.NoError(t, os.WriteFile(filepath.Join(pol.Home, ".gitconfig"), []byte(cfg), 0o644))
	for _, script := range []string{"git remote -v", "git remote get-url origin", "git remote show -n origin"} {
		v := judge(script)
		assert.Equal(t, permission.Ask, v.Decision, "%q: the user's insteadOf puts a token in the URL (%s)", script, v.Reason)
		assert.Contains(t, v.Reason, "prints url.https://x-access-token:ghp_abc@github.com/.insteadof from ~/.gitconfig, which holds a URL with a password", script)
		assert.Equal(t, RulePathSecret, v.Rule, script)
	}
	v := judge("git remote")
	assert.Equal(t, permission.Allow, v.Decision, "the remotes' names alone: %s", v.Reason)
}

// Each row of the printed keys' tables picks the keys it says, by the
// option or the first operand that chooses it: the first row the line
// meets decides, a first operand only known at run time ("$X") picks
// every key, and a line that meets no row, or lacks the operand its row
// reads, prints no value.
func TestKeysPrintedRows(t *testing.T) {
	keys := []string{"user.name", "github.token", "remote.origin.url", "http.https://example.com.extraheader"}
	for _, tc := range []struct {
		line string
		want string // the keys picked, joined by spaces; "-" for a line that prints no value
	}{
		{"git config -l", "user.name github.token remote.origin.url http.https://example.com.extraheader"},
		{"git config --list --get-regexp ^user", "user.name github.token remote.origin.url http.https://example.com.extraheader"},
		{"git config list", "user.name github.token remote.origin.url http.https://example.com.extraheader"},
		{"git config --get-regexp ^user", "user.name"},
		{"git config --get-regexp list", "user.name github.token remote.origin.url http.https://example.com.extraheader"},
		{"git config --get-regexp x{2}", "user.name github.token remote.origin.url http.https://example.com.extraheader"},
		{"git config --get-regexp", "-"},
		{"git config --get-urlmatch http https://example.com", "http.https://example.com.extraheader"},
		{"git config --get-urlmatch $X https://example.com", "user.name github.token remote.origin.url http.https://example.com.extraheader"},
		{"git config --get-urlmatch", "-"},
		{"git config GitHub.Token", "github.token"},
		{"git config --get user.name", "user.name"},
		{"git config $X", "user.name github.token remote.origin.url http.https://example.com.extraheader"},
		{"git config", "-"},
		{"git var -l", "user.name github.token remote.origin.url http.https://example.com.extraheader"},
		{"git var GIT_EDITOR", "-"},
	} {
		words := strings.Fields(tc.line)
		s := gitSpec().subs[words[1]]
		v := argv{vals: words, flags: make([]wordFlags, len(words))}
		for i, w := range words {
			if strings.HasPrefix(w, "$") {
				v.flags[i] = wDynamic
			}
		}
		f := specFacts{dashes: -1}
		scanSpec(s, &v, 2, false, func(e *scanned) {
			switch {
			case e.opt == nil && e.problem == "":
				f.ops = append(f.ops, e.at)
			case e.opt != nil:
				f.seen = append(f.seen, *e)
			}
		})
		pick, ok := s.keys.pick(&v, &f)
		got := "-"
		if ok {
			var picked []string
			for _, k := range keys {
				if pick(k) {
					picked = append(picked, k)
				}
			}
			got = strings.Join(picked, " ")
		}
		assert.Equal(t, tc.want, got, tc.line)
	}
}

// Every option a spec's printed keys or search rows name is one of the
// spec's own, spelt as its table spells it: a row that misspells one
// would never be met.
func TestGitRowsNameTheirOptions(t *testing.T) {
	n := 0
	for _, at := range allSpecs() {
		s := at.s
		var named []string
		if p := s.keys; p != nil {
			named = append(named, p.elsewhere, p.nameOnly, p.system, p.global, p.local)
			for _, r := range p.picks {
				named = append(named, r.opts)
			}
		}
		if s.search != nil {
			named = append(named, s.search.beyond, s.search.pattern, s.search.index)
		}
		for _, opts := range named {
			for _, o := range strings.Fields(opts) {
				n++
				assert.NotNil(t, s.optionNamed(o), "%s: its rows name %s, which it has no row for", s.name, o)
			}
		}
	}
	assert.Greater(t, n, 15, "options the rows name")
}

// The keys a remote's URL is made from are its url and pushurl, and the
// bases of url.*.insteadOf and pushInsteadOf, in git's spelling of a key
// (the section and the key in any case, the subsection as written).
func TestRemoteURLKey(t *testing.T) {
	for key, want := range map[string]bool{
		"remote.origin.url": true, "Remote.Origin.PushURL": true, "remote.a.b.url": true,
		"url.https://t@github.com/.insteadOf": true, "URL.x.pushInsteadOf": true,
		"remote.origin.fetch": false, "remote.origin.proxy": false, "url.x.other": false,
		"http.https://example.com.extraheader": false, "user.name": false, "url": false,
	} {
		assert.Equal(t, want, remoteURLKey(key), key)
	}
}
