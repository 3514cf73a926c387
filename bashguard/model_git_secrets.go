package bashguard

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// git config's reading forms print the values of the configs git reads:
// the system's (/etc/gitconfig), the user's (~/.gitconfig and
// ~/.config/git/config) with the files they include, and the
// repository's. The user's config is outside the roots, and cat of it is
// asked; git config -l would print the same values. So a reading form is
// judged on what it would print: it asks (RulePathSecret) when a key it
// prints looks like a credential by gitSecretKeys or gitSecretShapes, and
// names the key and the file. git config --get user.name prints one key,
// and is allowed whatever the other keys hold. The files are read once
// per Guard and read again when one changes (wscache.go); the
// repository's own config is the one gitConfigKeys reads.
//
// What is not read here: GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM and an
// XDG_CONFIG_HOME other than ~/.config, which the guard is not given.

// gitSecretKeys are the keys whose value is a credential, as
// configKeyMatch reads a pattern, and "*.key" for the key in any section
// and subsection.
var gitSecretKeys = []string{
	"*.token", "*.oauthtoken", "*.accesstoken", "*.apitoken", "*.apikey", "*.password", "*.secret",
	"sendemail.smtppass", "sendemail.*.smtppass", "imap.pass",
	"http.extraheader", "http.*.extraheader",
}

// gitSecretShape is a shape of a value (or of a key's subsection) that
// holds a credential: what says it in the text, lower-cased, and what it
// is called in a reason.
type gitSecretShape struct {
	match func(lower string) bool
	what  string
}

// gitSecretShapes are the shapes of a credential written in a key's
// subsection or value: a URL with a password or a token in it
// (url."https://u:tok@host/".insteadOf, remote.origin.url), a credential
// helper that echoes one, an authorization header.
var gitSecretShapes = []gitSecretShape{
	{urlWithPassword, "a URL with a password"},
	{urlWithToken, "a URL with a token"},
	{func(s string) bool {
		return strings.Contains(s, "password=") || strings.Contains(s, "token=") || strings.Contains(s, "secret=")
	}, "an inline password"},
	{func(s string) bool { return strings.Contains(s, "authorization:") || strings.Contains(s, "bearer ") },
		"an authorization header"},
}

// gitTokenPrefixes are how the tokens of code hosts begin, as a URL's
// user name.
var gitTokenPrefixes = []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-", "x-access-token", "x-token-auth", "oauth2"}

// urlUserinfo returns the user information of each URL in s (what lies
// between "://" and "@" before the host's first "/").
func urlUserinfo(s string, f func(info string) bool) bool {
	for {
		i := strings.Index(s, "://")
		if i < 0 {
			return false
		}
		s = s[i+3:]
		end := strings.IndexAny(s, "/ \t\"'")
		if end < 0 {
			end = len(s)
		}
		if at := strings.LastIndexByte(s[:end], '@'); at > 0 && f(s[:at]) {
			return true
		}
	}
}

func urlWithPassword(s string) bool {
	return urlUserinfo(s, func(info string) bool {
		_, pass, ok := strings.Cut(info, ":")
		return ok && pass != ""
	})
}

func urlWithToken(s string) bool {
	return urlUserinfo(s, func(info string) bool {
		for _, p := range gitTokenPrefixes {
			if strings.HasPrefix(info, p) {
				return true
			}
		}
		return false
	})
}

// gitSecret is a key of a config that holds a credential.
type gitSecret struct {
	name   string // the key, as gitConfigKeys names it
	file   string // the file that sets it
	what   string // what it holds, for the reason
	inName bool   // the credential is in the key's name (its subsection): --name-only prints it too
}

// secretOf says whether the key k holds a credential, and where.
func secretOf(k gitConfigKey) (what string, inName, ok bool) {
	for _, pat := range gitSecretKeys {
		if secretKeyMatch(pat, k.name) && k.val != "" {
			return "a credential", false, true
		}
	}
	name, val := strings.ToLower(k.name), strings.ToLower(k.val)
	for _, sh := range gitSecretShapes {
		if i := strings.IndexByte(name, '.'); i >= 0 && strings.LastIndexByte(name, '.') > i && sh.match(name) {
			return sh.what, true, true
		}
		if sh.match(val) {
			return sh.what, false, true
		}
	}
	return "", false, false
}

