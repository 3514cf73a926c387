package bashguard

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// TestLauncherFiles judges version queries of rustup's proxies and mvn in
// projects whose files can choose the program they run, found in the
// working directory or a parent, and in projects whose files cannot.
func TestLauncherFiles(t *testing.T) {
	for _, tc := range []struct {
		file, body, script string
		want               permission.Decision
		reason             string
	}{
		{"", "", "cargo --version", permission.Allow, "read-only"},
		{"rust-toolchain.toml", "[toolchain]\nchannel = \"1.80\"\n", "cargo --version", permission.Allow, "read-only"},
		{"rust-toolchain.toml", "[toolchain]\npath = \"./tc\"\n", "cargo --version", permission.Ask, "rust-toolchain.toml, which can choose the program it runs"},
		{"rust-toolchain.toml", "[toolchain]\npath = \"./tc\"\n", "rustc --print cfg", permission.Ask, "which can choose the program it runs"},
		{"rust-toolchain.toml", "[toolchain]\npath = \"./tc\"\n", "rustup toolchain list", permission.Ask, "which can choose the program it runs"},
		{"../rust-toolchain.toml", "[toolchain]\npath = \"/x\"\n", "rustc --version", permission.Ask, "which can choose the program it runs"},
		{"rust-toolchain", "path = \"./tc\"\n", "cargo -V", permission.Ask, "which can choose the program it runs"},
		{"", "", "mvn -v", permission.Allow, "read-only"},
		{".mvn/jvm.config", "-javaagent:x.jar\n", "mvn -v", permission.Ask, "jvm.config, which can choose the program it runs"},
		{".mvn/extensions.xml", "<extensions/>\n", "mvn --version", permission.Ask, "extensions.xml, which can choose the program it runs"},
		{"../.mvn/maven.config", "-X\n", "mvn --version", permission.Ask, "maven.config, which can choose the program it runs"},
		{"", "", "yarn --version", permission.Allow, "read-only"},
		{".yarnrc", "registry \"https://registry.npmjs.org\"\n", "yarn --version", permission.Allow, "read-only"},
		{".yarnrc", "yarn-path \"./evil.js\"\n", "yarn --version", permission.Ask, ".yarnrc, which can choose the program it runs"},
		{"../.yarnrc.yml", "yarnPath: ./evil.cjs\n", "yarn --version", permission.Ask, ".yarnrc.yml, which can choose the program it runs"},
		{"bunfig.toml", "[install]\nregistry = \"https://registry.npmjs.org\"\n", "bun --version", permission.Allow, "read-only"},
		{"../bunfig.toml", "preload = [\"./evil.ts\"]\n", "bun --version", permission.Ask, "bunfig.toml, which can choose the program it runs"},
		{"global.json", "{\"sdk\": {\"version\": \"10.0.100\"}}\n", "dotnet --version", permission.Allow, "read-only"},
		{"../global.json", "{\"sdk\": {\"paths\": [\".dotnet\", \"$host$\"]}}\n", "dotnet --version", permission.Ask, "global.json, which can choose the program it runs"},
	} {
		top := t.TempDir()
		dir := filepath.Join(top, "p")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		if tc.file != "" {
			p := filepath.Join(dir, tc.file)
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			require.NoError(t, os.WriteFile(p, []byte(tc.body), 0o644))
		}
		pol := DefaultPolicy()
		pol.Home = t.TempDir()
		v := New(pol).Judge(context.Background(), dir, CheckerJudge(rootChecker{dir: dir, roots: []string{dir}}), tc.script)
		assert.Equal(t, tc.want, v.Decision, "%s with %s: %s", tc.script, tc.file, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%s with %s", tc.script, tc.file)
	}
}

// TestLauncherFileKeepsTheLinesFindings judges lines of a launcher whose
// project has a launcher file: the file's Ask, which an allow rule for the
// command lifts, does not stand in for what the line's options do, which
// no such rule lifts (cargo build --config in a project whose
// rust-toolchain.toml names a path).
func TestLauncherFileKeepsTheLinesFindings(t *testing.T) {
	for _, tc := range []struct {
		file, body, script string
		lifts              bool
		reason             string
		deny               bool // Deny, not Ask
	}{
		{"rust-toolchain.toml", "[toolchain]\npath = \"./tc\"\n", "cargo build", true, "which can choose the program it runs", false},
		{"rust-toolchain.toml", "[toolchain]\npath = \"./tc\"\n", "cargo build --config x=1", false, "uses the cargo build option --config", false},
		{".yarnrc", "yarn-path \"./evil.js\"\n", "yarn run --use-yarnrc=/tmp/y build", false, "uses the yarn run option --use-yarnrc", false},
		{".yarnrc", "yarn-path \"./evil.js\"\n", "yarn exec eslint -c /tmp/x.js .", false, "outside", false},
		{".yarnrc", "yarn-path \"./evil.js\"\n", "yarn run build", true, "which can choose the program it runs", false},
		{"../.yarnrc.yml", "yarnPath: /tmp/evil.cjs\n", "yarn exec -- eslint -c /tmp/x.js .", false, "outside", false},
		{"../rust-toolchain.toml", "[toolchain]\npath = \"/tmp/tc\"\n", "cargo test -- --logfile /tmp/l", false, "writes /tmp/l outside", true},
	} {
		dir := filepath.Join(t.TempDir(), "p")
		require.NoError(t, os.MkdirAll(dir, 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, tc.file), []byte(tc.body), 0o644))
		pol := DefaultPolicy()
		pol.Home = t.TempDir()
		v := New(pol).Judge(context.Background(), dir, CheckerJudge(rootChecker{dir: dir, roots: []string{dir}}), tc.script)
		want := permission.Ask
		if tc.deny {
			want = permission.Deny
		}
		assert.Equal(t, want, v.Decision, "%s with %s: %s", tc.script, tc.file, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%s with %s", tc.script, tc.file)
		if assert.NotEmpty(t, v.Commands, tc.script) {
			assert.Equal(t, tc.lifts, v.Commands[0].Overridable && len(v.Commands[0].LiftedBy) == 0,
				"%s with %s: an allow rule for the command lifts it (%s)", tc.script, tc.file, v.Reason)
		}
	}
}
