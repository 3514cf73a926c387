package bashguard

import (
	"os"

	"github.com/toolgate/toolgate/internal/gitfiles"
)

// A repository's config file is inside the roots, and its keys can hold
// credentials: a remote's URL with a token, an authorization header that
// a CI checkout persists (http.https://github.com/.extraheader). git
// config --list asks for such a key (gitPrintsKeys); a tool that reads
// the file itself prints the same value, so the path judge asks
// Guard.ConfigCredential about every path it lets a tool read.

// gitConfigFile reports whether the path p names a config file of a git
// repository (gitfiles.IsConfig).
func gitConfigFile(p string) bool { return gitfiles.IsConfig(p) }

// configFileCredential reads the config file p and says which of its keys
// holds a credential, or why it cannot be read here, or "" for none.
func configFileCredential(r *stampRec, p string) string {
	text, err := r.readSmall(p, maxGitConfig)
	if os.IsNotExist(err) {
		return ""
	}
	if err != nil {
		return "a git config file that cannot be read here (" + err.Error() + ")"
	}
	keys, why := parseGitConfigKeys(text)
	if why != "" {
		return "a git config file that " + why
	}
	for _, k := range keys {
		if what, _, ok := secretOf(k); ok {
			return "a git config file whose key " + k.name + " holds " + what
		}
	}
	return ""
}
