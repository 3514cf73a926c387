package bashguard

import (
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// Network commands whose options run a program on this machine: ssh's
// ProxyCommand, LocalCommand and KnownHostsCommand (and a config file,
// -F or Include, that may set them, or a Match exec), the libraries of
// PKCS11Provider and SecurityKeyProvider (-I); scp's and sftp's -S
// program and sftp's -D server; nc's -e and -c and ncat's --exec,
// --sh-exec and --lua-exec; wget's --use-askpass (which -e, --execute
// and --config can set too); socat's EXEC: and SYSTEM: addresses. Such
// a command runs what the guard never sees, so the Ask it gets is one no
// allow rule for the command lifts: Bash(ssh:*) allows ssh, not the
// program an option names, as rsync -e is judged.

// sshExecKeys are the ssh_config keywords (lower case) whose value runs
// a program or loads code here, or that read more configuration.
var sshExecKeys = map[string]bool{"proxycommand": true, "localcommand": true, "permitlocalcommand": true,
	"knownhostscommand": true, "pkcs11provider": true, "securitykeyprovider": true, "match": true, "include": true}

// sshOptKey returns the keyword of an ssh -o value, lower case: ssh reads
// "Key=value", "Key value" and "Key\tvalue" alike.
func sshOptKey(val string) string {
	val = strings.TrimLeft(val, " \t")
	if k := strings.IndexAny(val, " \t="); k >= 0 {
		val = val[:k]
	}
	return strings.ToLower(val)
}

// netPrograms asks, past any allow rule, for the options of the network
// command name that run a program on this machine.
func (a *analyzer) netPrograms(c *verdictAcc, name string, v *argv) {
	ask := func(what string) {
		c.add(permission.Ask, RuleCodeInline, what+", which is not analysed", false)
	}
	switch name {
	case "ssh", "scp", "sftp":
		valShort := map[string]string{"ssh": "BbcDEeFIiJLlmOopQRSWw", "scp": "cDFiJloPSX", "sftp": "BbcDFiJloPRSsX"}[name]
		optScan(v, 1, valShort, nil, false, func(opt, val string, at int) {
			switch {
			case opt == "-o" && sshExecKeys[sshOptKey(val)]:
				ask("-o " + val + " runs a program or reads configuration")
			case opt == "-F":
				ask("-F " + val + " reads an ssh configuration, which can run programs (ProxyCommand)")
			case opt == "-S" && name != "ssh":
				ask("-S " + val + " runs a program as the connection")
			case opt == "-D" && name == "sftp":
				ask("-D " + val + " runs a local sftp server program")
			case opt == "-I" && name == "ssh":
				ask("-I " + val + " loads a PKCS#11 library")
			}
		})
		for i := 1; i < v.len(); i++ {
			if !v.literal(i) && strings.HasPrefix(v.vals[i], "-") {
				ask("an option only known at run time")
			}
		}
	case "nc", "ncat", "netcat":
		optScan(v, 1, "IiMmOPpqsTVwXxecdgGo", []string{"--exec", "--sh-exec", "--lua-exec", "--source-port", "--source",
			"--wait", "--idle-timeout", "--delay", "--output", "--hex-dump", "--proxy", "--proxy-type", "--proxy-auth", "--proxy-dns",
			"--max-conns", "--allow", "--allowfile", "--deny", "--denyfile", "--ssl-cert", "--ssl-key", "--ssl-trustfile",
			"--ssl-ciphers", "--ssl-servername", "--ssl-alpn"}, true, func(opt, val string, at int) {
			if opt == "-e" || opt == "-c" || optIs(opt, true, "--exec", "--sh-exec", "--lua-exec") {
				ask(opt + " " + val + " runs a program connected to the network")
			}
		})
	case "wget":
		optScan(v, 1, "eoaiBtOTwQPUlARDIX", wgetValLong, true, func(opt, val string, at int) {
			if opt == "-e" || optIs(opt, true, "--execute", "--config", "--use-askpass") {
				ask(opt + " " + val + " can run a program (use_askpass)")
			}
		})
	case "socat":
		for i := 1; i < v.len(); i++ {
			w := strings.ToLower(v.vals[i])
			if strings.Contains(w, "exec:") || strings.Contains(w, "system:") || !v.literal(i) {
				ask("the address " + v.vals[i] + " may run a program")
				break
			}
		}
	}
}
