package bashguard

import "sync"

// The commands that change files, as data: every option each one's --help
// lists, with what its value is (a mode, a suffix: a word; a file whose
// times or mode are copied: read; the directory the operands go into:
// kTargetDir), and what its operands are: files written (kWrite), sources
// read and a destination written (kCopy, kMove), link targets and a link
// (kLink). model_write.go judges them by these kinds; every line of them asks
// at best ("changes files"), tee without a file aside. spec_help_test.go
// holds the tables to the installed tools' --help.

// writerSpecs are the writers' specs, by command name.
var writerSpecs = sync.OnceValue(func() map[string]*spec {
	return compileAll(map[string]*spec{
		"cp": writerSpec(writerCpRows(), kCopy,
			example{"cp a.txt b.txt", "ask"}, example{"cp -t src a.txt", "ask"}, example{"cp --target-dir=src a.txt", "ask"},
			example{"cp .env x.txt", "deny"}, example{"cp -rt src .env", "deny"}, example{"cp --nosuch a.txt b.txt", "ask"}),
		"mv": writerSpec(writerMvRows(), kMove,
			example{"mv a.txt b.txt", "ask"}, example{"mv -t src a.txt", "ask"}, example{"mv -fTa.txt b.txt", "ask"},
			example{"mv .env x.txt", "deny"}, example{"mv -x a.txt b.txt", "ask"}),
		"install": writerSpec(writerInstallRows(), kCopy,
			example{"install -m 644 a.txt b.txt", "ask"}, example{"install -Dm644 -t src a.txt", "ask"}, example{"install .env x", "deny"},
			example{"install -s a.txt b.txt", "ask"}, example{"install --strip-prog=x a.txt b.txt", "ask"}),
		"ln": writerSpec(writerLnRows(), kLink,
			example{"ln -s a.txt b.txt", "ask"}, example{"ln -st src a.txt", "ask"}, example{"ln -s a.txt", "ask"}, example{"ln -y a b", "ask"}),
		"touch": writerSpec(writerTouchRows(), kWrite,
			example{"touch a.txt", "ask"}, example{"touch -d 2020-01-01 -m a.txt", "ask"}, example{"touch -r .env a.txt", "deny"},
			example{"touch --ref=.env a.txt", "deny"}, example{"touch -x a.txt", "ask"}),
		"mkdir": writerSpec(writerMkdirRows(), kWrite,
			example{"mkdir -p src/x", "ask"}, example{"mkdir -m755 d", "ask"}, example{"mkdir --mode 755 d", "ask"}, example{"mkdir -x d", "ask"}),
		"truncate": writerSpec(writerTruncateRows(), kWrite,
			example{"truncate -s 0 a.txt", "ask"}, example{"truncate -r .env a.txt", "deny"}, example{"truncate -x a.txt", "ask"}),
		"rmdir": writerSpec(writerRmdirRows(), kWrite,
			example{"rmdir -p src", "ask"}, example{"rmdir --ignore src", "ask"}, example{"rmdir -x src", "ask"}),
		"unlink": writerSpec(gnuInfoRows, kWrite,
			example{"unlink a.txt", "ask"}, example{"unlink -x a.txt", "ask"}),
		// tee FILE... writes each FILE; without one it only copies its
		// input to its output.
		"tee": {grammar: gnuGrammar, rows: writerTeeRows(), operands: kWrite, ask: "changes files", bareWhy: "",
			allow:    "copies its input to its output only",
			examples: []example{{"tee", "allow"}, {"tee -ai", "allow"}, {"tee --output-error=warn", "allow"}, {"tee a.txt", "ask"}, {"tee -a .env", "deny"}, {"tee -x", "ask"}}},
		// chmod MODE FILE..., chown OWNER FILE..., chgrp GROUP FILE...: the
		// first operand is a word, unless --reference gives it (or, to
		// chmod, a mode written as an option: "chmod -w FILE").
		"chmod": {grammar: grammar{abbrev: true, permute: true, digits: true}, rows: writerChmodRows(), operands: kWrite,
			firstOperand: kWord, patternBy: []string{"--reference", "-r", "-w", "-x", "-X", "-s", "-t", "-u", "-g", "-o", "-a", "-NUM"},
			ask: "changes files", bareWhy: "changes files", dangers: writerRecursiveCritical,
			examples: []example{{"chmod 644 a.txt", "ask"}, {"chmod -w a.txt", "ask"}, {"chmod -R u+w src", "ask"}, {"chmod --reference=.env a.txt", "deny"},
				{"chmod -R 777 /", "deny"}, {"chmod --recur 777 /", "deny"}, {"chmod -y a.txt", "ask"}}},
		"chown": {grammar: gnuGrammar, rows: writerChownRows(), operands: kWrite, firstOperand: kWord, patternBy: []string{"--reference"},
			ask: "changes files", bareWhy: "changes files", dangers: writerRecursiveCritical,
			examples: []example{{"chown nobody a.txt", "ask"}, {"chown --from=root nobody a.txt", "ask"}, {"chown -R nobody /", "deny"},
				{"chown --reference=.env a.txt", "deny"}, {"chown -x nobody a.txt", "ask"}}},
		"chgrp": {grammar: gnuGrammar, rows: writerChgrpRows(), operands: kWrite, firstOperand: kWord, patternBy: []string{"--reference"},
			ask: "changes files", bareWhy: "changes files", dangers: writerRecursiveCritical,
			examples: []example{{"chgrp nogroup a.txt", "ask"}, {"chgrp -hR nogroup /etc", "deny"}, {"chgrp --ref .env a.txt", "deny"}, {"chgrp -x g a.txt", "ask"}}},
		// rm removes its operands; recursively or by force, a critical path
		// is denied, and so is --no-preserve-root.
		"rm": {grammar: gnuGrammar, rows: writerRmRows(), operands: kWrite, ask: "removes files", bareWhy: "removes files",
			dangers: []danger{{test: dCritical, when: "-r -R --recursive -f --force", home: true, rule: RuleDangerousRmCritical,
				why: "removes the critical path %s recursively or by force"}},
			examples: []example{{"rm a.txt", "ask"}, {"rm -rf src", "ask"}, {"rm -rf /", "deny"}, {"rm --recur --forc .", "deny"}, {"rm -f ~", "deny"},
				{"rm --no-pres -r src", "deny"}, {"rm --interactive=never a.txt", "ask"}, {"rm .env", "deny"}, {"rm -y a.txt", "ask"}}},
		// shred overwrites its operands; a device is denied.
		"shred": {grammar: gnuGrammar, rows: writerShredRows(), operands: kWrite, ask: "destroys file contents", bareWhy: "destroys file contents",
			dangers: []danger{{test: dDevice, rule: RuleDangerousDisk, why: "shreds the device %s"}},
			examples: []example{{"shred a.txt", "ask"}, {"shred -n 1 -uz a.txt", "ask"}, {"shred /dev/sda", "deny"}, {"shred --random-source=.env a.txt", "deny"},
				{"shred -y a.txt", "ask"}}},
		// dd [OPERAND]...: NAME=VALUE each (ddOperands); its only options
		// are --help and --version (model_write.go: dd).
		"dd": {grammar: gnuGrammar, rows: gnuInfoRows, operands: kWord,
			examples: []example{{"dd if=a.txt of=b.txt bs=1M", "ask"}, {"dd if=/dev/zero of=/dev/sda", "deny"}, {"dd if=.env of=x", "deny"},
				{"dd if=a.txt of=/dev/null status=none", "ask"}, {"dd foo=bar", "ask"}, {"dd -x", "ask"}}},
		// kill: bash's builtin, which reads -s SIG, -n NUM, -l, -L and one
		// signal written -SIG or -NUM; the list also holds the options of
		// procps's kill, which --help lists (model_write.go: kill).
		"kill": {grammar: grammar{digits: true}, rows: writerKillRows, operands: kWord,
			examples: []example{{"kill 123", "ask"}, {"kill -9 -1", "deny"}, {"kill -KILL -1", "deny"}, {"kill -s KILL -1", "deny"},
				{"kill -sHUP -- -1", "deny"}, {"kill -9 -s 1 -1", "deny"}, {"kill -1", "ask"}, {"kill -l", "ask"}, {"kill -TERM 12 -1", "deny"}}},
		// rsync [OPTION]... SRC... [DEST]: a remote operand reaches the
		// network; the sources are read and the last operand written
		// (model_write.go: rsync).
		"rsync": {grammar: grammar{permute: true}, rows: writerRsyncRows, operands: kCopy,
			examples: []example{{"rsync -a src/ backup/", "ask"}, {"rsync -avz --delete src/ host:/backup", "deny"}, {"rsync rsync://host/m .", "deny"},
				{"rsync -e 'ssh -p 2' src/ b/", "ask"}, {"rsync .env b/", "deny"}, {"rsync --log-file=.env src/ b/", "deny"},
				{"rsync --files-from=l src/ b/", "ask"}, {"rsync --fo src/ b/", "ask"}}},
	})
})

