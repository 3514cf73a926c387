package sandbox

// The default lists. Where each entry comes from is in SECURITY.md
// ("Protected and secret paths"); an entry is on a list because writing
// the file runs code or widens the agent's rights the next time something
// starts (protected), or because reading it discloses a credential
// (secret). Files that are ordinary source — Makefile, package.json,
// pyproject.toml, go.mod, Dockerfile — run code too when built, but
// editing them is what an agent is for: they are not protected, and a
// person reviews them as source.

// DefaultProtected returns the default protected patterns: version-control
// internals and hooks, the agent's own settings, editor, CI and
// environment files that run code when a folder is opened or a command
// starts, shell and tool start-up files, user services and autostart
// entries, Python start-up hooks, the directories on a user's PATH, and
// the credential stores (whose rewrite would redirect a login). Each call
// returns a new slice, which the caller may extend.
func DefaultProtected() []string {
	return []string{
		// Version control: hooks, config (core.fsmonitor, core.hooksPath,
		// aliases run code), and the repositories' own state.
		".git/",
		"*.git/config",
		"*.git/hooks/",
		".husky/",
		".githooks/",
		".hg/",
		".svn/",
		".gitmodules",
		".pre-commit-config.yaml",
		"lefthook.yml",
		".lefthook.yml",
		"lefthook.yaml",
		".lefthook.yaml",
		"lefthook-local.yml",
		".lefthook-local.yml",
		".overcommit.yml",
		".simple-git-hooks.json",
		".simple-git-hooks.cjs",
		".simple-git-hooks.js",
		".jj/",
		// The agent's own settings and policy. Claude Code's own
		// protection of .claude/ leaves out its worktrees (each a checkout
		// of the repository, with its own protected names, which stay
		// protected) and AGENTS.md; so do the lifts.
		".claude/",
		".claude/!worktrees/*/",
		".claude/!AGENTS.md",
		".claude.json",
		".mcp.json",
		".toolgate/",
		"toolgate.json",
		"toolgate.local.json",
		".cursor/mcp.json",
		".vscode/mcp.json",
		".gemini/settings.json",
		// Editors that run tasks or settings when a folder is opened.
		".vscode/",
		"*.code-workspace",
		".idea/",
		".zed/tasks.json",
		".zed/settings.json",
		// Editors and debuggers that read a file of the folder they start
		// in (Vim's and Neovim's exrc, Emacs's directory variables, gdb,
		// lldb, pdb, irb, pry, R).
		".exrc",
		".nvimrc",
		".nvim.lua",
		".lvimrc",
		".dir-locals.el",
		".dir-locals-2.el",
		".gdbinit",
		".lldbinit",
		".pdbrc",
		".pdbrc.py",
		".irbrc",
		".pryrc",
		".Rprofile",
		// Containers and CI that run with the user's or the project's
		// secrets.
		".devcontainer/",
		".devcontainer.json",
		".github/workflows/",
		".github/actions/",
		".gitlab-ci.yml",
		".circleci/",
		// Environment loaders and package-manager configuration that runs
		// code or redirects downloads.
		".envrc",
		".envrc.local",
		".autoenv.zsh",
		".autoenv_leave.zsh",
		".mise.toml",
		"mise.toml",
		".mise/",
		".rtx.toml",
		"devbox.json",
		".gitpod.yml",
		".cargo/",
		"rust-toolchain",
		"rust-toolchain.toml",
		".npmrc",
		".yarnrc",
		".yarnrc.yml",
		".yarn/",
		".pnp.cjs",
		".pnp.loader.mjs",
		".pnp.js",
		".pnp.data.json",
		".pnpmfile.cjs",
		".pnpmfile.mjs",
		"bunfig.toml",
		".bunfig.toml",
		// Build tools that read options, wrappers and toolchain pins from
		// the tree before they build: Bazel (startup options, bazelisk's
		// download URL), the Gradle and Maven wrappers (the distribution
		// they download and run), sbt's JVM options, pyright.
		".bazelrc",
		".bazelversion",
		".bazeliskrc",
		"gradle-wrapper.properties",
		"maven-wrapper.properties",
		".mvn/",
		".mavenrc",
		".sbtopts",
		".jvmopts",
		"pyrightconfig.json",
		"uv.toml",
		".condarc",
		".gemrc",
		".bundle/config",
		"nuget.config",
		".pypirc",
		".pip/pip.conf",
		".config/pip/pip.conf",
		// Python start-up hooks: .pth lines starting with "import" run at
		// every interpreter start.
		"site-packages/*.pth",
		"dist-packages/*.pth",
		"sitecustomize.py",
		"usercustomize.py",
		".ipython/",
		// Shell start-up files (bash, zsh, fish, ksh, csh) and readline.
		".bashrc",
		".bash_profile",
		".bash_login",
		".bash_logout",
		".bash_aliases",
		".bash_env",
		".bashrc.d/",
		".profile",
		".zshrc",
		".zshenv",
		".zprofile",
		".zlogin",
		".zlogout",
		".oh-my-zsh/custom/",
		".kshrc",
		".cshrc",
		".tcshrc",
		".config/fish/",
		"~/.config/zsh/",
		".inputrc",
		".xprofile",
		".xinitrc",
		".xsession",
		".xsessionrc",
		".pam_environment",
		// Tools that run code from their configuration.
		".gitconfig",
		".config/git/",
		".vimrc",
		".vim/",
		".config/nvim/",
		".emacs",
		".emacs.d/",
		".tmux.conf",
		".ripgreprc",
		"~/.curlrc",
		"~/.wgetrc",
		"~/.psqlrc",
		"~/.sqliterc",
		"~/.gradle/init.d/",
		"~/.gradle/init.gradle",
		"~/.config/uv/",
		"~/.config/mise/",
		".config/gh/",
		".ssh/",
		".gnupg/",
		".aws/",
		".kube/",
		".docker/",
		".netrc",
		".git-credentials",
		// User services and autostart entries.
		".config/autostart/",
		"systemd/user/",
		"~/.config/systemd/user/",
		".config/environment.d/",
		// The user's configuration of tools that run code from it
		// (direnv's direnvrc, containers.conf's hooks_dir, the editors'
		// user settings and tasks).
		"~/.config/direnv/",
		"~/.config/containers/",
		"~/.config/Code/User/",
		"~/.config/Code - Insiders/User/",
		"~/.config/VSCodium/User/",
		"~/.config/Cursor/User/",
		"~/.config/zed/",
		// Directories on a user's PATH.
		"~/bin/",
		"~/.local/bin/",
		"~/.cargo/bin/",
		"~/go/bin/",
	}
}

