package bashguard

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toolgate/toolgate/internal/gitfiles"
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
	return c.get(factKey{kind: "usersecrets", a: home}, func(r *stampRec) any {
		u := &gitUserSecrets{}
		files := append([]string{gitSystemConfig}, gitfiles.UserConfigs(home)...)
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

// keysPrinted says which keys of git's configs a command line prints
// (git config's reading forms, git var -l), read by gitPrintsKeys: the
// first of its picks the line meets decides, and a line that meets
// none prints no value.
type keysPrinted struct {
	picks []keyPick
	// elsewhere are the options that make the line print the keys of
	// another file than the configs (git config -f, --blob): that file
	// is the path judge's.
	elsewhere string
	// nameOnly are the options that print the keys' names without
	// their values.
	nameOnly string
	// system, global and local are the options that choose the
	// system's config, the user's and the repository's; with none of
	// them given, every one is read.
	system, global, local string
}

// keyPick is a row of keysPrinted: the options (or the first operand)
// that choose it, and which keys it prints. A row that names neither is
// chosen by any first operand.
type keyPick struct {
	opts   string // the options that choose the row, by spelling
	op     string // the first operand that chooses the row ("git config list")
	always bool   // the row is chosen by every line, with operands or without
	keys   keysBy
}

// keysBy is which keys of the configs a keyPick prints, read from the
// line's first operand. The zero keysBy prints every key: a row that
// forgets it fails closed, as does a first operand only known at run
// time.
type keysBy uint8

const (
	keysAll        keysBy = iota // every key
	keysMatching                 // the keys the first operand matches as a POSIX extended regular expression
	keysOfSection                // the keys of the section the first operand begins with, whichever URL matches (--get-urlmatch)
	keysNamed                    // the key the first operand names
	keysRemoteURLs               // the keys a remote's URL is made from, whatever the operands (git remote -v, get-url)
)

// gitPrintsKeys asks for a command line of s that prints a key of the
// configs that holds a credential (see above), by the spec's keys rows.
// It leaves a line that sets a key to the spec, and one that names the
// file it reads (elsewhere) to the path judge.
func (m *cmdCall) gitPrintsKeys(c *verdictAcc, s *spec, v *argv, f *specFacts) {
	p := s.keys
	if f.sets(s) || f.hasSpell(p.elsewhere) {
		return
	}
	pick, ok := p.pick(v, f)
	if !ok {
		return
	}
	found, why := m.gitScopeSecrets(p, f)
	if why != "" {
		c.add(permission.Ask, RulePathSecret, s.name+" prints the user's config, "+why, false)
		return
	}
	nameOnly := f.hasSpell(p.nameOnly)
	for _, sec := range found {
		if (sec.inName || !nameOnly) && pick(sec.name) {
			c.addf(permission.Ask, RulePathSecret, s.name+" prints "+sec.name+" from "+homeShort(m.pol.Home, sec.file), ", which holds "+sec.what, "", false)
			return
		}
	}
}

// gitScopeSecrets returns the credentials of the configs the options f
// found choose by the rows p (all of them without one), or why the
// user's cannot be read.
func (m *cmdCall) gitScopeSecrets(p *keysPrinted, f *specFacts) ([]gitSecret, string) {
	system, global, local := f.hasSpell(p.system), f.hasSpell(p.global), f.hasSpell(p.local)
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

// pick returns which keys the line v prints by the rows p, by their
// names as gitConfigKeys gives them; ok false for a line that prints no
// value (it meets no row, or its row needs an operand it lacks).
func (p *keysPrinted) pick(v *argv, f *specFacts) (pick func(name string) bool, ok bool) {
	every := func(string) bool { return true }
	has := len(f.ops) > 0
	first, lit := "", false
	if has {
		first, lit = v.vals[f.ops[0]], v.literal(f.ops[0])
	}
	for _, r := range p.picks {
		switch {
		case r.opts != "" && !f.hasSpell(r.opts), r.op != "" && (!lit || first != r.op), r.opts == "" && r.op == "" && !has && !r.always:
			continue
		case r.keys == keysAll:
			return every, true
		case r.keys == keysRemoteURLs:
			return remoteURLKey, true
		case !has:
			return nil, false
		case !lit:
			return every, true // a key only known at run time
		}
		return r.keys.match(first), true
	}
	return nil, false
}

// match returns which keys by chooses, by the literal first operand
// first.
func (by keysBy) match(first string) func(name string) bool {
	switch by {
	case keysMatching:
		re, err := regexp.Compile(first)
		if first == "" || err != nil || !sameInERE(first) {
			// A pattern POSIX and Go may read differently: every key.
			return func(string) bool { return true }
		}
		return func(name string) bool { return re.MatchString(gitCanonKey(name)) }
	case keysOfSection:
		sec, _, _ := strings.Cut(strings.ToLower(first), ".")
		return func(name string) bool { return strings.HasPrefix(name, sec+".") }
	case keysNamed:
		want := gitCanonKey(first)
		return func(name string) bool { return gitCanonKey(name) == want }
	}
	return func(string) bool { return true }
}

// remoteURLKey reports a key a remote's URL, as git remote prints it,
// is made from: remote.NAME.url and pushurl, and url.BASE.insteadOf and
// pushInsteadOf, whose BASE replaces the start of the URL. A command that
// names one remote is judged on every remote's keys: the remote a name
// picks, an insteadOf of another's URL may still rewrite.
func remoteURLKey(name string) bool {
	k := gitCanonKey(name)
	sec, _, _ := strings.Cut(k, ".")
	key := k[strings.LastIndexByte(k, '.')+1:]
	switch sec {
	case "remote":
		return key == "url" || key == "pushurl"
	case "url":
		return key == "insteadof" || key == "pushinsteadof"
	}
	return false
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
