package bashguard

import "sync"

// podman's command line as the host reader and netToolSpec read it: the
// options of docker's commands that podman shares (it reads them with
// pflag as docker does, specs_docker.go), and its own, each classified
// against podman's help (podman <command> --help, podman 4.3). An option
// of docker's rows that podman does not have is an error to podman,
// harmless.

// podmanRootRows are podman's own options, before its command (podman
// --help): the programs it runs in place of its own (the OCI runtime,
// conmon, the network command), the hooks and network configuration it
// reads, the stores it writes.
var podmanRootRows = rows(
	each(kWord, "", "--cgroup-manager=", "-c= --connection=", "--events-backend=", "--log-level=", "--namespace=",
		"--ssh=", "--storage-driver=", "--storage-opt=", "--url=", "--runtime-flag="),
	each(kFlag, "", "--help[=]", "--noout[=]", "-r --remote[=]", "--syslog[=]", "-v --version[=]"),
	each(kRead, "an identity file", "--identity="),
	each(kProgram, "runs the program it names in place of podman's own", "--conmon=", "--network-cmd-path=", "--runtime="),
	each(kConfig, "reads OCI hooks or network configuration, which run programs", "--hooks-dir=", "--network-config-dir="),
	each(kWrite, "", "--root=", "--runroot=", "--tmpdir=", "--volumepath="),
)

// podmanAuthRows are the options of every podman command that reaches a
// registry (pull, push, login, search, run, create, build), and
// podmanCredRows those of the commands that push or pull an image.
var (
	podmanAuthRows = rows(each(kRead, "", "--authfile="), each(kFlag, "", "--tls-verify[=]"))
	podmanCredRows = rows(each(kRead, "", "--cert-dir="), each(kWord, "", "--creds="))
)

// podmanCreateRows are the options of podman create and run beside
// docker's: --rootfs makes the image operand a directory of this machine
// that the container runs on, read and written, and --env-host passes the
// whole environment into the container; both ask, past any allow rule.
var podmanCreateRows = rows(
	each(kWord, "", "--arch=", "--cgroup-conf=", "--cgroups=", "--chrootdirs=", "--env-merge=", "--gidmap=",
		"--health-on-failure=", "--hostuser=", "--image-volume=", "--os=", "--passwd-entry=",
		"--personality=", "--pod=", "--requires=", "--sdnotify=", "--seccomp-policy=", "--secret=",
		"--subgidname=", "--subuidname=", "--systemd=", "--timeout=", "--tz=", "--uidmap=", "--umask=", "--unsetenv=",
		"--variant="),
	each(kFlag, "", "--http-proxy[=]", "--no-hosts[=]", "--read-only-tmpfs[=]", "--replace[=]", "--unsetenv-all[=]"),
	each(kRead, "", "--pod-id-file=", "--init-path="),
	each(kWrite, "", "--conmon-pidfile=", "--pidfile="),
	each(kAsk, "runs the container on a directory of this machine, its operand, as its root file system, read and written", "--rootfs[=]"),
	each(kAsk, "passes the whole environment of this machine into the container, its secrets among it", "--env-host[=]"),
	podmanAuthRows,
	containerCreateRows,
)

// podmanBuildRows are podman build's options (buildah's): docker's
// classic builder's, BuildKit's paths (dockerBuildPathRows), a bind
// per -v as run's, and its own.
var podmanBuildRows = rows(
	each(kAsk, "gives the build a device of this machine, a disk among them", "--device="),
	each(kWord, "", "--annotation=", "--arch=", "--cache-ttl=", "--cap-add=", "--cap-drop=", "--cgroupns=", "--dns=", "--dns-option=", "--dns-search=", "--env=", "--format=", "--from=", "--ipc=",
		"--jobs=", "--manifest=", "--os=", "--os-feature=", "--os-version=", "--pid=", "--retry=", "--retry-delay=",
		"--runtime-flag=", "--sign-by=", "--timestamp=", "--unsetenv=", "--userns=", "--userns-gid-map=",
		"--userns-gid-map-group=", "--userns-uid-map=", "--userns-uid-map-user=", "--uts=", "--variant="),
	each(kFlag, "", "--all-platforms[=]", "-D --disable-compression[=]", "--http-proxy[=]", "--identity-label[=]",
		"--layers[=]", "--logsplit[=]", "--no-hosts[=]", "--omit-history[=]", "--skip-unused-stages[=]",
		"--squash-all[=]", "--stdin[=]"),
	each(kRead, "", "--ignorefile=", "--decryption-key="),
	each(kWrite, "", "--logfile="),
	each(kBind, "", "-v= --volume="),
	each(kConfig, "reads OCI hooks, which run programs", "--hooks-dir="),
	each(kAsk, "passes flags to the C preprocessor that reads a Containerfile.in, which can include any file", "--cpp-flag="),
	podmanAuthRows,
	podmanCredRows,
	dockerBuildPathRows,
	dockerClassicBuildRows,
)