// DefaultSecret returns the default secret patterns: environment files
// (but not their templates), private keys and keystores, cloud and
// registry credentials, tokens of command-line tools, shell histories and
// infrastructure state. Each call returns a new slice, which the caller
// may extend.
//
// Templates are told apart by name: a ".env." file whose last part is
// example, sample, template, dist, defaults, schema or tpl ships with a
// project to show which variables exist, not their values. A template
// that is a link, a second name or a hard link of a real environment file
// is still judged as that file.
func DefaultSecret() []string {
	return []string{
		// Environment files.
		".env",
		".env.*",
		"*.env",
		".envrc",
		".dev.vars",
		".dev.vars.*",
		"!.env.example",
		"!.env.*.example",
		"!.env.sample",
		"!.env.*.sample",
		"!.env.template",
		"!.env.*.template",
		"!.env.dist",
		"!.env.*.dist",
		"!.env.defaults",
		"!.env.schema",
		"!.env.tpl",
		// Private keys and keystores. A *.pem or *.key file whose first
		// bytes show only certificates or public keys is not secret (see
		// SECURITY.md); other names are judged by their content.
		"*.pem",
		"*.key",
		"*.p12",
		"*.pfx",
		"*.pkcs12",
		"*.p8",
		"*.ppk",
		"*.jks",
		"*.keystore",
		"*.kdbx",
		"id_rsa*",
		"id_dsa*",
		"id_ecdsa*",
		"id_ed25519*",
		"id_xmss*",
		"*.keytab",
		"*.ovpn",
		"*.kubeconfig",
		"kubeconfig",
		"secring.*",
		".ssh/",
		".gnupg/",
		".password-store/",
		// Secret stores by their usual names. (Names that a search
		// filter for a whole kind of source file selects, like
		// credentials.json for "*.json", are left to the judgement by
		// content: a service-account key is found by its shape.)
		".secrets",
		"*.secret",
		// Cloud SDKs and infrastructure.
		".aws/credentials",
		".aws/sso/cache/",
		".aws/cli/cache/",
		".config/gcloud/",
		".azure/",
		".oci/",
		".kube/",
		".docker/config.json",
		".dockercfg",
		"*.tfstate",
		"*.tfstate.*",
		".terraformrc",
		"terraform.rc",
		".terraform.d/credentials.tfrc.json",
		".vault-token",
		".databrickscfg",
		".pulumi/credentials.json",
		".config/doctl/",
		".s3cfg",
		".boto",
		".config/rclone/rclone.conf",
		".cloudflared/",
		".config/ngrok/",
		".ngrok2/",
		".config/op/",
		".config/glab-cli/",
		".config/configstore/",
		".sentryclirc",
		".config/pypoetry/auth.toml",
		".config/git/credentials",
		".bundle/config",
		"~/.claude.json",
		".mylogin.cnf",
		// Browsers' and mail clients' profiles: cookies, saved logins.
		"~/.mozilla/",
		"~/.thunderbird/",
		"~/.config/google-chrome/",
		"~/.config/chromium/",
		"~/.config/BraveSoftware/",
		// Command-line tools' tokens, registries and databases.
		".config/gh/hosts.yml",
		".config/hub",
		".claude/.credentials.json",
		".netrc",
		"_netrc",
		".git-credentials",
		".npmrc",
		".pypirc",
		".cargo/credentials",
		".cargo/credentials.toml",
		".gem/credentials",
		".m2/settings.xml",
		".m2/settings-security.xml",
		".gradle/gradle.properties",
		".composer/auth.json",
		".config/composer/auth.json",
		".pgpass",
		".my.cnf",
		".htpasswd",
		".local/share/keyrings/",
		// Shell and interpreter histories.
		".*_history",
		".history",
		".zhistory",
		"fish_history",
		".lesshst",
	}
}