// writerSpec is the spec of a writer that takes no word before its
// operands, which are of the kind ops.
func writerSpec(rows []optRow, ops kind, ex ...example) *spec {
	return &spec{grammar: gnuGrammar, rows: rows, operands: ops, ask: "changes files", bareWhy: "changes files", examples: ex}
}

// writerRecursiveCritical are the danger rows of chmod, chown and chgrp:
// a critical path changed recursively is denied.
var writerRecursiveCritical = []danger{{test: dCritical, when: "-R --recursive", rule: RuleDangerousRecursiveCritical,
	why: "changes the critical path %s recursively"}}

// writerBackupRows are the backup options of cp, mv, install and ln:
// each destination they replace is first renamed beside itself.
var writerBackupRows = []optRow{
	{"--backup[=]", kWord, ""},
	{"-b", kFlag, ""},
	{"-S= --suffix=", kWord, ""},
}

// writerTargetRows are the options of cp, mv, install and ln that say
// where the operands go.
var writerTargetRows = []optRow{
	{"-t= --target-directory=", kTargetDir, ""},
	{"-T --no-target-directory", kFlag, ""},
}

// writerCpRows are the options of cp. -i prompts on its input, which is
// not a terminal; -l and -s make links in place of copies (their sources
// are judged as read all the same).
var writerCpRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-a --archive", kRecurse, ""},
		{"--attributes-only", kFlag, ""},
		{"--copy-contents", kFlag, ""},
		{"-d", kFlag, ""},
		{"-f --force", kFlag, ""},
		{"-i --interactive", kFlag, ""},
		{"-H", kFlag, ""},
		{"-l --link", kFlag, ""},
		{"-L --dereference", kFlag, ""},
		{"-n --no-clobber", kFlag, ""},
		{"-P --no-dereference", kFlag, ""},
		{"-p", kFlag, ""},
		{"--preserve[=]", kWord, ""},
		{"--no-preserve=", kWord, ""},
		{"--parents", kFlag, ""},
		{"-R -r --recursive", kRecurse, ""},
		{"--reflink[=]", kWord, ""},
		{"--remove-destination", kFlag, ""},
		{"--sparse=", kWord, ""},
		{"--strip-trailing-slashes", kFlag, ""},
		{"-s --symbolic-link", kFlag, ""},
		{"-u --update", kFlag, ""},
		{"-v --verbose", kFlag, ""},
		{"-x --one-file-system", kFlag, ""},
		{"-Z", kFlag, ""},
		{"--context[=]", kWord, ""},
	}, writerBackupRows, writerTargetRows, gnuInfoRows)
})

