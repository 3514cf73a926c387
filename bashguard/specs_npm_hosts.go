package bashguard

import "sync"

// npm's command line as the host reader reads it (netTools): every key
// of npm's configuration definitions (@npmcli/config), by nopt's
// grammar and with npm's shorthands, each with the value its type
// takes. A key of type String, a path, a URL or a number takes its
// value attached or the next word; one whose types include Boolean takes
// a value only attached (a next word is true or false, else an operand);
// a Boolean takes none. What an option does to where npm connects is
// the row's opts (hosts_tools.go); an option no row spells, a key npm
// does not define (nopt keeps it, and --@scope:registry is read from it),
// asks unless its effect is read there.

// npmHostRows are npm's configuration keys (npm help config, npm 11).
var npmHostRows = rows(
	each(kWord, "", "--_auth=", "--access=", "--allow-directory=", "--allow-file=", "--allow-git=", "--allow-remote=",
		"--allow-scripts=", "--also=", "--audit-level=", "--auth-type=", "--before=", "--cache-max=", "--cache-min=",
		"--cidr=", "--cpu=", "--depth=", "--diff=", "--diff-dst-prefix=", "--diff-src-prefix=", "--diff-unified=",
		"--expect-result-count=", "--expires=", "--fetch-retries=", "--fetch-retry-factor=", "--fetch-retry-maxtimeout=",
		"--fetch-retry-mintimeout=", "--fetch-timeout=", "--heading=", "--https-proxy=", "--include=",
		"--init-author-email=", "--init-author-name=", "--init-author-url=", "--init-license=", "--init-type=",
		"--init-version=", "--init.author.email=", "--init.author.name=", "--init.author.url=", "--init.license=",
		"--init.version=", "--install-strategy=", "--libc=", "--local-address=", "--location=", "--lockfile-version=",
		"--loglevel=", "--logs-max=", "--maxsockets=", "--message=", "--min-release-age=", "--min-release-age-exclude=",
		"--name=", "--noproxy=", "--omit=", "--only=", "--orgs=", "--orgs-permission=", "--os=", "--otp=", "--package=",
		"--packages=", "--packages-and-scopes-permission=", "--password=", "--preid=", "--proxy=", "--registry=",
		"--replace-registry-host=", "--save-prefix=", "--sbom-format=", "--sbom-type=", "--scope=", "--scopes=",
		"--searchexclude=", "--searchlimit=", "--searchopts=", "--searchstaleness=", "--tag=", "--tag-version-prefix=",
		"--token-description=", "--umask=", "--user-agent=", "--which=", "--workspace=",
		"--color[=]", "--expect-results[=]", "--optional[=]", "--production[=]", "--workspaces[=]", "--yes[=]"),
	each(kProgram, "names a program npm runs", "--script-shell=", "--shell=", "--node-options=", "--git=", "--node-gyp=",
		"--editor=", "--viewer=", "--call=", "--init-module=", "--init.module=", "--browser[=]"),
	each(kConfig, "", "--userconfig=", "--globalconfig="),
	each(kRead, "", "--ca=", "--cafile=", "--cert=", "--key=", "--provenance-file="),
	each(kWrite, "", "--cache=", "--logs-dir=", "--pack-destination="),
	each(kDir, "", "--prefix="),
	each(kFlag, "", "--all", "--allow-same-version", "--allow-scripts-pending", "--allow-scripts-pin", "--audit",
		"--bin-links", "--bypass-2fa", "--commit-hooks", "--dangerously-allow-all-scripts", "--description", "--dev",
		"--diff-ignore-all-space", "--diff-name-only", "--diff-no-prefix", "--diff-text", "--dry-run", "--engine-strict",
		"--force", "--foreground-scripts", "--format-package-lock", "--fund", "--git-tag-version", "--global",
		"--global-style", "--if-present", "--ignore-scripts", "--include-attestations", "--include-staged",
		"--include-workspace-root", "--init-private", "--install-links", "--json", "--legacy-bundling",
		"--legacy-peer-deps", "--link", "--long", "--offline", "--omit-lockfile-registry-resolved", "--package-lock",
		"--package-lock-only", "--packages-all", "--parseable", "--prefer-dedupe", "--prefer-offline", "--prefer-online",
		"--progress", "--provenance", "--read-only", "--rebuild-bundle", "--save", "--save-bundle", "--save-dev",
		"--save-exact", "--save-optional", "--save-peer", "--save-prod", "--shrinkwrap", "--sign-git-commit",
		"--sign-git-tag", "--strict-allow-scripts", "--strict-peer-deps", "--strict-ssl", "--timing", "--unicode",
		"--update-notifier", "--usage", "--version", "--versions", "--workspaces-update"),
)

// npmHostSpec is npm's, for the host reader.
var npmHostSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "npm", grammar: grammar{nopt: true, abbrev: true, permute: true}, rows: npmHostRows,
		shorthands: npmShorthands}).compile()
})

// npxHostSpec is npx's: npm's keys, npx's -p (--package) and -c
// (--call). Its options are read anywhere on the line: a misread judges
// an option of the package's own, never skips one of npx's.
var npxHostSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "npx", grammar: grammar{nopt: true, abbrev: true, permute: true}, rows: npmHostRows,
		shorthands: npxShorthands()}).compile()
})
