package main

import "strings"

// The environment of a confined command, by allow-list: the variables a
// build needs, and the toolchains' own; everything else the agent's
// environment holds (DB_PWD, SSHPASS, TS_AUTHKEY, BW_SESSION, a
// connection string, KUBE_CONFIG_DATA, ...) is dropped, whatever its name
// looks like. A user adds names with "toolgate": {"passEnv": [...]} in
// user, managed or command-line settings. An allowed name whose value
// still looks secret (a URL with a password, a name with TOKEN) is
// dropped too.

// confineEnvNames are the variables passed by name.
var confineEnvNames = map[string]bool{
	// The shell and the terminal.
	"PATH": true, "HOME": true, "USER": true, "LOGNAME": true, "SHELL": true, "TERM": true, "COLORTERM": true,
	"TZ": true, "LANG": true, "LANGUAGE": true, "NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true,
	"PAGER": true, "EDITOR": true, "VISUAL": true, "COLUMNS": true, "LINES": true, "CI": true,
	"XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "XDG_STATE_HOME": true,
	// Claude Code marks its own shells.
	"CLAUDECODE": true, "CLAUDE_CODE_ENTRYPOINT": true,
	// Go.
	"GOPATH": true, "GOROOT": true, "GOFLAGS": true, "GOPROXY": true, "GONOPROXY": true, "GOPRIVATE": true,
	"GONOSUMDB": true, "GONOSUMCHECK": true, "GOSUMDB": true, "GOTOOLCHAIN": true, "GOOS": true, "GOARCH": true,
	"GOAMD64": true, "GOARM64": true, "GOEXPERIMENT": true, "GODEBUG": true, "GOMODCACHE": true, "GOWORK": true,
	"GOTELEMETRY": true, "CGO_ENABLED": true, "CGO_CFLAGS": true, "CGO_LDFLAGS": true,
	// C and C++.
	"CC": true, "CXX": true, "CFLAGS": true, "CXXFLAGS": true, "CPPFLAGS": true, "LDFLAGS": true,
	"PKG_CONFIG_PATH": true, "MAKEFLAGS": true,
	// Rust.
	"CARGO_HOME": true, "RUSTUP_HOME": true, "RUSTUP_TOOLCHAIN": true, "RUSTFLAGS": true, "CARGO_TARGET_DIR": true,
	"CARGO_BUILD_JOBS": true, "RUST_BACKTRACE": true, "RUST_LOG": true,
	// JavaScript.
	"NODE_ENV": true, "NODE_PATH": true, "NVM_DIR": true, "NVM_BIN": true, "PNPM_HOME": true, "BUN_INSTALL": true,
	"DENO_DIR": true, "VOLTA_HOME": true,
	// Python.
	"PYENV_ROOT": true, "PYENV_VERSION": true, "VIRTUAL_ENV": true, "CONDA_PREFIX": true, "CONDA_DEFAULT_ENV": true,
	"PYTHONPATH": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONUNBUFFERED": true, "UV_PYTHON": true,
	// Java and the JVM.
	"JAVA_HOME": true, "GRADLE_USER_HOME": true, "MAVEN_HOME": true, "M2_HOME": true, "SDKMAN_DIR": true,
	// Ruby.
	"GEM_HOME": true, "GEM_PATH": true, "RBENV_ROOT": true, "BUNDLE_PATH": true,
}

// confineEnvPrefixes are the name prefixes passed: the locale.
var confineEnvPrefixes = []string{"LC_"}

// confineEnv is environ narrowed to the allow-list, without values that
// look secret, and the variables pass names, as they are.
func confineEnv(environ, pass []string) []string {
	extra := map[string]bool{}
	for _, name := range pass {
		extra[name] = true
	}
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, value, _ := strings.Cut(kv, "=")
		switch {
		case extra[name]:
			out = append(out, kv) // the user named it: passed as it is
		case (confineEnvNames[name] || hasAnyPrefix(name, confineEnvPrefixes)) && !secretEnv(name, value):
			out = append(out, kv)
		}
	}
	return out
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
