package bashguard

import "github.com/toolgate/toolgate/permission"

// HostJudge judges a host that a shell network command reaches, against
// the host's domain rules (Claude Code's WebFetch(domain:...) rules): the
// same judgement as the host's network tools get.
//
// It is optional: when the [PathJudge] given to [Guard.Judge] also
// implements HostJudge, the Guard gives it every host it finds in the
// commands that reach other machines: the hosts of literal URLs (curl,
// wget, httpie, aria2c, package specs), the registries of the package
// managers (npm, yarn, pnpm, bun, deno, pip, uv, pipx, poetry, conda,
// cargo, go, gem, bundle, composer, maven, gradle: the default one, or
// the one an option or the command's environment names), container image
// registries, git's remote (a URL, a user@host:path form, or a remote
// name whose URL the repository's config holds), go's module paths, ssh,
// scp, sftp and rsync's [user@]host forms, nc's and telnet's host
// operands and /dev/tcp/HOST/PORT redirects. A host the Guard cannot
// read from the command line (a variable, a substitution, a remote the
// config does not name, a registry set by a configuration file, a
// cluster's API server from a kubeconfig, an option that changes where
// the command connects) is given as "".
//
// host is as the command writes it, without a port, user or brackets
// (an IPv6 address is given bare); the judge brings it to the form its
// rules are written in. The Result is the answer for the host:
//
//   - Allow lets the command reach it: a rule allows the host, or there
//     are no domain rules to hold it against. The command is still judged
//     as without a HostJudge (curl still needs the policy's network
//     access and a rule for the command);
//   - Ask asks, and no allow rule for the command lifts it (Bash(curl:*)
//     does not allow a host the domain rules do not);
//   - Deny denies (a Deny rule names the host).
//
// Rule and Layer name what decided, as for a [PathJudge]; the Guard
// carries them into the [Command], and Reason into its reason after the
// host: "reaches evil.example: " + Reason. An invalid Decision counts as
// a Deny.
//
// Implementations must be safe for concurrent use.
type HostJudge interface {
	JudgeHost(host string) permission.Result
}