// writerMvRows are the options of mv.
var writerMvRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-f --force", kFlag, ""},
		{"-i --interactive", kFlag, ""},
		{"-n --no-clobber", kFlag, ""},
		{"--strip-trailing-slashes", kFlag, ""},
		{"-u --update", kFlag, ""},
		{"-v --verbose", kFlag, ""},
		{"-Z --context", kFlag, ""},
	}, writerBackupRows, writerTargetRows, gnuInfoRows)
})

// writerInstallRows are the options of install. -s runs strip on what it
// installs, --strip-program names the program it runs for it.
var writerInstallRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-c", kFlag, ""},
		{"-C --compare", kFlag, ""},
		{"-d --directory", kFlag, ""},
		{"-D", kFlag, ""},
		{"-g= --group=", kWord, ""},
		{"-m= --mode=", kWord, ""},
		{"-o= --owner=", kWord, ""},
		{"-p --preserve-timestamps", kFlag, ""},
		{"-s --strip", kProgram, "runs strip on the files it installs"},
		{"--strip-program=", kProgram, "names the program it runs on the files it installs"},
		{"-v --verbose", kFlag, ""},
		{"--preserve-context", kFlag, ""},
		{"-Z", kFlag, ""},
		{"--context[=]", kWord, ""},
	}, writerBackupRows, writerTargetRows, gnuInfoRows)
})

