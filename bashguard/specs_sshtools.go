package bashguard

import "sync"

// The tools that run ssh with options of their own beside ssh's:
// ssh-copy-id (OpenSSH's script, read with getopts) passes -o and -F to
// ssh, whose ProxyCommand, LocalCommand and the like run programs here
// (kSSHOption, sshExecKeys); autossh reads -M and -f and passes the rest
// of its line to ssh, so its spec is ssh's with those.

// sshCopyIDSpec is ssh-copy-id's (ssh-copy-id -h, OpenSSH 9.2).
var sshCopyIDSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "ssh-copy-id", grammar: posixGrammar, rows: rows(
		each(kConfig, sshReadsConfig, "-F="),
		each(kSSHOption, "", "-o="),
		// -i names the key whose public half (FILE.pub) is sent, a
		// word: the private key is not read.
		each(kWord, "", "-i=", "-p=", "-t="),
		each(kFlag, "", "-f", "-n", "-s", "-x", "-h", "-?"),
	)}).compile()
})

// autosshSpec is autossh's: its -M (the monitoring port) and -f, and
// ssh's options, the first row winning: -i is the identity ssh
// authenticates with, as ssh-copy-id's names the key it sends the public
// half of; neither is disclosed.
var autosshSpec = sync.OnceValue(func() *spec {
	s := sshSpec()
	return (&spec{name: "autossh", grammar: posixGrammar, rows: rows(each(kWord, "", "-M="),
		each(kWord, "an identity file ssh authenticates with, which it does not send", "-i=")),
		joined: s.joined}).compile()
})
