package bashguard

import "sync"

// docker's command line as the host reader reads it (netTools): the
// client's own options, before the subcommand, and a spec for each
// subcommand that reaches a registry or a daemon's builds, since cobra
// lets each spell its letters otherwise (-f is build's --file, -h run's
// --hostname and the client's --help). docker reads them with pflag: a
// value attached ("-p8080:80", "--name=x") or the next word, whatever it
// looks like, letters clustered ("-it"), no abbreviation of a long name,
// and a boolean long option may be given "=true" or "=false". The
// client's options end at the subcommand; run and create read theirs
// up to the image (the rest is the container's command), the others
// anywhere on the line.

// dockerGrammar is pflag's, as docker's subcommands read their options;
// dockerFirstGrammar is its grammar where the options end at the first
// operand (the client's before the subcommand, run's before the image).
var (
	dockerGrammar      = grammar{permute: true, shortEq: true}
	dockerFirstGrammar = grammar{shortEq: true}
)

// dockerRootRows are the client's options (docker --help).
var dockerRootRows = rows(
	each(kWord, "", "-c= --context=", "-H= --host=", "-l= --log-level="),
	each(kConfig, "", "--config="),
	each(kRead, "", "--tlscacert=", "--tlscert=", "--tlskey="),
	each(kFlag, "", "-D --debug[=]", "--tls[=]", "--tlsverify[=]", "-v --version[=]", "-h --help[=]"),
)

// dockerImageRows are docker pull's and push's options.
var dockerImageRows = rows(
	each(kFlag, "", "-a --all-tags[=]", "--disable-content-trust[=]", "-q --quiet[=]", "--help[=]"),
	each(kWord, "", "--platform="),
)

// dockerRunRows are docker run's options: create's, and those of a
// container run attached or in the background.
var dockerRunRows = rows(
	each(kWord, "", "--detach-keys="),
	each(kFlag, "", "-d --detach[=]", "--sig-proxy[=]"),
	dockerCreateRows,
)

// dockerCreateRows are docker create's options (docker create --help);
// --cidfile writes the container's id, --env-file and --label-file are
// read, -v and --mount name what the container sees.
var dockerCreateRows = rows(
	each(kWord, "", "--cpu-count=", "--cpu-percent=", "--domainname=", "--gpus=", "--health-start-interval=",
		"--io-maxbandwidth=", "--io-maxiops=", "--isolation=", "--kernel-memory=", "--link=", "--link-local-ip=",
		"--runtime=", "--storage-opt=", "--volume-driver="),
	each(kFlag, "", "--use-api-socket[=]"),
	containerCreateRows,
)

// containerCreateRows are the options of docker's create that podman's
// has too, spelled and read alike.
var containerCreateRows = rows(
	each(kAsk, "gives the container a device of this machine, a disk among them", "--device="),
	each(kAsk, "gives the container every device and capability of this machine, with which it reaches any file", "--privileged[=]"),
	each(kWord, "", "--add-host=", "--annotation=", "-a= --attach=", "--blkio-weight=", "--blkio-weight-device=", "--cap-add=",
		"--cap-drop=", "--cgroup-parent=", "--cgroupns=", "--cpu-period=", "--cpu-quota=", "--cpu-rt-period=",
		"--cpu-rt-runtime=", "-c= --cpu-shares=", "--cpus=", "--cpuset-cpus=", "--cpuset-mems=",
		"--device-cgroup-rule=", "--device-read-bps=", "--device-read-iops=", "--device-write-bps=",
		"--device-write-iops=", "--dns=", "--dns-option=", "--dns-search=", "--entrypoint=", "-e= --env=",
		"--expose=", "--group-add=", "--health-cmd=", "--health-interval=", "--health-retries=",
		"--health-start-period=", "--health-timeout=", "-h= --hostname=", "--ip=", "--ip6=", "--ipc=",
		"-l= --label=", "--log-driver=", "--log-opt=", "--mac-address=", "-m= --memory=", "--memory-reservation=",
		"--memory-swap=", "--memory-swappiness=", "--name=", "--network=", "--network-alias=", "--oom-score-adj=",
		"--pid=", "--pids-limit=", "--platform=", "-p= --publish=", "--pull=", "--restart=", "--security-opt=",
		"--shm-size=", "--stop-signal=", "--stop-timeout=", "--sysctl=", "--tmpfs=", "--ulimit=", "-u= --user=",
		"--userns=", "--uts=", "--volumes-from=", "-w= --workdir="),
	each(kRead, "", "--env-file=", "--label-file="),
	each(kBind, "", "-v= --volume=", "--mount="),
	each(kWrite, "", "--cidfile="),
	each(kFlag, "", "--disable-content-trust[=]", "--help[=]", "--init[=]", "-i --interactive[=]",
		"--no-healthcheck[=]", "--oom-kill-disable[=]", "-P --publish-all[=]", "-q --quiet[=]",
		"--read-only[=]", "--rm[=]", "-t --tty[=]"),
)