// writerLnRows are the options of ln.
var writerLnRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-d -F --directory", kFlag, ""},
		{"-f --force", kFlag, ""},
		{"-i --interactive", kFlag, ""},
		{"-L --logical", kFlag, ""},
		{"-n --no-dereference", kFlag, ""},
		{"-P --physical", kFlag, ""},
		{"-r --relative", kFlag, ""},
		{"-s --symbolic", kFlag, ""},
		{"-v --verbose", kFlag, ""},
	}, writerBackupRows, writerTargetRows, gnuInfoRows)
})

// writerTouchRows are the options of touch: -r takes the times of a file
// it reads.
var writerTouchRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-a", kFlag, ""},
		{"-c --no-create", kFlag, ""},
		{"-d= --date=", kWord, ""},
		{"-f", kFlag, ""},
		{"-h --no-dereference", kFlag, ""},
		{"-m", kFlag, ""},
		{"-r= --reference=", kRead, ""},
		{"-t=", kWord, ""},
		{"--time=", kWord, ""},
	}, gnuInfoRows)
})

// writerMkdirRows are the options of mkdir.
var writerMkdirRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-m= --mode=", kWord, ""},
		{"-p --parents", kFlag, ""},
		{"-v --verbose", kFlag, ""},
		{"-Z", kFlag, ""},
		{"--context[=]", kWord, ""},
	}, gnuInfoRows)
})

// writerTruncateRows are the options of truncate: -r takes the size of a
// file it reads.
var writerTruncateRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-c --no-create", kFlag, ""},
		{"-o --io-blocks", kFlag, ""},
		{"-r= --reference=", kRead, ""},
		{"-s= --size=", kWord, ""},
	}, gnuInfoRows)
})

// writerRmdirRows are the options of rmdir.
var writerRmdirRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"--ignore-fail-on-non-empty", kFlag, ""},
		{"-p --parents", kFlag, ""},
		{"-v --verbose", kFlag, ""},
	}, gnuInfoRows)
})

// writerTeeRows are the options of tee.
var writerTeeRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-a --append", kFlag, ""},
		{"-i --ignore-interrupts", kFlag, ""},
		{"-p", kFlag, ""},
		{"--output-error[=]", kWord, ""},
	}, gnuInfoRows)
})

// writerOwnerRows are the options chmod, chown and chgrp share; -R
// changes the trees below the operands. --reference takes the mode or
// owner of a file it reads.
var writerOwnerRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-c --changes", kFlag, ""},
		{"-f --silent --quiet", kFlag, ""},
		{"-v --verbose", kFlag, ""},
		{"--no-preserve-root", kFlag, ""},
		{"--preserve-root", kFlag, ""},
		{"--reference=", kRead, ""},
		{"-R --recursive", kRecurse, ""},
	}, gnuInfoRows)
})

// writerChownRows are the options of chown.
var writerChownRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"--dereference", kFlag, ""},
		{"-h --no-dereference", kFlag, ""},
		{"--from=", kWord, ""},
		{"-H", kFlag, ""},
		{"-L", kFlag, ""},
		{"-P", kFlag, ""},
	}, writerOwnerRows())
})

// writerChgrpRows are the options of chgrp.
var writerChgrpRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"--dereference", kFlag, ""},
		{"-h --no-dereference", kFlag, ""},
		{"-H", kFlag, ""},
		{"-L", kFlag, ""},
		{"-P", kFlag, ""},
	}, writerOwnerRows())
})

// writerChmodRows are the options of chmod. Its getopt also reads a mode
// that starts with "-" ("-w", "-rwx", "-u+x", "-755"): each letter a mode
// may start with is an option whose value, attached, is the rest of the
// mode, which is then not an operand.
var writerChmodRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-r[=]", kWord, ""}, {"-w[=]", kWord, ""}, {"-x[=]", kWord, ""}, {"-X[=]", kWord, ""}, {"-s[=]", kWord, ""},
		{"-t[=]", kWord, ""}, {"-u[=]", kWord, ""}, {"-g[=]", kWord, ""}, {"-o[=]", kWord, ""}, {"-a[=]", kWord, ""},
	}, writerOwnerRows())
})

