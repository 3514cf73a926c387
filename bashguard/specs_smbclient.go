package bashguard

import "sync"

// smbclient's command line (smbclient --help, Samba 4.17), read with
// popt: letters clustered, a value attached or the next word,
// "--long=value", no abbreviation, options anywhere. -c gives it a script
// of its own commands, read as lftp's are (smbScript); -T reads or
// writes a tar file of this machine that its operands name; the
// configuration of -s and --option can name programs and files.
var smbclientRows = rows(
	each(kClientScript, "runs smbclient's commands on the server", "-c= --command="),
	each(kConfig, "reads configuration, which can name the files and programs smbclient uses", "-s= --configfile=", "--option="),
	each(kAsk, "reads or writes a tar file of this machine, which is not read here", "-T= --tar="),
	each(kRead, "", "-A= --authentication-file=", "--use-krb5-ccache="),
	each(kWrite, "", "-l= --log-basename="),
	each(kWord, "", "-M= --message=", "-I= --ip-address=", "-L= --list=", "-D= --directory=", "-b= --send-buffer=",
		"-t= --timeout=", "-p= --port=", "-d= --debuglevel=", "-R= --name-resolve=", "-O= --socket-options=",
		"-m= --max-protocol=", "-n= --netbiosname=", "--netbios-scope=", "-W= --workgroup=", "--realm=", "-U= --user=",
		"--password=", "--simple-bind-dn=", "--use-kerberos=", "--client-protection="),
	each(kFlag, "", "-E --stderr", "-g --grepable", "-q --quiet", "-B --browse", "-? --help", "--usage", "--debug-stdout",
		"--leak-report", "--leak-report-full", "-N --no-pass", "--pw-nt-hash", "-P --machine-pass",
		"--use-winbind-ccache", "-k --kerberos", "-V --version"),
)

// smbclientSpec is smbclient's.
var smbclientSpec = sync.OnceValue(func() *spec {
	return (&spec{name: "smbclient", grammar: grammar{permute: true}, rows: smbclientRows, scriptRuns: smbScript.runs}).compile()
})

// smbScript reads smbclient's scripts: its queries list, print or change
// the share's files, or end the session; get, put, lcd, more (a pager),
// tar and "!" (a shell command) reach this machine.
var smbScript = commandScript{tool: "smbclient", queries: map[string]bool{
	"ls": true, "dir": true, "cd": true, "pwd": true, "du": true, "allinfo": true, "stat": true, "exit": true, "quit": true,
	"q": true, "bye": true, "showacls": true, "volume": true, "listconnect": true, "getfacl": true, "mkdir": true, "md": true,
	"rmdir": true, "rd": true, "rm": true, "del": true, "deltree": true, "rename": true, "mask": true, "prompt": true,
	"recurse": true, "lowercase": true, "help": true,
}, shellChars: "!|>`"}