// dockerBuildRows are docker build's options: the classic builder's
// (docker build --help), and buildx's (docker buildx build --help),
// which docker build is where buildx is installed as the builder.
var dockerBuildRows = rows(dockerClassicBuildRows, dockerBuildxRows)

// dockerBuildxRows are the options buildx adds to the classic builder's.
var dockerBuildxRows = rows(
	each(kWord, "", "--cache-to=", "--builder=", "--annotation=", "--attest=", "--sbom=",
		"--provenance=", "--progress=", "--allow=", "--call=", "--no-cache-filter="),
	dockerBuildPathRows,
	each(kWrite, "", "--metadata-file="),
	each(kFlag, "", "--load[=]", "--push[=]", "--check[=]"),
)

// dockerBuildPathRows are the options of BuildKit's builds (docker
// buildx build, podman build) that give the build paths of this machine:
// files and keys it reads, a tree it reads, where it writes its result.
var dockerBuildPathRows = rows(
	each(kBuildSecret, "", "--secret="),
	each(kBuildSSH, "", "--ssh="),
	each(kBuildOutput, "", "-o= --output="),
	each(kBuildContext, "", "--build-context="),
)

// dockerCpRows are docker cp's options; its operands are a container's
// path and one of this machine (kContainerCopy).
var dockerCpRows = rows(each(kFlag, "", "-a --archive[=]", "-L --follow-link[=]", "-q --quiet[=]", "--help[=]"))

// dockerClassicBuildRows are the classic builder's options.
var dockerClassicBuildRows = rows(
	each(kWord, "", "--add-host=", "--build-arg=", "--cache-from=", "--cache-to=", "--cgroup-parent=", "--cpu-period=",
		"--cpu-quota=", "-c= --cpu-shares=", "--cpuset-cpus=", "--cpuset-mems=", "--isolation=", "--label=",
		"-m= --memory=", "--memory-swap=", "--network=", "--platform=", "--security-opt=", "--shm-size=", "-t= --tag=",
		"--target=", "--ulimit="),
	each(kDockerfile, "", "-f= --file="),
	each(kWrite, "", "--iidfile="),
	each(kFlag, "", "--compress[=]", "--disable-content-trust[=]", "--force-rm[=]", "--help[=]", "--no-cache[=]",
		"--pull[=]", "-q --quiet[=]", "--rm[=]", "--squash[=]"),
)

// dockerComposeRows are docker compose's own options, before its
// subcommand and after it (docker compose --help), and those of up, pull
// and build.
var dockerComposeRows = rows(
	each(kComposeFile, "", "-f= --file="),
	each(kRead, "", "--env-file="),
	each(kDir, "", "--project-directory="),
	each(kWord, "", "-p= --project-name=", "--profile=", "--ansi=", "--progress=", "--parallel=", "--scale=",
		"-t= --timeout=", "--exit-code-from=", "--pull=", "--build-arg=", "--builder=", "-m= --memory=", "--ssh=",
		"--wait-timeout=", "--attach=", "--no-attach="),
	each(kFlag, "", "--compatibility[=]", "--dry-run[=]", "--all-resources[=]", "-d --detach[=]", "--build[=]",
		"--no-build[=]", "--no-deps[=]", "--force-recreate[=]", "--no-recreate[=]", "--remove-orphans[=]",
		"-V --renew-anon-volumes[=]", "--abort-on-container-exit[=]", "--no-color[=]", "--no-log-prefix[=]",
		"--no-start[=]", "--quiet-pull[=]", "--wait[=]", "-y --yes[=]", "--ignore-buildable[=]",
		"--ignore-pull-failures[=]", "--include-deps[=]", "-q --quiet[=]", "--no-cache[=]", "--push[=]",
		"--with-dependencies[=]", "--help[=]", "-w --watch[=]", "--menu[=]", "--always-recreate-deps[=]",
		"--timestamps[=]", "--policy="),
)