// writerRmRows are the options of rm. -i and -I prompt on its input,
// which is not a terminal.
var writerRmRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-f --force", kFlag, ""},
		{"-i", kFlag, ""},
		{"-I", kFlag, ""},
		{"--interactive[=]", kWord, ""},
		{"--one-file-system", kFlag, ""},
		{"--no-preserve-root", kDeny, "allows removing /"},
		{"--preserve-root[=]", kWord, ""},
		{"-r -R --recursive", kRecurse, ""},
		{"-d --dir", kFlag, ""},
		{"-v --verbose", kFlag, ""},
	}, gnuInfoRows)
})

// writerShredRows are the options of shred: --random-source is a file it
// reads.
var writerShredRows = sync.OnceValue(func() []optRow {
	return rows([]optRow{
		{"-f --force", kFlag, ""},
		{"-n= --iterations=", kWord, ""},
		{"--random-source=", kRead, ""},
		{"-s= --size=", kWord, ""},
		{"-u", kFlag, ""},
		{"--remove[=]", kWord, ""},
		{"-v --verbose", kFlag, ""},
		{"-x --exact", kFlag, ""},
		{"-z --zero", kFlag, ""},
	}, gnuInfoRows)
})

// ddOperands are dd's operands, NAME=VALUE each, by what the value is:
// if= is the file read, of= the file written.
var ddOperands = sync.OnceValue(func() map[string]kind {
	return map[string]kind{
		"if": kRead, "of": kWrite,
		"bs": kWord, "cbs": kWord, "conv": kWord, "count": kWord, "ibs": kWord, "iflag": kWord, "obs": kWord,
		"oflag": kWord, "seek": kWord, "oseek": kWord, "skip": kWord, "iseek": kWord, "status": kWord,
	}
})

// writerKillRows are the options of kill: bash's -s, -n, -l and -L, and
// procps's long spellings, -q and -h, -V.
var writerKillRows = []optRow{
	{"-s= --signal=", kWord, ""},
	{"-n=", kWord, ""},
	{"-q= --queue=", kWord, ""},
	{"-l --list[=]", kFlag, ""},
	{"-L --table", kFlag, ""},
	{"-h --help", kFlag, ""},
	{"-V --version", kFlag, ""},
}