// podmanPushRows are podman push's options beside docker's.
var podmanPushRows = rows(
	each(kWord, "", "--compression-format=", "-f= --format=", "--sign-by="),
	each(kFlag, "", "--compress[=]", "--remove-signatures[=]"),
	each(kRead, "", "--sign-by-sigstore-private-key=", "--sign-passphrase-file="),
	each(kWrite, "", "--digestfile="),
	each(kFlag, "", "--disable-content-trust[=]", "-q --quiet[=]", "--help[=]"),
	podmanAuthRows,
	podmanCredRows,
)

// podmanPullRows are podman pull's options beside docker's.
var podmanPullRows = rows(each(kWord, "", "--arch=", "--os=", "--variant="), podmanAuthRows, podmanCredRows, dockerImageRows)

// podmanCpRows are podman cp's options.
var podmanCpRows = rows(each(kFlag, "", "-a --archive[=]", "--overwrite[=]", "--help[=]"))

// podmanVolumeCreateRows are podman volume create's options.
var podmanVolumeCreateRows = rows(each(kVolumeOpt, "", "-o= --opt="), each(kWord, "", "--driver=", "-l= --label="),
	each(kFlag, "", "--help[=]"))

// podmanSpec is podman's.
var podmanSpec = sync.OnceValue(func() *spec {
	run := &spec{grammar: dockerFirstGrammar, rows: rows(each(kWord, "", "--detach-keys=", "--preserve-fds="),
		each(kFlag, "", "-d --detach[=]", "--sig-proxy[=]", "--passwd[=]", "--rmi[=]"), podmanCreateRows)}
	create := &spec{grammar: dockerFirstGrammar, rows: rows(each(kWord, "", "--init-ctr="), podmanCreateRows)}
	build := &spec{grammar: dockerGrammar, rows: podmanBuildRows, operands: kBuildContext}
	cp := &spec{grammar: dockerGrammar, rows: podmanCpRows, operands: kContainerCopy}
	pull := &spec{grammar: dockerGrammar, rows: podmanPullRows}
	push := &spec{grammar: dockerGrammar, rows: podmanPushRows}
	return (&spec{name: "podman", grammar: dockerFirstGrammar, rows: podmanRootRows, subs: map[string]*spec{
		"run": run, "create": create, "build": build, "cp": cp, "pull": pull, "push": push,
		"volume":    {grammar: dockerFirstGrammar, subs: map[string]*spec{"create": {grammar: dockerGrammar, rows: podmanVolumeCreateRows}}},
		"image":     {grammar: dockerFirstGrammar, subs: map[string]*spec{"pull": pull, "push": push, "build": build}},
		"container": {grammar: dockerFirstGrammar, subs: map[string]*spec{"run": run, "create": create, "cp": cp}},
		"login": {grammar: dockerGrammar, rows: rows(each(kWord, "", "-u= --username=", "-p= --password="),
			each(kFlag, "", "--password-stdin[=]", "--get-login[=]", "-v --verbose[=]", "--help[=]"),
			each(kRead, "", "--cert-dir="), podmanAuthRows)},
		"search": {grammar: dockerGrammar, rows: rows(each(kWord, "", "-f= --filter=", "--format=", "--limit="),
			each(kFlag, "", "--no-trunc[=]", "--compatible[=]", "--list-tags[=]", "--help[=]"), podmanAuthRows)},
	}}).compile()
})
