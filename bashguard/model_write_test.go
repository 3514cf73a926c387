package bashguard

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The writers and the wrappers read their options as the tools do, by
// their specs: attached values, clusters, unique prefixes of long
// options, --opt=value, and values that begin with "-"; an option the
// spec does not list asks, naming it. Each case gives the decision, the
// rule and a part of the reason.
func TestWriterWrapperSpellings(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	for _, tc := range []struct{ line, decision, rule, reason string }{
		// -t DIR, however it is written, is the directory written into.
		{"cp --targ .env a.txt", "deny", "path:secret", "cp: reaches .env"},
		{"cp --target-directory=.env a.txt", "deny", "path:secret", "cp: reaches .env"},
		{"cp -rt src .env", "deny", "path:secret", "cp: reads .env"},
		{"cp -t -x a.txt", "ask", "write:cp", "cp: writes -x (inside the allowed roots)"},
		{"mv -t src .env", "deny", "path:secret", "mv: reads .env"},
		{"mv --targ=src a.txt", "ask", "write:mv", "mv: writes src (inside the allowed roots)"},
		{"ln -s .env", "deny", "path:secret", "ln: reaches .env"},
		// A file whose times, size or mode are taken is read.
		{"touch --refer=.env a.txt", "deny", "path:secret", "touch: reads .env"},
		{"touch -cr .env a.txt", "deny", "path:secret", "touch: reads .env"},
		{"touch -d yesterday -r.env a.txt", "deny", "path:secret", "touch: reads .env"},
		{"truncate --ref .env a.txt", "deny", "path:secret", "truncate: reads .env"},
		{"chmod --ref=.env a.txt", "deny", "path:secret", "chmod: reads .env"},
		// chmod's mode written as an option is no operand.
		{"chmod -x a.txt", "ask", "write:chmod", "chmod: writes a.txt (inside the allowed roots)"},
		{"chmod -u+x .env", "deny", "path:secret", "chmod: reaches .env"},
		{"chmod -Rv 777 /", "deny", "dangerous:recursive-critical", "chmod: changes the critical path / recursively"},
		{"chmod --recur -w /", "deny", "dangerous:recursive-critical", "chmod: changes the critical path / recursively"},
		{"chown -R root /", "deny", "dangerous:recursive-critical", "chown: changes the critical path / recursively"},
		// Options that run programs, and options not listed, ask.
		{"install -Dst src a.txt", "ask", "args:install", "install option -s (written -Dst), which runs strip"},
		{"install --strip-prog=x a b", "ask", "args:install", "install option --strip-program (written --strip-prog=x)"},
		{"cp --foo a.txt b.txt", "ask", "args:cp", "cp option --foo, which is not known to be harmless"},
		{"cp --re a.txt b.txt", "ask", "args:cp", "cp option --re, which is an abbreviation of more than one option"},
		{"tee --app .env", "deny", "path:secret", "tee: reaches .env"},
		{"tee -ai", "allow", "safe", "every command is read-only"},
		// The wrappers' own options end at the command they run.
		{"nice --adj 5 cat .env", "deny", "path:secret", "nice: runs cat: reads .env"},
		{"nice -n -5 cat a.txt", "allow", "safe", "every command is read-only"},
		{"nice -5 cat a.txt", "allow", "safe", "every command is read-only"},
		{"nice --foo ls", "ask", "args:nice", "nice option --foo, which is not known to be harmless"},
		{"timeout -k5 1 cat .env", "deny", "path:secret", "timeout: runs cat: reads .env"},
		{"timeout --sig KILL 1 cat a.txt", "allow", "safe", "every command is read-only"},
		{"timeout -s -x 1 cat a.txt", "allow", "safe", "every command is read-only"},
		{"timeout 5 -s KILL cat a.txt", "ask", "unlisted", "timeout: runs -s"},
		{"stdbuf --outp=L cat .env", "deny", "path:secret", "stdbuf: runs cat: reads .env"},
		{`\time --outp x.txt cat a.txt`, "ask", "write:time", "time --output (written --outp) writes its report"},
		{`\time -o .env cat a.txt`, "deny", "path:secret", "time: reaches .env"},
		{`\time -fo x.txt cat`, "ask", "unlisted", "time: runs x.txt"},
		// flock FILE -c CODE, and -c before the file (which flock
		// refuses) are judged as code; the file is written.
		{"flock l -c 'cat .env'", "deny", "path:secret", "cat: reads .env"},
		{"flock --comm 'rm x' l", "ask", "write:rm", "rm: writes x"},
		{"flock l --command 'cat a.txt'", "ask", "write:flock", "flock: writes l"},
		{"flock 9", "ask", "args:flock", "flock: no command given"},
		{"watch -xn 1 cat .env", "deny", "path:secret", "watch: runs cat: reads .env"},
		{"watch --int=1 ls", "ask", "wrapper:watch", "watch runs shell code"},
		{"setsid --wa cat a.txt", "ask", "wrapper:setsid", "starts a new session"},
		{"command -V ./.env", "deny", "path:secret", "command: reads ./.env"},
		{"exec -ca x cat .env", "deny", "path:secret", "exec: runs cat: reads .env"},
		// env: clusters, -u's value, "-" and the assignments.
		{"env -0u -x -i cat a.txt", "allow", "safe", "every command is read-only"},
		{"env -vi cat .env", "deny", "path:secret", "env: runs cat: reads .env"},
		{"env --unset PATH cat a.txt", "allow", "safe", "every command is read-only"},
		{"env - PATH=/tmp ls", "ask", "env:assign", "env: assignment to PATH"},
		{"env -vS 'cat a.txt'", "ask", "code:env-split", "env: splits a string into a command line (-S), which is not analysed"},
		{"env --ch=src ls", "ask", "args:env", "env: runs the command in another directory (-C)"},
		{"env --ign cat a.txt", "ask", "args:env", "env option --ign, which is an abbreviation of more than one option"},
		{"env --ign cat .env", "deny", "path:secret", "env: runs cat: reads .env"},
		{"env --block-signal=INT cat a.txt", "ask", "args:env", "env option --block-signal, which changes what the signals"},
		// An Ask no allow rule lifts (an option not listed, a secret
		// written) hides no Deny the words carry.
		{"cp --foo .env x", "deny", "path:secret", "cp: reads .env"},
		{"chmod -rf .env", "deny", "path:secret", "chmod: reaches .env"},
		{"flock --command cat .env", "deny", "path:secret", "flock: reaches .env"},
		// Values read as the tools read them: "--" before timeout's
		// duration, touch -t's stamp, cp --sparse's WHEN.
		{"timeout -- 5 cat a.txt", "allow", "safe", "every command is read-only"},
		{"touch -t / a.txt", "ask", "write:touch", "touch: writes a.txt (inside the allowed roots)"},
		{"cp --sparse / a.txt", "ask", "write:cp", "cp: writes a.txt (inside the allowed roots)"},
	} {
		v := g.Judge(context.Background(), dir, paths, tc.line)
		assert.Equal(t, tc.decision, v.Decision.String(), "%q (%s)", tc.line, v.Reason)
		assert.Equal(t, tc.rule, string(v.Rule), "%q (%s)", tc.line, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%q", tc.line)
	}
}

// xargs reads its options by its spec: clusters, attached values, unique
// prefixes, the optional values of -e, -i and -l; an option not listed
// asks, naming it. Where its input is what find prints, the options that
// keep the names whole let the command be judged on them.
func TestXargsSpellings(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	for _, tc := range []struct{ line, decision, rule, reason string }{
		{"xargs -a.env cat", "deny", "path:secret", "xargs: reads .env"},
		{"xargs --arg-f .env", "deny", "path:secret", "xargs: reads .env"},
		{"xargs -ra .env", "deny", "path:secret", "xargs: reads .env"},
		{"xargs -rn1a .env", "deny", "path:secret", "xargs: reaches .env"}, // -n takes "1a": .env is the command
		{"xargs -- cat .env", "deny", "path:secret", "xargs: runs cat: reads .env"},
		{"xargs -i cat .env", "deny", "path:secret", "xargs: runs cat: reads .env"},
		{"xargs -I {} cat a.txt", "ask", "wrapper:xargs", "xargs: runs cat with arguments read from its input, which cannot be checked"},
		{"xargs -e cat a.txt", "ask", "wrapper:xargs", "xargs: runs cat with arguments read from its input"},
		{"xargs -ecat a.txt", "ask", "unlisted", "xargs: runs a.txt"},
		{"xargs --max-lines 5", "ask", "unlisted", "xargs: runs 5"},
		{"xargs --e cat a.txt", "ask", "args:xargs", "xargs option --e, which is an abbreviation of more than one option"},
		{"xargs --foo cat a.txt", "ask", "args:xargs", "xargs option --foo, which is not known to be harmless"},
		{"xargs -y cat a.txt", "ask", "args:xargs", "xargs option -y, which is not known to be harmless"},
		{"xargs --foo cat .env", "deny", "path:secret", "xargs: runs cat: reads .env"},
		{"xargs -to cat a.txt", "ask", "args:xargs", "xargs option -o (written -to), which gives the command the terminal"},
		{"xargs --inter echo", "ask", "args:xargs", "xargs option --interactive (written --inter), which prompts on the terminal"},
		{"xargs -P2 --process-slot=PATH ls", "ask", "env:assign", "--process-slot-var assigns PATH"},
		{"xargs --process-slot-var SLOT ls", "ask", "env:assign", "--process-slot-var assigns SLOT"},
		{"xargs --process-slot-var LC_SLOT ls", "ask", "wrapper:xargs", "xargs: runs ls with arguments read from its input"},
		{"xargs -d, -n 2", "allow", "safe", "every command is read-only"},
		// On what find prints: -r, -0 with -print0, -l and --show-limits
		// keep the names; -I, -a, -d other than a newline, or -0 on
		// names ended by newlines do not. The last of -0 and -d decides.
		{"find src -print0 | xargs -r0 cat", "allow", "safe", "every command is read-only"},
		{"find src | xargs -l cat", "allow", "safe", "every command is read-only"},
		{"find src | xargs --show-limits -t cat", "allow", "safe", "every command is read-only"},
		{"find src | xargs -0 -d '\\n' cat", "allow", "safe", "every command is read-only"},
		{"find src -print0 | xargs -0 -d '\\n' cat", "ask", "wrapper:xargs", "xargs: runs cat with arguments read from its input"},
		{"find src | xargs -d, cat", "ask", "wrapper:xargs", "xargs: runs cat with arguments read from its input"},
		{"find src | xargs -Ix cat x", "ask", "wrapper:xargs", "xargs: runs cat with arguments read from its input"},
		{"find src | xargs -a a.txt cat", "ask", "wrapper:xargs", "xargs: runs cat with arguments read from its input"},
		{"find src | xargs --version cat", "ask", "wrapper:xargs", "xargs: runs cat with arguments read from its input"},
		{"find . | xargs -r cat", "deny", "path:walk", "xargs: runs a command on the files below ., which holds .env"},
		{"find src | xargs -r rm", "ask", "write:rm", "xargs: runs rm: writes src/{}"},
	} {
		v := g.Judge(context.Background(), dir, paths, tc.line)
		assert.Equal(t, tc.decision, v.Decision.String(), "%q (%s)", tc.line, v.Reason)
		assert.Equal(t, tc.rule, string(v.Rule), "%q (%s)", tc.line, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%q", tc.line)
	}
}

// rm, shred, dd, kill and rsync read their options by their specs; each
// keeps what it denies (a critical path, a device, pid -1, a remote).
func TestRmDdKillRsyncSpellings(t *testing.T) {
	dir, paths := specRepo(t)
	g := New(DefaultPolicy())
	for _, tc := range []struct{ line, decision, rule, reason string }{
		{"rm --recur --forc /", "deny", "dangerous:rm-critical", "rm: removes the critical path / recursively or by force"},
		{"rm -vR ~", "deny", "dangerous:rm-critical", "rm: removes the critical path"},
		{"rm --no-pres -f src", "deny", "dangerous:rm-critical", "rm: --no-preserve-root allows removing /"},
		{"rm --interactive=never a.txt", "ask", "write:rm", "rm: writes a.txt (inside the allowed roots)"},
		{"rm -y a.txt", "ask", "args:rm", "rm option -y, which is not known to be harmless"},
		{"rm -y .env", "deny", "path:secret", "rm: reaches .env"},
		{"shred --rand=.env a.txt", "deny", "path:secret", "shred: reads .env"},
		{"shred -n 3 -uz /dev/sda", "deny", "dangerous:disk", "shred: shreds the device /dev/sda"},
		{"shred -n /dev/sda a.txt", "ask", "write:shred", "shred: writes a.txt (inside the allowed roots)"}, // -n takes /dev/sda,
		{"dd if=.env of=x", "deny", "path:secret", "dd: reads .env"},
		{"dd of=/dev/sda if=a.txt", "deny", "dangerous:disk", "dd: writes the device /dev/sda"},
		{"dd foo=bar of=.env", "deny", "path:secret", "dd: reaches .env"},
		{"dd foo=bar", "ask", "args:dd", "dd operand foo=bar, which is not known to be harmless"},
		{"kill -SIGKILL -1", "deny", "dangerous:kill-all", "kill: signals every process the user owns (pid -1)"},
		{"kill -n9 12 -1", "deny", "dangerous:kill-all", "kill: signals every process the user owns (pid -1)"},
		{"kill -l -1", "ask", "unlisted", "kill: sends signals to processes"},
		{"kill -@ -1", "ask", "args:kill", "kill option -@, which is not known to be harmless"},
		{"rsync -essh src/ b/", "ask", "args:rsync", "rsync option -e (written -essh), which runs the remote shell"},
		{"rsync --log-file=.env src/ b/", "deny", "path:secret", "rsync: reaches .env"},
		{"rsync --exclude-from .env src/ b/", "deny", "path:secret", "rsync: reads .env"},
		{"rsync --remove-source-files src/ b/", "ask", "args:rsync", "rsync option --remove-source-files, which removes the files it sends"},
		{"rsync --fo src/ b/", "ask", "args:rsync", "rsync option --fo, which is not known to be harmless"},
		{"rsync -av src/ user@host:b/", "deny", "network:rsync", "rsync: copies to or from the remote user@host:b/"},
	} {
		v := g.Judge(context.Background(), dir, paths, tc.line)
		assert.Equal(t, tc.decision, v.Decision.String(), "%q (%s)", tc.line, v.Reason)
		assert.Equal(t, tc.rule, string(v.Rule), "%q (%s)", tc.line, v.Reason)
		assert.Contains(t, v.Reason, tc.reason, "%q", tc.line)
	}
}