// writerRsyncRows are the options of rsync (popt: exact long names, options
// after operands). -e names the remote shell it runs; the files it reads
// and writes besides its operands are read and written; the options that
// read names or rules from elsewhere, pass options to the other side, run
// the daemon or its protocol, or remove what they send ask.
var writerRsyncRows = []optRow{
	{"-V --version", kFlag, ""},
	{"-v --verbose", kFlag, ""},
	{"-q --quiet", kFlag, ""},
	{"-h --human-readable", kFlag, ""},
	{"-n --dry-run", kFlag, ""},
	{"-a --archive", kFlag, ""},
	{"-r --recursive", kFlag, ""},
	{"-d --dirs", kFlag, ""},
	{"-p --perms", kFlag, ""},
	{"-E --executability", kFlag, ""},
	{"-A --acls", kFlag, ""},
	{"-X --xattrs", kFlag, ""},
	{"-t --times", kFlag, ""},
	{"-U --atimes", kFlag, ""},
	{"-N --crtimes", kFlag, ""},
	{"-O --omit-dir-times", kFlag, ""},
	{"-J --omit-link-times", kFlag, ""},
	{"-o --owner", kFlag, ""},
	{"-g --group", kFlag, ""},
	{"-l --links", kFlag, ""},
	{"-L --copy-links", kFlag, ""},
	{"-k --copy-dirlinks", kFlag, ""},
	{"-K --keep-dirlinks", kFlag, ""},
	{"-H --hard-links", kFlag, ""},
	{"-R --relative", kFlag, ""},
	{"-I --ignore-times", kFlag, ""},
	{"-x --one-file-system", kFlag, ""},
	{"-u --update", kFlag, ""},
	{"-S --sparse", kFlag, ""},
	{"-C --cvs-exclude", kFlag, ""},
	{"-W --whole-file", kFlag, ""},
	{"-c --checksum", kFlag, ""},
	{"-y --fuzzy", kFlag, ""},
	{"-z --compress", kFlag, ""},
	{"-m --prune-empty-dirs", kFlag, ""},
	{"-i --itemize-changes", kFlag, ""},
	{"-b --backup", kFlag, ""},
	{"-s --secluded-args", kFlag, ""},
	{"-0 --from0", kFlag, ""},
	{"-4 --ipv4", kFlag, ""},
	{"-6 --ipv6", kFlag, ""},
	{"-8 --8-bit-output", kFlag, ""},
	{"-D -F -P", kFlag, ""},
	{"--help --msgs2stderr --motd --stats --inc-recursive --i-r --old-dirs --old-d --open-noatime --super --fake-super --devices --copy-devices --write-devices --specials --copy-unsafe-links --safe-links --munge-links --implied-dirs --i-d --size-only --existing --ignore-non-existing --ignore-existing --preallocate --inplace --append --append-verify --del --delete --delete-before --delete-during --delete-delay --delete-after --delete-excluded --delete-missing-args --ignore-missing-args --force --ignore-errors --old-compress --new-compress --progress --partial --delay-updates --list-only --old-args --protect-args --trust-sender --numeric-ids --fsync --mkpath --qsort --blocking-io", kFlag, ""},
	{"--no-verbose --no-v --no-msgs2stderr --no-motd --no-human-readable --no-h --no-recursive --no-r --no-inc-recursive --no-i-r --no-dirs --no-d --no-perms --no-p --no-acls --no-A --no-xattrs --no-X --no-times --no-t --no-atimes --no-U --no-open-noatime --no-crtimes --no-N --no-omit-dir-times --no-O --no-omit-link-times --no-J --no-super --no-owner --no-o --no-group --no-g --no-D --no-devices --no-write-devices --no-specials --no-links --no-l --no-munge-links --no-hard-links --no-H --no-relative --no-R --no-implied-dirs --no-i-d --no-one-file-system --no-x --no-sparse --no-S --no-inplace --no-append --no-force --no-ignore-errors --no-whole-file --no-W --no-checksum --no-c --no-fuzzy --no-y --no-compress --no-z --no-progress --no-partial --no-delay-updates --no-prune-empty-dirs --no-m --no-itemize-changes --no-i --no-bwlimit --no-backup --no-from0 --no-old-args --no-secluded-args --no-protect-args --no-s --no-numeric-ids --no-timeout --no-contimeout --no-iconv --no-8-bit-output --no-8 --no-mkpath --no-blocking-io", kFlag, ""},
	{"-e= --rsh=", kProgram, "runs the remote shell its value names"},
	{"-@= --modify-window=", kWord, ""},
	{"-B= --block-size=", kWord, ""},
	{"--info= --debug= --stderr= --chmod= --max-size= --min-size= --max-alloc= --max-delete= --checksum-choice= --cc= --compress-choice= --zc= --skip-compress= --compress-level= --zl= --log-file-format= --out-format= --log-format= --bwlimit= --suffix= --usermap= --groupmap= --chown= --timeout= --contimeout= --stop-after= --time-limit= --stop-at= --rsync-path= --iconv= --copy-as= --address= --port= --sockopts= --outbuf= --protocol= --checksum-seed=", kWord, ""},
	{"--exclude= --include=", kPattern, ""},
	{"--exclude-from= --include-from= --read-batch= --password-file= --early-input= --compare-dest= --copy-dest= --link-dest=", kRead, ""},
	{"--log-file=", kWrite, "its log"},
	{"--write-batch= --only-write-batch=", kWrite, "a batch file"},
	{"-T= --temp-dir= --partial-dir= --backup-dir=", kWrite, "into a directory"},
	{"--files-from=", kAsk, "names the files it copies in a file, which are not judged here"},
	{"-f= --filter=", kAsk, "gives filter rules, which may merge rules from other files"},
	{"-M= --remote-option=", kAsk, "passes options to the other side of the transfer, which are not judged here"},
	{"--remove-source-files --remove-sent-files", kAsk, "removes the files it sends"},
	{"--config= --dparam= --daemon --detach --no-detach", kAsk, "runs the rsync daemon"},
	{"--server --sender", kAsk, "runs one side of a transfer, reading the protocol from its input"},
}
