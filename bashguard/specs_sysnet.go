package bashguard

import "sync"

// The specs of the system's and the toolchains' installers for the host
// reader (netTools): apt and apt-get, rustup, and Maven.

// aptGrammar is apt-pkg's CommandLine parser, apt's and apt-get's:
// clusters of letters, a value attached or the next word, exact long
// names (no abbreviation), --no-X for a boolean X, options anywhere.
var aptGrammar = grammar{permute: true, negate: true}

// aptSpec is apt-get's and apt's options (apt-get(8), apt(8)). -o sets
// any configuration key (APT::Update::Pre-Invoke runs a program,
// Acquire::http::Proxy and Dir::Etc::sourcelist move the mirrors), -c
// reads another configuration file.
var aptSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "apt-get", grammar: aptGrammar, rows: rows(
		each(kConfig, "", "-o= --option=", "-c= --config-file="),
		each(kWord, "", "-t= --target-release= --default-release=", "-a= --host-architecture=", "-P= --build-profiles=",
			"-e= --error-on=", "--format="),
		each(kRead, "", "--with-source="),
		each(kFlag, "", "--no-install-recommends", "--install-suggests",
			"-d --download-only", "-f --fix-broken", "-m --ignore-missing --fix-missing", "--no-download", "-q --quiet",
			"-s --simulate --just-print --dry-run --recon --no-act", "-y --yes --assume-yes", "--assume-no", "--show-upgraded",
			"-V --verbose-versions", "-b --compile --build", "--ignore-hold", "--no-upgrade",
			"--only-upgrade", "--allow-downgrades", "--allow-remove-essential", "--allow-change-held-packages",
			"--force-yes", "--print-uris", "--purge", "--reinstall", "--list-cleanup", "--trivial-only", "--no-remove",
			"--auto-remove --autoremove", "--only-source", "--diff-only", "--dsc-only", "--tar-only", "--arch-only",
			"--indep-only", "--allow-unauthenticated", "--allow-insecure-repositories", "--allow-releaseinfo-change",
			"--show-progress", "-h --help", "-v --version", "--installed", "--all-versions", "--with-new-pkgs",
			"--mark-auto"),
	)}).compile()
})

// rustupSpec is rustup's options, and those of the subcommands the host
// reader judges (rustup --help, rustup toolchain install, update, target
// add, component add, self update, default --help), read by clap's
// grammar: exact long names, values attached or the next word.
var rustupSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "rustup", grammar: cargoGrammar, rows: rows(
		each(kWord, "", "--profile=", "-c= --component=", "-t= --target=", "--toolchain="),
		each(kFlag, "", "-v --verbose", "-q --quiet", "-h --help", "-V --version", "--allow-downgrade", "--force",
			"--force-non-host", "--no-self-update", "--no-update", "--override"),
	)}).compile()
})

// mvnHostSpec is Maven's options (mvnRows), for the host reader.
var mvnHostSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "mvn", grammar: mvnGrammar, rows: mvnRows}).compile()
})
