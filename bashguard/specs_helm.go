package bashguard

import "sync"

// helm's options, every one its help lists (helm 4.3, held to it by the
// help test), read as cobra and pflag read them: "-n ns", "-nns",
// "-n=ns", "--namespace=ns" and "--namespace ns" alike, letters
// clustered, no abbreviation, a boolean given "=true" or "=false", options
// anywhere after the command's words. A kubeconfig's exec plugins and a
// registry configuration's credential helpers run programs
// (--kubeconfig, --registry-config), as --post-renderer does; values files
// and --set-file are read; --destination, --untardir and --output-dir
// are written; a chart operand, a directory or an archive, is read
// whole (kTree). Installing or updating a plugin runs its hooks, and asks
// past Bash(helm:*) (helmPluginCommands).

// helmGlobalRows are the flags of every command.
var helmGlobalRows = rows(
	each(kFlag, "", "--debug[=]", "-h --help[=]", "--kube-insecure-skip-tls-verify[=]"),
	each(kWord, "", "--burst-limit=", "--color=", "--colour=", "--kube-apiserver=", "--kube-as-group=",
		"--kube-as-user=", "--kube-context=", "--kube-tls-server-name=", "--kube-token=", "-n= --namespace=", "--qps="),
	each(kRead, "", "--kube-ca-file="),
	each(kWrite, "", "--content-cache=", "--repository-cache="),
	each(kConfig, "reads a kubeconfig, whose exec credential plugins run programs", "--kubeconfig="),
	each(kConfig, "reads registry credentials, whose credential helpers run programs", "--registry-config="),
	each(kConfig, "reads the chart repositories helm reaches, and their credentials", "--repository-config="),
)

// The flags of each command, as its help's "Flags:" lists them (the
// global ones are helmGlobalRows).
var helmCompletionRows = rows()

var helmCreateRows = rows(
	each(kWord, "", "-p= --starter="),
)