// secretKeyMatch is configKeyMatch, where "*.key" also matches key in
// any section, with or without a subsection.
func secretKeyMatch(pat, name string) bool {
	if key, ok := strings.CutPrefix(pat, "*."); ok {
		return name[strings.LastIndexByte(name, '.')+1:] == key
	}
	return configKeyMatch(pat, name)
}

// gitUserSecrets are the credentials of the system's and the user's
// configs, with the files they include.
type gitUserSecrets struct {
	secrets []gitSecret
	why     string // why a config cannot be read, or ""
}

// maxGitIncludes bounds the depth of included files, as git's own limit.
const maxGitIncludes = 10

// gitSystemConfig is the system's config, where git reads it by default.
const gitSystemConfig = "/etc/gitconfig"

// userSecrets reads the credentials of the system's config and of the
// user's under home, kept on the cache.
func (c *wsCache) userSecrets(home string) *gitUserSecrets {
	return c.get("usersecrets\x00"+home, func(r *stampRec) any {
		u := &gitUserSecrets{}
		files := []string{gitSystemConfig}
		if home != "" {
			files = append(files, filepath.Join(home, ".config", "git", "config"), filepath.Join(home, ".gitconfig"))
		}
		for _, f := range files {
			u.read(r, f, home, 0)
			if u.why != "" {
				break
			}
		}
		return u
	}).(*gitUserSecrets)
}

// read adds the credentials of the config file p and of the files it
// includes (every include.path and includeIf.*.path, whatever the
// condition: a superset of what git reads).
func (u *gitUserSecrets) read(r *stampRec, p, home string, depth int) {
	if depth > maxGitIncludes {
		u.why = p + " includes files more than " + "ten deep"
		return
	}
	text, err := r.readSmall(p, maxGitConfig)
	if os.IsNotExist(err) {
		return // git ignores a missing include
	}
	if err != nil {
		u.why = p + " cannot be read: " + err.Error()
		return
	}
	keys, why := parseGitConfigKeys(text)
	if why != "" {
		u.why = p + " " + why
		return
	}
	for _, k := range keys {
		if what, inName, ok := secretOf(k); ok {
			u.secrets = append(u.secrets, gitSecret{name: k.name, file: p, what: what, inName: inName})
		}
		if k.name != "include.path" && !configKeyMatch("includeif.*.path", k.name) || k.val == "" {
			continue
		}
		inc := k.val
		switch {
		case strings.HasPrefix(inc, "~/") && home != "":
			inc = filepath.Join(home, inc[2:])
		case strings.HasPrefix(inc, "~"):
			u.why = p + " includes " + inc + ", which is not found here"
			return
		case !path.IsAbs(inc):
			inc = filepath.Join(filepath.Dir(p), inc)
		}
		u.read(r, inc, home, depth+1)
		if u.why != "" {
			return
		}
	}
}

// gitConfigSecrets asks for a reading form of git config that prints a
// key holding a credential (see above). It leaves a line that sets a key
// to the spec, and one that names the file it reads (--file, --blob) to
// the path judge.
func (m *cmdCall) gitConfigSecrets(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	if f.hasKind(kChange) || len(f.ops) > s.maxOps && !f.has(s.listing...) || f.has("-f", "--file", "--blob") {
		return
	}
	pick, ok := gitConfigPicks(v, f)
	if !ok {
		return
	}
	m.gitPrintsSecrets(c, s, f, pick, f.has("--name-only"))
}

// gitVarSecrets asks for git var -l, which prints every key of the
// configs as git config --list does.
func (m *cmdCall) gitVarSecrets(c *verdictAcc, s *spec, _ *argv, f *specFacts) {
	if f.has("-l") {
		m.gitPrintsSecrets(c, s, f, func(string) bool { return true }, false)
	}
}

// gitPrintsSecrets asks when a key pick chooses from the configs of f's
// scope holds a credential (in its name only, with nameOnly).
func (m *cmdCall) gitPrintsSecrets(c *verdictAcc, s *spec, f *specFacts, pick func(string) bool, nameOnly bool) {
	found, why := m.gitScopeSecrets(f)
	if why != "" {
		c.add(permission.Ask, RulePathSecret, s.name+" prints the user's config, "+why, false)
		return
	}
	for _, sec := range found {
		if (sec.inName || !nameOnly) && pick(sec.name) {
			c.addf(permission.Ask, RulePathSecret, s.name+" prints "+sec.name+" from "+homeShort(m.pol.Home, sec.file), ", which holds "+sec.what, "", false)
			return
		}
	}
}

