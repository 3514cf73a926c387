package bashguard

import "sync"

// redis-cli's options (redis-cli --help, 7.0): each a word of its own, a
// value the next word, read until the first word that is none, which
// begins the command it sends (kToolCommand); without one it reads
// commands from its input (netTool.stdinScript). Its server may be this
// machine: the commands that make a server write files where its
// configuration says, load code or take another server's data ask past
// Bash(redis-cli:*) (redisCommands), as --pipe's raw commands and
// --cluster's manager (whose backup writes files here) do. --rdb writes
// the dump here; --eval reads the script it sends.
var redisRows = rows(
	each(kInputArg, "", "-x", "-X="),
	each(kFlag, "", "-2", "-3", "-c", "-e", "--tls", "--insecure", "--raw", "--no-raw", "--quoted-input", "--csv",
		"--json", "--quoted-json", "--stat", "--latency", "--latency-history", "--latency-dist", "--replica", "--bigkeys",
		"--memkeys", "--hotkeys", "--scan", "--ldb", "--ldb-sync-mode", "--verbose", "--no-auth-warning", "--help",
		"--version", "--askpass"),
	each(kWord, "", "-h=", "-p=", "-s=", "-a=", "--user=", "--pass=", "-u=", "-r=", "-i=", "-n=", "-d=", "-D=",
		"--sni=", "--tls-ciphers=", "--tls-ciphersuites=", "--show-pushes=", "--lru-test=", "--pipe-timeout=",
		"--memkeys-samples=", "--pattern=", "--quoted-pattern=", "--intrinsic-latency="),
	each(kRead, "", "--cacert=", "--cacertdir=", "--cert=", "--key=", "--eval="),
	each(kWrite, "", "--rdb=", "--functions-rdb="),
	each(kAsk, "sends the raw commands of its input, which are not read here, and which can make a server of this machine write files and load code",
		"--pipe"),
	each(kAsk, "runs a cluster manager command, which changes servers and writes files of this machine (backup)", "--cluster="),
)

// redisFileKeys are the configuration keys that name the files a Redis
// server writes or reads (redis.conf, 7.0).
var redisFileKeys = []string{"dir", "dbfilename", "logfile", "appendfilename", "appenddirname", "aclfile", "pidfile",
	"unixsocket", "cluster-config-file", "tls-cert-file", "tls-key-file", "tls-ca-cert-file", "tls-ca-cert-dir",
	"tls-client-cert-file", "tls-client-key-file", "tls-dh-params-file"}

// redisCommands are the commands a Redis server, which may be this
// machine, takes that make it write files anywhere it may, run code or
// take another server's data (the rogue replica).
var redisCommands = []toolCommand{
	{"config set", redisFileKeys, "makes the server write or read the files that key names, here if the server is this machine"},
	{"module load", nil, "makes the server load and run the code of a module"},
	{"module loadex", nil, "makes the server load and run the code of a module"},
	{"replicaof", nil, "makes the server replace its data with another server's, which can plant files and modules"},
	{"slaveof", nil, "makes the server replace its data with another server's, which can plant files and modules"},
	{"debug", nil, "runs the server's debugging commands, which reload its files and can stop it"},
}

// redisSpec is redis-cli's.
var redisSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "redis-cli", grammar: posixGrammar, rows: redisRows, operands: kToolCommand,
		commands: redisCommands}).compile()
})