var helmDependencyBuildRows = rows(
	each(kFlag, "", "--insecure-skip-tls-verify[=]", "--plain-http[=]", "--skip-refresh[=]", "--verify[=]"),
	each(kWord, "", "--password=", "--username="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring="),
)

var helmDependencyListRows = rows(
	each(kWord, "", "--max-col-width="),
)

var helmDependencyUpdateRows = rows(
	each(kFlag, "", "--insecure-skip-tls-verify[=]", "--plain-http[=]", "--skip-refresh[=]", "--verify[=]"),
	each(kWord, "", "--password=", "--username="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring="),
)

var helmEnvRows = rows()

var helmGetAllRows = rows(
	each(kWord, "", "--revision=", "--template="),
)

var helmGetHooksRows = rows(
	each(kWord, "", "--revision="),
)

var helmGetManifestRows = rows(
	each(kWord, "", "--revision="),
)

var helmGetMetadataRows = rows(
	each(kWord, "", "-o= --output=", "--revision="),
)

var helmGetNotesRows = rows(
	each(kWord, "", "--revision="),
)

var helmGetValuesRows = rows(
	each(kFlag, "", "-a --all[=]"),
	each(kWord, "", "-o= --output=", "--revision="),
)

var helmHistoryRows = rows(
	each(kFlag, "", "--show-rollback-revision[=]"),
	each(kWord, "", "--max=", "-o= --output="),
)

var helmInstallRows = rows(
	each(kFlag, "", "--create-namespace[=]", "--dependency-update[=]", "--devel[=]", "--disable-openapi-validation[=]",
		"--enable-dns[=]", "--force-conflicts[=]", "--force-replace[=]", "-g --generate-name[=]", "--hide-notes[=]",
		"--hide-secret[=]", "--insecure-skip-tls-verify[=]", "--no-hooks[=]", "--pass-credentials[=]", "--plain-http[=]",
		"--render-subchart-notes[=]", "--replace[=]", "--rollback-on-failure[=]", "--server-side[=]", "--skip-crds[=]",
		"--skip-schema-validation[=]", "--take-ownership[=]", "--verify[=]", "--wait-for-jobs[=]"),
	each(kWord, "", "--description=", "--dry-run[=]", "-l= --labels=", "--name-template=", "-o= --output=",
		"--password=", "--post-renderer-args=", "--repo=", "--set=", "--set-json=", "--set-literal=", "--set-string=",
		"--timeout=", "--username=", "--version=", "--wait[=]"),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring=", "-f= --values="),
	each(kProgram, "runs the program it names on the rendered manifests", "--post-renderer="),
	each(kKeyFiles, "", "--set-file="),
)

var helmLintRows = rows(
	each(kFlag, "", "--quiet[=]", "--skip-schema-validation[=]", "--strict[=]", "--with-subcharts[=]"),
	each(kWord, "", "--kube-version=", "--set=", "--set-json=", "--set-literal=", "--set-string="),
	each(kRead, "", "-f= --values="),
	each(kKeyFiles, "", "--set-file="),
)

var helmListRows = rows(
	each(kFlag, "", "-A --all-namespaces[=]", "-d --date[=]", "--deployed[=]", "--failed[=]", "--no-headers[=]",
		"--pending[=]", "-r --reverse[=]", "-q --short[=]", "--superseded[=]", "--uninstalled[=]", "--uninstalling[=]"),
	each(kWord, "", "-f= --filter=", "-m= --max=", "--offset=", "-o= --output=", "-l= --selector=", "--time-format="),
)

var helmPackageRows = rows(
	each(kFlag, "", "-u --dependency-update[=]", "--insecure-skip-tls-verify[=]", "--plain-http[=]", "--sign[=]"),
	each(kWord, "", "--app-version=", "--password=", "--username=", "--version="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key=", "--key-file=", "--keyring=", "--passphrase-file="),
	each(kWrite, "", "-d= --destination="),
)

var helmPullRows = rows(
	each(kFlag, "", "--devel[=]", "--insecure-skip-tls-verify[=]", "--pass-credentials[=]", "--plain-http[=]",
		"--prov[=]", "--untar[=]", "--verify[=]"),
	each(kWord, "", "--password=", "--repo=", "--username=", "--version="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring="),
	each(kWrite, "", "-d= --destination=", "--untardir="),
)

var helmPushRows = rows(
	each(kFlag, "", "--insecure-skip-tls-verify[=]", "--plain-http[=]"),
	each(kWord, "", "--password=", "--username="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file="),
)

var helmRegistryLoginRows = rows(
	each(kFlag, "", "--insecure[=]", "--password-stdin[=]", "--plain-http[=]"),
	each(kWord, "", "-p= --password=", "-u= --username="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file="),
)

var helmRegistryLogoutRows = rows()

var helmRepoAddRows = rows(
	each(kFlag, "", "--allow-deprecated-repos[=]", "--force-update[=]", "--insecure-skip-tls-verify[=]",
		"--pass-credentials[=]", "--password-stdin[=]"),
	each(kWord, "", "--password=", "--timeout=", "--username="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file="),
)

var helmRepoIndexRows = rows(
	each(kFlag, "", "--json[=]"),
	each(kWord, "", "--merge=", "--url="),
)

var helmRepoListRows = rows(
	each(kFlag, "", "--no-headers[=]"),
	each(kWord, "", "-o= --output="),
)

var helmRepoRemoveRows = rows()

var helmRepoUpdateRows = rows(
	each(kWord, "", "--timeout="),
)

var helmRollbackRows = rows(
	each(kFlag, "", "--cleanup-on-fail[=]", "--force-conflicts[=]", "--force-replace[=]", "--no-hooks[=]",
		"--wait-for-jobs[=]"),
	each(kWord, "", "--description=", "--dry-run[=]", "--history-max=", "--server-side=", "--timeout=", "--wait[=]"),
)

var helmSearchHubRows = rows(
	each(kFlag, "", "--fail-on-no-result[=]", "--list-repo-url[=]"),
	each(kWord, "", "--endpoint=", "--max-col-width=", "-o= --output="),
)

var helmSearchRepoRows = rows(
	each(kFlag, "", "--devel[=]", "--fail-on-no-result[=]", "-r --regexp[=]", "-l --versions[=]"),
	each(kWord, "", "--max-col-width=", "-o= --output=", "--version="),
)

var helmShowAllRows = rows(
	each(kFlag, "", "--devel[=]", "--insecure-skip-tls-verify[=]", "--pass-credentials[=]", "--plain-http[=]",
		"--verify[=]"),
	each(kWord, "", "--password=", "--repo=", "--username=", "--version="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring="),
)

var helmShowChartRows = rows(
	each(kFlag, "", "--devel[=]", "--insecure-skip-tls-verify[=]", "--pass-credentials[=]", "--plain-http[=]",
		"--verify[=]"),
	each(kWord, "", "--password=", "--repo=", "--username=", "--version="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring="),
)

var helmShowCrdsRows = rows(
	each(kFlag, "", "--devel[=]", "--insecure-skip-tls-verify[=]", "--pass-credentials[=]", "--plain-http[=]",
		"--verify[=]"),
	each(kWord, "", "--password=", "--repo=", "--username=", "--version="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring="),
)

var helmShowReadmeRows = rows(
	each(kFlag, "", "--devel[=]", "--insecure-skip-tls-verify[=]", "--pass-credentials[=]", "--plain-http[=]",
		"--verify[=]"),
	each(kWord, "", "--password=", "--repo=", "--username=", "--version="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring="),
)

var helmShowValuesRows = rows(
	each(kFlag, "", "--devel[=]", "--insecure-skip-tls-verify[=]", "--pass-credentials[=]", "--plain-http[=]",
		"--verify[=]"),
	each(kWord, "", "--jsonpath=", "--password=", "--repo=", "--username=", "--version="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring="),
)

var helmStatusRows = rows(
	each(kWord, "", "-o= --output=", "--revision="),
)

var helmTemplateRows = rows(
	each(kFlag, "", "--create-namespace[=]", "--dependency-update[=]", "--devel[=]", "--disable-openapi-validation[=]",
		"--enable-dns[=]", "--force-conflicts[=]", "--force-replace[=]", "-g --generate-name[=]", "--include-crds[=]",
		"--insecure-skip-tls-verify[=]", "--is-upgrade[=]", "--no-hooks[=]", "--pass-credentials[=]", "--plain-http[=]",
		"--release-name[=]", "--replace[=]", "--rollback-on-failure[=]", "--server-side[=]", "--skip-crds[=]",
		"--skip-schema-validation[=]", "--skip-tests[=]", "--take-ownership[=]", "--verify[=]", "--wait-for-jobs[=]"),
	each(kWord, "", "-a= --api-versions=", "--description=", "--dry-run[=]", "--kube-version=", "-l= --labels=",
		"--name-template=", "--password=", "--post-renderer-args=", "--repo=", "--set=", "--set-json=", "--set-literal=",
		"--set-string=", "-s= --show-only=", "--timeout=", "--username=", "--version=", "--wait[=]"),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring=", "-f= --values="),
	each(kWrite, "", "--output-dir="),
	each(kProgram, "runs the program it names on the rendered manifests", "--post-renderer="),
	each(kKeyFiles, "", "--set-file="),
)

var helmTestRows = rows(
	each(kFlag, "", "--logs[=]"),
	each(kWord, "", "--filter=", "--timeout="),
)

var helmUninstallRows = rows(
	each(kFlag, "", "--dry-run[=]", "--ignore-not-found[=]", "--keep-history[=]", "--no-hooks[=]"),
	each(kWord, "", "--cascade=", "--description=", "--timeout=", "--wait[=]"),
)

var helmUpgradeRows = rows(
	each(kFlag, "", "--cleanup-on-fail[=]", "--create-namespace[=]", "--dependency-update[=]", "--devel[=]",
		"--disable-openapi-validation[=]", "--enable-dns[=]", "--force-conflicts[=]", "--force-replace[=]",
		"--hide-notes[=]", "--hide-secret[=]", "--insecure-skip-tls-verify[=]", "-i --install[=]", "--no-hooks[=]",
		"--pass-credentials[=]", "--plain-http[=]", "--render-subchart-notes[=]", "--reset-then-reuse-values[=]",
		"--reset-values[=]", "--reuse-values[=]", "--rollback-on-failure[=]", "--skip-crds[=]",
		"--skip-schema-validation[=]", "--take-ownership[=]", "--verify[=]", "--wait-for-jobs[=]"),
	each(kWord, "", "--description=", "--dry-run[=]", "--history-max=", "-l= --labels=", "-o= --output=", "--password=",
		"--post-renderer-args=", "--repo=", "--server-side=", "--set=", "--set-json=", "--set-literal=", "--set-string=",
		"--timeout=", "--username=", "--version=", "--wait[=]"),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring=", "-f= --values="),
	each(kProgram, "runs the program it names on the rendered manifests", "--post-renderer="),
	each(kKeyFiles, "", "--set-file="),
)

var helmVerifyRows = rows(
	each(kRead, "", "--keyring="),
)

var helmVersionRows = rows(
	each(kFlag, "", "--short[=]"),
	each(kWord, "", "--template="),
)

// helmPluginRows are the flags of helm plugin's commands, which are read
// as operands (helmPluginCommands).
var helmPluginRows = rows(
	each(kFlag, "", "--insecure-skip-tls-verify[=]", "--plain-http[=]", "--verify[=]", "--sign[=]"),
	each(kWord, "", "--password=", "--username=", "--version=", "--type="),
	each(kRead, "", "--ca-file=", "--cert-file=", "--key-file=", "--keyring=", "--key=", "--passphrase-file="),
	each(kWrite, "", "-d= --destination="),
)

// helmPluginCommands are helm plugin's commands that run a plugin's
// code: installing or updating one runs its hooks.
var helmPluginCommands = []toolCommand{
	{"install", nil, "installs a plugin, whose hooks run programs"},
	{"add", nil, "installs a plugin, whose hooks run programs"},
	{"update", nil, "updates a plugin, whose hooks run programs"},
	{"up", nil, "updates a plugin, whose hooks run programs"},
}

// helmSpec is helm's.
var helmSpec = sync.OnceValue(func() *spec {
	g := grammar{permute: true}
	cmd := func(name string, r []optRow) *spec {
		return &spec{name: "helm " + name, grammar: g, rows: r, joined: join(helmGlobalRows)}
	}
	// The commands that load a chart from a directory or an archive
	// read it whole, its links followed: its templates print any file
	// of it (.Files.Get).
	chart := func(name string, r []optRow) *spec {
		s := cmd(name, r)
		s.operands = kTree
		return s
	}
	subs := map[string]*spec{
		"completion": cmd("completion", helmCompletionRows),
		"create":     cmd("create", helmCreateRows),
		"env":        cmd("env", helmEnvRows),
		"history":    cmd("history", helmHistoryRows),
		"install":    chart("install", helmInstallRows),
		"lint":       chart("lint", helmLintRows),
		"list":       cmd("list", helmListRows),
		"package":    chart("package", helmPackageRows),
		"pull":       cmd("pull", helmPullRows),
		"push":       chart("push", helmPushRows),
		"rollback":   cmd("rollback", helmRollbackRows),
		"status":     cmd("status", helmStatusRows),
		"template":   chart("template", helmTemplateRows),
		"test":       cmd("test", helmTestRows),
		"uninstall":  cmd("uninstall", helmUninstallRows),
		"upgrade":    chart("upgrade", helmUpgradeRows),
		"verify":     chart("verify", helmVerifyRows),
		"version":    cmd("version", helmVersionRows),
		"dependency": {name: "helm dependency", grammar: g, rows: helmGlobalRows, subs: map[string]*spec{
			"build":  chart("dependency build", helmDependencyBuildRows),
			"list":   chart("dependency list", helmDependencyListRows),
			"ls":     chart("dependency list", helmDependencyListRows),
			"update": chart("dependency update", helmDependencyUpdateRows),
			"up":     chart("dependency update", helmDependencyUpdateRows),
		}},
		"get": {name: "helm get", grammar: g, rows: helmGlobalRows, subs: map[string]*spec{
			"all":      cmd("get all", helmGetAllRows),
			"hooks":    cmd("get hooks", helmGetHooksRows),
			"manifest": cmd("get manifest", helmGetManifestRows),
			"metadata": cmd("get metadata", helmGetMetadataRows),
			"notes":    cmd("get notes", helmGetNotesRows),
			"values":   cmd("get values", helmGetValuesRows),
		}},
		"registry": {name: "helm registry", grammar: g, rows: helmGlobalRows, subs: map[string]*spec{
			"login":  cmd("registry login", helmRegistryLoginRows),
			"logout": cmd("registry logout", helmRegistryLogoutRows),
		}},
		"repo": {name: "helm repo", grammar: g, rows: helmGlobalRows, subs: map[string]*spec{
			"add":    cmd("repo add", helmRepoAddRows),
			"index":  cmd("repo index", helmRepoIndexRows),
			"list":   cmd("repo list", helmRepoListRows),
			"ls":     cmd("repo list", helmRepoListRows),
			"remove": cmd("repo remove", helmRepoRemoveRows),
			"rm":     cmd("repo remove", helmRepoRemoveRows),
			"update": cmd("repo update", helmRepoUpdateRows),
		}},
		"search": {name: "helm search", grammar: g, rows: helmGlobalRows, subs: map[string]*spec{
			"hub":  cmd("search hub", helmSearchHubRows),
			"repo": cmd("search repo", helmSearchRepoRows),
		}},
		"show": {name: "helm show", grammar: g, rows: helmGlobalRows, subs: map[string]*spec{
			"all":    chart("show all", helmShowAllRows),
			"chart":  chart("show chart", helmShowChartRows),
			"crds":   chart("show crds", helmShowCrdsRows),
			"readme": chart("show readme", helmShowReadmeRows),
			"values": chart("show values", helmShowValuesRows),
		}},
		"plugin": {name: "helm plugin", grammar: g, rows: helmPluginRows, joined: join(helmGlobalRows), operands: kToolCommand,
			commands: helmPluginCommands},
	}
	for name, as := range map[string][]string{
		"dependency": {"dep", "dependencies"},
		"history":    {"hist"},
		"list":       {"ls"},
		"pull":       {"fetch"},
		"show":       {"inspect"},
		"uninstall":  {"del", "delete", "un"},
	} {
		for _, a := range as {
			subs[a] = subs[name]
		}
	}
	return (&spec{name: "helm", grammar: g, rows: helmGlobalRows, subs: subs}).compile()
})
