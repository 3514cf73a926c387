package bashguard

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitRemotes holds the remotes read from a repository's config to
// git's reading of it, through the one config parser (model_git_config.go):
// quoted and continued values, subsections with dots, the defaults, and
// the keys that make the answer unknown.
func TestGitRemotes(t *testing.T) {
	cases := []struct {
		config   string
		urls     map[string][]string
		defaults []string
		why      string
	}{
		{config: "[remote \"origin\"]\n\turl = https://github.com/o/r.git\n\tpushurl = git@evil.example:o/r\n[branch \"main\"]\n\tremote = origin\n",
			urls: map[string][]string{"origin": {"https://github.com/o/r.git", "git@evil.example:o/r"}}, defaults: []string{"origin"}},
		{config: "[remote \"a.b\"]\n\tURL = \"https://evil.example/x\" ; comment\n",
			urls: map[string][]string{"a.b": {"https://evil.example/x"}}},
		{config: "[remote.Origin]\n\turl = https://evil.\\\nexample/x\n[remote]\n\tpushDefault = up\n",
			urls: map[string][]string{"origin": {"https://evil.example/x"}}, defaults: []string{"up"}},
		{config: "[url \"https://evil.example/\"]\n\tinsteadOf = https://github.com/\n",
			why: "may be rewritten by its config (url.https://evil.example/.insteadof), which is not read here"},
		{config: "[include]\n\tpath = other\n", why: "may be rewritten by its config (include.path), which is not read here"},
		{config: "[remote \"x\"\n\turl = a\n", why: "holds a section header that is not read here"},
	}
	for _, c := range cases {
		keys, why := parseGitConfigKeys(c.config)
		var cfg *gitRemoteConfig
		if why == "" {
			cfg, why = gitRemotes(keys)
		}
		assert.Equal(t, c.why, why, "%q", c.config)
		if c.why != "" {
			continue
		}
		require.NotNil(t, cfg)
		assert.Equal(t, c.urls, cfg.urls, "%q", c.config)
		assert.Equal(t, c.defaults, cfg.defaults, "%q", c.config)
	}
}
