package sandbox

// Config describes a sandbox. The zero value is valid and fails closed: with
// no roots every path is outside, and with no working directory every
// relative path is invalid.
type Config struct {
	// Roots are the directories inside which paths are allowed (for an
	// agent: its working directory, library and skills directories, and any
	// additional directories from the settings). Each must exist and be a
	// directory; [New] resolves each one, symbolic links included, once.
	// A relative root is taken against WorkDir.
	Roots []string

	// WorkDir is the directory relative paths resolve against; the
	// process's own working directory is never used. It must be absolute
	// and exist. It is not a root by itself: list it in Roots as well to
	// allow paths beneath it. Empty means relative paths are invalid.
	WorkDir string

	// Protected lists the patterns of paths inside the roots that a write
	// never auto-allows (see [Pattern syntax] in the package
	// documentation). Nil means [DefaultProtected]; an empty, non-nil slice
	// protects nothing.
	Protected []string

	// Secret lists the patterns of paths inside the roots that a read does
	// not auto-allow. Nil means [DefaultSecret]; an empty, non-nil slice
	// marks nothing secret.
	Secret []string
}

// DefaultProtected returns the default protected patterns: version-control
// internals (hooks and config above all), the agent's own policy and
// settings files, shell start-up files and package-manager credentials
// files. Each call returns a new slice, which the caller may extend.
func DefaultProtected() []string {
	return []string{
		".git/",
		".claude/",
		".toolgate/",
		"toolgate.json",
		"toolgate.local.json",
		".bashrc",
		".bash_profile",
		".bash_login",
		".bash_logout",
		".profile",
		".zshrc",
		".zshenv",
		".zprofile",
		".zlogin",
		".zlogout",
		".kshrc",
		".cshrc",
		".tcshrc",
		".config/fish/config.fish",
		".inputrc",
		".npmrc",
		".yarnrc",
		".yarnrc.yml",
		".pypirc",
		".pip/pip.conf",
		".config/pip/pip.conf",
		".gitconfig",
		".ssh/",
	}
}

// DefaultSecret returns the default secret patterns: environment files,
// private keys, SSH material and credential stores. Each call returns a new
// slice, which the caller may extend.
func DefaultSecret() []string {
	return []string{
		".env",
		".env.*",
		"*.pem",
		"*.key",
		"id_rsa*",
		"id_dsa*",
		"id_ecdsa*",
		"id_ed25519*",
		".ssh/",
		".aws/credentials",
		".netrc",
		".git-credentials",
		".npmrc",
		".pypirc",
	}
}