// gitScopeSecrets returns the credentials of the configs the options f
// found make git config read (--system, --global, --local, --worktree;
// all of them without one), or why the user's cannot be read.
func (m *cmdCall) gitScopeSecrets(f *specFacts) ([]gitSecret, string) {
	system, global, local := f.has("--system"), f.has("--global"), f.has("--local", "--worktree")
	if !system && !global && !local {
		system, global, local = true, true, true
	}
	var found []gitSecret
	if system || global {
		if m.pol.Home == "" && global {
			return nil, "which is not found here (the home directory is not known)"
		}
		u := m.ws.userSecrets(m.pol.Home)
		if u.why != "" {
			return nil, "and " + u.why
		}
		for _, sec := range u.secrets {
			if sys := sec.file == gitSystemConfig; sys && system || !sys && global {
				found = append(found, sec)
			}
		}
	}
	if cfg := m.gitConfigKeys(); local && !cfg.none && cfg.why == "" {
		for _, k := range cfg.keys {
			if what, inName, ok := secretOf(k); ok {
				found = append(found, gitSecret{name: k.name, file: "the repository's config", what: what, inName: inName})
			}
		}
	}
	return found, ""
}

// gitConfigPicks returns which keys the reading form of v prints, by
// their names as gitConfigKeys gives them; ok false for a line that
// prints no value (no operand and no listing).
func gitConfigPicks(v *argv, f *specFacts) (pick func(name string) bool, ok bool) {
	op := func(k int) (string, bool) {
		if k < len(f.ops) && v.literal(f.ops[k]) {
			return v.vals[f.ops[k]], true
		}
		return "", k < len(f.ops)
	}
	every := func(string) bool { return true }
	first, has := op(0)
	switch {
	case f.has("-l", "--list") || has && first == "list":
		return every, true
	case f.has("--get-regexp"):
		if !has {
			return nil, false
		}
		re, err := regexp.Compile(first)
		if first == "" || err != nil || !sameInERE(first) {
			// A pattern POSIX and Go may read differently: every key.
			return every, true
		}
		return func(name string) bool { return re.MatchString(gitCanonKey(name)) }, true
	case f.has("--get-urlmatch"):
		// Every key of the section, whichever URL matches.
		sec, _, _ := strings.Cut(strings.ToLower(first), ".")
		return func(name string) bool { return strings.HasPrefix(name, sec+".") }, has
	case has:
		if first == "" && len(f.ops) > 0 && !v.literal(f.ops[0]) {
			return every, true // a key only known at run time
		}
		want := gitCanonKey(first)
		return func(name string) bool { return gitCanonKey(name) == want }, true
	}
	return nil, false
}

// gitCanonKey is a key as git compares it: the section and the key
// lower-cased, the subsection as written.
func gitCanonKey(name string) string {
	i, j := strings.IndexByte(name, '.'), strings.LastIndexByte(name, '.')
	if i < 0 {
		return strings.ToLower(name)
	}
	return strings.ToLower(name[:i]) + name[i:j] + strings.ToLower(name[j:])
}

// homeShort writes p below home as "~/...", as a person reads it.
func homeShort(home, p string) string {
	if home != "" {
		if rel, ok := strings.CutPrefix(p, strings.TrimSuffix(home, "/")+"/"); ok {
			return "~/" + rel
		}
	}
	return p
}

// sameInERE reports a regular expression that POSIX's extended syntax,
// which git config --get-regexp reads, and Go's read alike: no escape
// but of punctuation that stands for itself (GNU's \w, \<, \b are
// Go's otherwise or not at all), and no interval.
func sameInERE(re string) bool {
	for i := 0; i < len(re); i++ {
		switch re[i] {
		case '{', '}':
			return false
		case '\\':
			if i+1 == len(re) || !strings.ContainsRune(`.*+?()[]|^$\\/-`, rune(re[i+1])) {
				return false
			}
			i++
		}
	}
	return true
}
