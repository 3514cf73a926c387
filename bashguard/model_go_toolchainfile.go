package bashguard

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Some toolchain commands are launchers that read the project they are
// started in before they print anything: rustup's proxies (cargo, rustc,
// rustup, rustdoc) run the toolchain a rust-toolchain.toml names, which
// may be a path inside the repository ("[toolchain] path = ..."); mvn
// passes .mvn/jvm.config to the JVM (-javaagent: runs code) and loads
// .mvn/extensions.xml; yarn runs the script .yarnrc's yarn-path or
// .yarnrc.yml's yarnPath names; dotnet looks for its SDK where
// global.json's sdk.paths says. Their version queries are allowed only when no such
// file, found as the launcher looks for it (the working directory and its
// parents), can choose the code that runs.

// maxToolchainUp bounds the directories looked at.
const maxToolchainUp = 64

// launcherGuard asks for a launcher whose project files can choose the code
// it runs; the line is judged as well (dispatch). A rust-toolchain file is read (a
// regular file of at most 64 KiB) for its "path" key; the others ask by
// being there.
func (m *cmdCall) launcherGuard(c *verdictAcc, name string) {
	files := launcherFiles()[name]
	if files == nil || m.dir == "" || !filepath.IsAbs(m.dir) {
		return
	}
	d := filepath.Clean(m.dir)
	for range maxToolchainUp {
		for _, f := range files {
			p := filepath.Join(d, f[0])
			fi, err := os.Stat(p)
			if err != nil {
				continue
			}
			if f[1] != "" && fi.Mode().IsRegular() {
				// A file that cannot be read, or is too large, is asked.
				text, err := readSmall(p, 64<<10)
				if err == nil && !strings.Contains(text, f[1]) {
					continue
				}
			}
			c.add(permission.Ask, RuleUnlisted, name+" reads "+p+", which can choose the program it runs", true)
			return
		}
		up := filepath.Dir(d)
		if up == d {
			break
		}
		d = up
	}
}