// dockerComposeRunRows are docker compose run's options beside the
// project's: those of the one container it runs, up to the service's
// name (the rest is the container's command), -v binding as run's.
var dockerComposeRunRows = rows(
	each(kBind, "", "-v= --volume="),
	each(kWord, "", "-e= --env=", "--entrypoint=", "-w= --workdir=", "-u= --user=", "--name=", "-p= --publish=",
		"-l= --label=", "--cap-add=", "--cap-drop="),
	each(kFlag, "", "-i --interactive[=]", "-T --no-TTY[=]", "--rm[=]", "--service-ports[=]", "--use-aliases[=]",
		"-P --publish-all[=]"),
	dockerComposeRows,
)

// dockerVolumeCreateRows are docker volume create's options: -o gives
// the local driver a device to mount, a path of this machine.
var dockerVolumeCreateRows = rows(
	each(kVolumeOpt, "", "-o= --opt="),
	each(kWord, "", "--availability=", "-d= --driver=", "--group=", "--label=", "--limit-bytes=", "--required-bytes=",
		"--scope=", "--secret=", "--sharing=", "--topology-preferred=", "--topology-required=", "--type="),
	each(kFlag, "", "--help[=]"),
)

// dockerSpec is docker's.
var dockerSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "docker", grammar: dockerFirstGrammar, rows: dockerRootRows, subs: map[string]*spec{
		"pull":   {grammar: dockerGrammar, rows: dockerImageRows},
		"push":   {grammar: dockerGrammar, rows: dockerImageRows},
		"run":    {grammar: dockerFirstGrammar, rows: dockerRunRows},
		"create": {grammar: dockerFirstGrammar, rows: dockerCreateRows},
		"build":  {grammar: dockerGrammar, rows: dockerBuildRows, operands: kBuildContext},
		"cp":     {grammar: dockerGrammar, rows: dockerCpRows, operands: kContainerCopy},
		"volume": {grammar: dockerFirstGrammar, subs: map[string]*spec{"create": {grammar: dockerGrammar, rows: dockerVolumeCreateRows}}},
		"image": {grammar: dockerFirstGrammar, subs: map[string]*spec{
			"pull":  {grammar: dockerGrammar, rows: dockerImageRows},
			"push":  {grammar: dockerGrammar, rows: dockerImageRows},
			"build": {grammar: dockerGrammar, rows: dockerBuildRows, operands: kBuildContext}}},
		"container": {grammar: dockerFirstGrammar, subs: map[string]*spec{
			"cp":     {grammar: dockerGrammar, rows: dockerCpRows, operands: kContainerCopy},
			"run":    {grammar: dockerFirstGrammar, rows: dockerRunRows},
			"create": {grammar: dockerFirstGrammar, rows: dockerCreateRows}}},
		"buildx": {grammar: dockerFirstGrammar, subs: map[string]*spec{
			"build": {grammar: dockerGrammar, rows: dockerBuildRows, operands: kBuildContext},
			"imagetools": {grammar: dockerFirstGrammar, subs: map[string]*spec{
				"inspect": {grammar: dockerGrammar, rows: rows(each(kWord, "", "--format="), each(kFlag, "", "--raw[=]", "--help[=]"))},
				"create": {grammar: dockerGrammar, rows: rows(each(kWord, "", "-t= --tag=", "--annotation=", "--platform=", "--progress="),
					each(kRead, "", "-f= --file="), each(kFlag, "", "--append[=]", "--dry-run[=]", "--help[=]"))}}}}},
		"compose": {grammar: dockerGrammar, rows: dockerComposeRows, subs: map[string]*spec{
			"up":     {grammar: dockerGrammar, rows: dockerComposeRows, compose: true},
			"create": {grammar: dockerGrammar, rows: dockerComposeRows, compose: true},
			"run":    {grammar: dockerFirstGrammar, rows: dockerComposeRunRows, compose: true},
			"pull":   {grammar: dockerGrammar, rows: dockerComposeRows},
			"build":  {grammar: dockerGrammar, rows: dockerComposeRows, compose: true}}},
		"login": {grammar: dockerGrammar, rows: rows(each(kWord, "", "-u= --username=", "-p= --password="),
			each(kFlag, "", "--password-stdin[=]", "--help[=]"))},
		"search": {grammar: dockerGrammar, rows: rows(each(kWord, "", "-f= --filter=", "--format=", "--limit="),
			each(kFlag, "", "--no-trunc[=]", "--help[=]"))},
		"manifest": {grammar: dockerFirstGrammar, subs: map[string]*spec{"inspect": {grammar: dockerGrammar,
			rows: rows(each(kFlag, "", "--insecure[=]", "-v --verbose[=]", "--help[=]"))}}},
	}}).compile()
})
