package claudecode

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// outcome is what became of one tool call.
type outcome string

const (
	ran    outcome = "allow" // it passed every permission check and ran
	asked  outcome = "ask"   // it needed a person (refused in print mode)
	denied outcome = "deny"  // a rule or check refused it
)

// ruleLayout is one set of settings files, run once through Claude Code
// with no hooks: each of its rows is a call of the same run.
type ruleLayout struct {
	name                 string
	user, project, local []string // "allow:Bash(x)", "deny:...", "ask:..."
	files                map[string]string
	mcp                  bool
	// mode is Claude Code's --permission-mode and the event's
	// permission_mode ("default" when empty).
	mode string
}

// ruleRow is one case of the rule-semantics table: a call under a layout's
// settings, what Claude Code does with it (the test observes it and fails
// when the row says otherwise), and what toolgate check answers for the
// same settings and call.
type ruleRow struct {
	layout string
	what   string // the semantics the row holds
	before []step // calls that only prepare this one (a Read before an Edit)
	call   step
	// cwd is the directory, relative to the workspace, that the event
	// names and toolgate check runs in: where a "cd" among the layout's
	// calls left Claude Code's shell (empty: the workspace).
	cwd string
	// noProjectDir runs toolgate check without CLAUDE_PROJECT_DIR, as a
	// client that does not set it.
	noProjectDir bool
	// cc is Claude Code's outcome, observed.
	cc outcome
	// tg is toolgate's decision and why a part of its reason.
	tg  outcome
	why string
}

func bashIn(command string) step { return bash(command) }

func read(p string) step { return call("Read", map[string]any{"file_path": p}) }

func write(p string) step { return call("Write", map[string]any{"file_path": p, "content": "x\n"}) }

func fetchURL(u string) step {
	return call("WebFetch", map[string]any{"url": u, "prompt": "summarise"})
}

// ruleLayouts are the settings the table's rows run under. $WS is the
// workspace (Claude Code's cwd and project root), $HOME the home.
var ruleLayouts = []ruleLayout{
	{name: "bash_deny", project: []string{"deny:Bash(npm:*)", "deny:Bash(ls *)", "deny:Bash(* install)", "deny:Bash(git * main)"}},
	{name: "bash_allow_wrapper", project: []string{"allow:Bash(timeout *)", "allow:Bash(nice:*)"}},
	{name: "bash_allow", project: []string{"allow:Bash(npm:*)", "allow:Bash(touch *)", "allow:Bash(mkdir*)", "allow:Bash(git * main)"}},
	{name: "bash_star", project: []string{"allow:Bash(*)", "deny:Bash(ls*)"}},
	{name: "read_paths", project: []string{"deny:Read(//$ROOT/abs.txt)", "deny:Read(~/home.txt)", "deny:Read(/proj.txt)",
		"deny:Read(rel.txt)", "deny:Read(./dot.txt)", "deny:Read(*.env)", "deny:Read(.secret)", "deny:Read(./deep/**)"},
		user: []string{"deny:Read(/user.txt)"},
		files: map[string]string{"$ROOT/abs.txt": "a\n", "$HOME/home.txt": "h\n", "proj.txt": "p\n", "sub/proj.txt": "p\n",
			"rel.txt": "r\n", "sub/rel.txt": "r\n", "dot.txt": "d\n", "sub/dot.txt": "d\n", "a.env": "e\n", "sub/b.env": "e\n",
			".secret": "s\n", "sub/.secret": "s\n", "deep/x/y.txt": "y\n", "$HOME/.claude/user.txt": "u\n", "user.txt": "u\n"}},
	{name: "edit_paths", project: []string{"deny:Edit(./e1/**)", "deny:Write(./w1/**)", "allow:Edit(./e2/**)", "allow:Write(./w2/**)"},
		files: map[string]string{"e1/f.txt": "f\n", "w1/f.txt": "f\n", "e1/n.ipynb": emptyNotebook, "e2/f.txt": "f\n"}},
	{name: "webfetch", project: []string{"allow:WebFetch(domain:example.com)", "deny:WebFetch(domain:evil.test)", "allow:WebFetch(domain:*.ex.test)"}},
	{name: "scopes", user: []string{"allow:Bash(touch:*)", "deny:Bash(mkdir deny:*)"}, project: []string{"ask:Bash(touch:*)", "allow:Bash(mkdir:*)", "ask:Read(./README.md)"},
		local: []string{"deny:Bash(touch deny.txt)"}},
	{name: "case", user: []string{"allow:Bash(mkdir:*)"}, local: []string{"deny:bash(mkdir:*)"}},
	{name: "bash_more", project: []string{"deny:Bash(npm run test:*)", "deny:Bash(git status)", "deny:Bash(rm:*)"}},
	{name: "outside", user: []string{"allow:Read(~/home.txt)", "allow:Edit(//$ROOT/out/**)", "allow:mcp__e2e"}, mcp: true,
		files: map[string]string{"$HOME/home.txt": "h\n", "$ROOT/out/keep.txt": "k\n"}},
	{name: "mcp_glob", mcp: true, project: []string{"allow:mcp__e2e__*", "deny:mcp__e2e__echo"}},
	{name: "mcp_ask", mcp: true, project: []string{"ask:mcp__e2e"}},
	{name: "mcp_server", mcp: true, user: []string{"allow:mcp__e2e__touch"}, project: []string{"deny:mcp__e2e"}},
	{name: "bash_allow_edits", mode: "acceptEdits", project: []string{"allow:Bash(touch *)"}, files: map[string]string{".git/config": "[core]\n"}},
	{name: "accept_edits", mode: "acceptEdits", files: map[string]string{".git/config": "[core]\n", ".claude/keep.txt": "k\n", "src.txt": "a\n"}},
	{name: "cd_sub", project: []string{"deny:Bash(rm:*)", "deny:WebFetch(domain:evil.test)", "deny:Read(/proj.txt)", "deny:Read(./dot.txt)"},
		files: map[string]string{"sub/x.txt": "x\n", "proj.txt": "p\n", "sub/proj.txt": "p\n", "sub/dot.txt": "d\n"}},
	{name: "agent", project: []string{"deny:Agent(Explore)", "deny:Task(Plan)"}},
}

const emptyNotebook = `{"cells":[{"cell_type":"code","source":"x","metadata":{},"outputs":[],"execution_count":null,"id":"c1"}],"metadata":{},"nbformat":4,"nbformat_minor":5}`

// ruleRows is the table.
var ruleRows = []ruleRow{
	// --- Bash: deny rules
	{layout: "bash_deny", what: "legacy prefix npm:* covers npm test", call: bashIn("npm test"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	{layout: "bash_deny", what: "npm:* covers npm alone", call: bashIn("npm"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	{layout: "bash_deny", what: "npm:* stops at a word boundary: npmx", call: bashIn("npmx test"), cc: asked, tg: asked, why: "npmx: not on the safe list"},
	{layout: "bash_deny", what: "ls * covers ls -la", call: bashIn("ls -la"), cc: denied, tg: denied, why: "Bash(ls *)"},
	{layout: "bash_deny", what: "ls * covers ls alone (the trailing ' *' is optional)", call: bashIn("ls"), cc: denied, tg: denied, why: "Bash(ls *)"},
	{layout: "bash_deny", what: "ls * does not cover lsof", call: bashIn("lsof -v"), cc: ran, tg: ran, why: "lsof prints the open files of processes"},
	{layout: "bash_deny", what: "* install covers pip install", call: bashIn("pip install"), cc: denied, tg: denied, why: "Bash(* install)"},
	{layout: "bash_deny", what: "* install does not cover pip install x", call: bashIn("pip install x"), cc: asked, tg: asked, why: "pip: not on the safe list"},
	{layout: "bash_deny", what: "git * main covers git push origin main", call: bashIn("git push origin main"), cc: denied, tg: denied, why: "Bash(git * main)"},
	{layout: "bash_deny", what: "git * main covers git checkout main", call: bashIn("git checkout main"), cc: denied, tg: denied, why: "Bash(git * main)"},
	{layout: "bash_deny", what: "deny in the second command of a list", call: bashIn("echo hi && npm test"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	{layout: "bash_deny", what: "deny through timeout", call: bashIn("timeout 5 npm test"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	{layout: "bash_deny", what: "deny through nice", call: bashIn("nice npm test"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	{layout: "bash_deny", what: "deny through nohup", call: bashIn("nohup npm test"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	{layout: "bash_deny", what: "deny through time", call: bashIn("time npm test"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	{layout: "bash_deny", what: "deny through stdbuf", call: bashIn("stdbuf -o0 npm test"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	{layout: "bash_deny", what: "deny through an assignment", call: bashIn("FOO=1 npm test"), cc: denied, tg: denied, why: "Bash(npm:*)"},
	// --- Bash: allow rules
	{layout: "bash_allow", what: "legacy prefix npm:* allows npm test", call: bashIn("npm test"), cc: ran, tg: ran, why: "Bash(npm:*)"},
	{layout: "bash_allow", what: "npm:* does not allow npmx", call: bashIn("npmx test"), cc: asked, tg: asked, why: "npmx: not on the safe list"},
	{layout: "bash_allow_wrapper", what: "a rule for the wrapper: timeout *", call: bashIn("timeout 5 mkdir -p w1"), cc: ran, tg: ran, why: "Bash(timeout *)"},
	{layout: "bash_allow_wrapper", what: "a rule for the wrapper: nice:*", call: bashIn("nice mkdir -p w2"), cc: ran, tg: ran, why: "Bash(nice:*)"},
	{layout: "bash_allow_wrapper", what: "a rule for the wrapper runs code", call: bashIn("timeout 5 python3 -c 'open(\"w3\", \"w\")'"), cc: ran, tg: ran, why: "Bash(timeout *)"},
	{layout: "bash_allow", what: "touch * allows touch a.txt", call: bashIn("touch a.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "touch * does not allow touchx", call: bashIn("touchx a"), cc: asked, tg: asked, why: "touchx: not on the safe list"},
	{layout: "bash_allow", what: "mkdir* allows mkdir -p d1", call: bashIn("mkdir -p d1"), cc: ran, tg: ran, why: "Bash(mkdir*)"},
	{layout: "bash_allow", what: "git * main allows git checkout main", call: bashIn("git checkout main"), cc: ran, tg: ran, why: "Bash(git * main)"},
	{layout: "bash_allow", what: "an allowed and an unruled command", call: bashIn("touch b.txt && npx cowsay"), cc: asked, tg: asked, why: "npx: runs cowsay: not on the safe list"},
	{layout: "bash_allow", what: "two allowed commands", call: bashIn("touch c.txt && mkdir -p d2"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through timeout", call: bashIn("timeout 5 touch t1.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through nice", call: bashIn("nice touch t2.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through nohup", call: bashIn("nohup touch t3.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through time", call: bashIn("time touch t4.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through stdbuf", call: bashIn("stdbuf -o0 touch t5.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through an assignment", call: bashIn("FOO=1 touch t6.txt"), cc: asked, tg: asked, why: "assignment to FOO"},
	{layout: "bash_allow", what: "allow through env", call: bashIn("env touch t7.txt"), cc: asked, tg: asked, why: "env: runs touch"},
	{layout: "bash_allow", what: "allow through command", call: bashIn("command touch t8.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through nice -n", call: bashIn("nice -n 5 touch t9.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through timeout -s", call: bashIn("timeout -s KILL 5 touch t10.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through two wrappers", call: bashIn("nohup nice touch t11.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through timeout with a unit", call: bashIn("timeout 5s touch t12.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through stdbuf -oL", call: bashIn("stdbuf -oL touch t13.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through nice -5", call: bashIn("nice -5 touch t14.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through timeout --kill-after", call: bashIn("timeout --kill-after=2 5 touch t15.txt"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through nohup and a redirect", call: bashIn("nohup touch t16.txt > /dev/null"), cc: ran, tg: ran, why: "Bash(touch *)"},
	{layout: "bash_allow", what: "allow through timeout and a redirect to a workspace file", call: bashIn("timeout 5 touch t17.txt > out17.txt"), cc: asked, tg: asked, why: "timeout: writes out17.txt (inside the allowed roots)"},
	{layout: "bash_allow", what: "allow through nohup and an appending redirect", call: bashIn("nohup touch t18.txt >> out18.txt"), cc: asked, tg: asked, why: "nohup: writes out18.txt (inside the allowed roots)"},
	{layout: "bash_allow", what: "allow through timeout and a redirect outside the roots", call: bashIn("timeout 5 touch t19.txt > ../out19.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "bash_allow", what: "allow through timeout and a redirect to a secret file", call: bashIn("timeout 5 touch t20.txt > .env"), cc: asked, tg: asked, why: "secret path"},
	{layout: "bash_allow", what: "allow through timeout and a redirect to settings", call: bashIn("timeout 5 touch t21.txt > .claude/settings.local.json"), cc: asked, tg: asked, why: "protected path"},
	{layout: "bash_allow", what: "a redirect to a workspace file without a wrapper", call: bashIn("touch t22.txt > out22.txt"), cc: asked, tg: asked, why: "touch: writes out22.txt (inside the allowed roots)"},
	{layout: "bash_allow_edits", what: "acceptEdits: a redirect to a workspace file", call: bashIn("touch e1.txt > oute1.txt"), cc: ran, tg: ran, why: "acceptEdits mode: allowed a write inside the allowed roots that would ask (touch: writes oute1.txt"},
	{layout: "bash_allow_edits", what: "acceptEdits: a redirect through timeout", call: bashIn("timeout 5 touch e2.txt > oute2.txt"), cc: ran, tg: ran, why: "acceptEdits mode: allowed a write inside the allowed roots that would ask (timeout: writes oute2.txt"},
	{layout: "bash_allow_edits", what: "acceptEdits: a redirect through nohup", call: bashIn("nohup touch e3.txt >> oute3.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "bash_allow_edits", what: "acceptEdits: a redirect through timeout outside the roots", call: bashIn("timeout 5 touch e4.txt > ../oute4.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "bash_allow_edits", what: "acceptEdits: a redirect through timeout to a secret file", call: bashIn("timeout 5 touch e5.txt > .env"), cc: ran, tg: asked, why: "secret path"},
	{layout: "bash_allow_edits", what: "acceptEdits: a redirect through timeout to settings", call: bashIn("timeout 5 touch e6.txt > .claude/settings.local.json"), cc: asked, tg: asked, why: "protected path"},
	{layout: "bash_allow_edits", what: "acceptEdits: a redirect to the repository's config", call: bashIn("touch e7.txt > .git/config"), cc: asked, tg: asked, why: "protected path"},
	{layout: "bash_allow_edits", what: "acceptEdits: an allowed command outside the roots", call: bashIn("touch ../e8.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "bash_allow_edits", what: "acceptEdits: mkdir with no rule", call: bashIn("mkdir e9"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "bash_allow_edits", what: "acceptEdits: echo and a redirect with no rule", call: bashIn("echo x > oute10.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	// --- acceptEdits without allow rules: what the mode lifts
	{layout: "accept_edits", what: "mkdir in the workspace", call: bashIn("mkdir newdir"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "mkdir -p in the workspace", call: bashIn("mkdir -p nd/a/b"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "touch in the workspace", call: bashIn("touch a1.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "cp in the workspace", call: bashIn("cp src.txt c1.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "mv in the workspace", call: bashIn("mv c1.txt c2.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "rm in the workspace", call: bashIn("rm c2.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "rmdir in the workspace", call: bashIn("rmdir newdir"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "rm -rf in the workspace", call: bashIn("rm -rf nd"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "sed -i in the workspace", call: bashIn("sed -i 's/a/b/' src.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "a redirect in the workspace", call: bashIn("echo x > out1.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "an appending redirect in the workspace", call: bashIn("echo x >> out1.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "a read and a redirect in the workspace", call: bashIn("cat README.md > out4.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "tee in the workspace", call: bashIn("echo x | tee out2.txt"), cc: asked, tg: asked, why: "tee: writes out2.txt"},
	{layout: "accept_edits", what: "truncate in the workspace", call: bashIn("truncate -s 0 out1.txt"), cc: asked, tg: asked, why: "truncate: writes out1.txt"},
	{layout: "accept_edits", what: "ln in the workspace", call: bashIn("ln -s src.txt l1"), cc: asked, tg: asked, why: "ln: writes l1"},
	{layout: "accept_edits", what: "chmod in the workspace", call: bashIn("chmod 644 src.txt"), cc: asked, tg: asked, why: "chmod: writes src.txt"},
	{layout: "accept_edits", what: "two filesystem commands", call: bashIn("mkdir d4 && touch d4/f.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "a filesystem command through timeout", call: bashIn("timeout 5 mkdir w1"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "a command that runs code", call: bashIn("python3 -c 'open(\"p1\", \"w\")'"), cc: asked, tg: asked, why: "python3: runs inline program text"},
	{layout: "accept_edits", what: "touch with an option", call: bashIn("touch -c a1.txt"), cc: asked, tg: asked, why: "touch: writes a1.txt"},
	{layout: "accept_edits", what: "touch through timeout", call: bashIn("timeout 5 touch t2.txt"), cc: asked, tg: asked, why: "timeout: runs touch"},
	{layout: "accept_edits", what: "mkdir through nice", call: bashIn("nice mkdir d7"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "mkdir through env", call: bashIn("env mkdir d8"), cc: asked, tg: asked, why: "env: runs mkdir"},
	{layout: "accept_edits", what: "mkdir after an assignment", call: bashIn("FOO=1 mkdir d9"), cc: asked, tg: asked, why: "assignment to FOO"},
	{layout: "accept_edits", what: "mkdir and a redirect", call: bashIn("mkdir d10 > out10.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "tee and a redirect", call: bashIn("echo x | tee out11.txt > out12.txt"), cc: asked, tg: asked, why: "tee: writes"},
	{layout: "accept_edits", what: "a filesystem command and an unknown one", call: bashIn("mkdir d11 && npx cowsay"), cc: asked, tg: asked, why: "npx: runs cowsay: not on the safe list"},
	{layout: "accept_edits", what: "sed -i with a w command", call: bashIn("sed -i 's/a/b/w out13.txt' src.txt"), cc: asked, tg: asked, why: "sed script writes a file"},
	{layout: "accept_edits", what: "sed -i with an e command", call: bashIn("sed -i '1e id' src.txt"), cc: asked, tg: asked, why: "sed script runs commands"},
	{layout: "accept_edits", what: "cp -r in the workspace", call: bashIn("cp -r src d12"), cc: asked, tg: asked, why: "cp: writes d12"},
	{layout: "accept_edits", what: "mv with a glob", call: bashIn("mv src/*.go d4/"), cc: asked, tg: asked, why: "mv: writes"},
	{layout: "accept_edits", what: "rm of a variable's path", call: bashIn("rm -f $PWD/a1.txt"), cc: asked, tg: asked, why: "rm: writes"},
	{layout: "accept_edits", what: "a redirect of find's list", call: bashIn("find . -name '*.txt' > list.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "printf and a redirect in a subdirectory", call: bashIn("printf 'a\\n' > notes/p.txt"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "a here-document to a file", call: bashIn("cat > h.txt <<'EOF'\nhello\nEOF"), cc: ran, tg: ran, why: "acceptEdits mode"},
	{layout: "accept_edits", what: "mv with an option", call: bashIn("mv -f c9.txt c10.txt"), cc: asked, tg: asked, why: "mv: writes"},
	{layout: "accept_edits", what: "a redirect through .. after a directory", call: bashIn("echo x > notes/../out14.txt"), cc: asked, tg: asked, why: "echo: writes notes/../out14.txt"},
	{layout: "accept_edits", what: "a redirect of a command that runs code", call: bashIn("python3 -c 'print(1)' > out15.txt"), cc: asked, tg: asked, why: "python3"},
	{layout: "accept_edits", what: "touch under .claude", call: bashIn("touch .claude/x"), cc: asked, tg: asked, why: "protected path"},
	{layout: "accept_edits", what: "cp into .claude", call: bashIn("cp src.txt .claude/c.txt"), cc: asked, tg: asked, why: "protected path"},
	{layout: "accept_edits", what: "a redirect to .git/config", call: bashIn("echo x > .git/config"), cc: asked, tg: asked, why: "protected path"},
	{layout: "accept_edits", what: "sed -i of .git/config", call: bashIn("sed -i 's/a/b/' .git/config"), cc: asked, tg: asked, why: "protected path"},
	{layout: "accept_edits", what: "touch a secret", call: bashIn("touch .env"), cc: ran, tg: denied, why: "secret path"},
	{layout: "accept_edits", what: "a redirect to a secret", call: bashIn("echo x > .env"), cc: ran, tg: asked, why: "secret path"},
	{layout: "accept_edits", what: "cp to a secret name", call: bashIn("cp src.txt .env.prod"), cc: ran, tg: denied, why: "secret path"},
	{layout: "accept_edits", what: "touch outside the roots", call: bashIn("touch ../x1.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "accept_edits", what: "mkdir outside the roots", call: bashIn("mkdir ../outdir1"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "accept_edits", what: "cp outside the roots", call: bashIn("cp src.txt ../c3.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "accept_edits", what: "rm outside the roots", call: bashIn("rm ../nothing.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "accept_edits", what: "a redirect outside the roots", call: bashIn("echo x > ../x2.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "accept_edits", what: "a redirect to /tmp", call: bashIn("echo x > /tmp/toolgate-e2e-accept.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "accept_edits", what: "touch in /tmp", call: bashIn("touch /tmp/toolgate-e2e-accept2.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	{layout: "accept_edits", what: "touch a variable's path", call: bashIn("touch $HOME/x3.txt"), cc: asked, tg: denied, why: "outside the allowed roots"},
	// --- Bash(*) and ls*
	{layout: "bash_star", what: "Bash(*) allows every command", call: bashIn("touch s.txt"), cc: ran, tg: ran, why: "allowed by allow rule Bash ("},
	{layout: "bash_star", what: "ls* covers lsof", call: bashIn("lsof -v"), cc: denied, tg: denied, why: "Bash(ls*)"},
	{layout: "bash_star", what: "ls* covers ls -la", call: bashIn("ls -la"), cc: denied, tg: denied, why: "Bash(ls*)"},
	// --- Read paths
	{layout: "read_paths", what: "//abs is absolute", call: read("$ROOT/abs.txt"), cc: denied, tg: denied, why: "outside every root"},
	{layout: "read_paths", what: "~/x is under the home", call: read("$HOME/home.txt"), cc: denied, tg: denied, why: "outside every root"},
	{layout: "read_paths", what: "/x in project settings is under the project root", call: read("$WS/proj.txt"), cc: denied, tg: denied, why: "Read(/proj.txt)"},
	{layout: "read_paths", what: "/x in project settings is not at any depth", call: read("$WS/sub/proj.txt"), cc: ran, tg: ran, why: "the default for read tools is allow"},
	{layout: "read_paths", what: "/x in user settings is not under the project", call: read("$WS/user.txt"), cc: ran, tg: ran, why: "the default for read tools is allow"},
	{layout: "read_paths", what: "/x in user settings is under ~/.claude", call: read("$HOME/.claude/user.txt"), cc: denied, tg: denied, why: "outside every root"},
	{layout: "read_paths", what: "x is relative to the cwd", call: read("$WS/rel.txt"), cc: denied, tg: denied, why: "Read(rel.txt)"},
	{layout: "read_paths", what: "x without a slash at any depth", call: read("$WS/sub/rel.txt"), cc: denied, tg: denied, why: "Read(rel.txt)"},
	{layout: "read_paths", what: "./x is relative to the cwd", call: read("$WS/dot.txt"), cc: denied, tg: denied, why: "Read(./dot.txt)"},
	{layout: "read_paths", what: "./x at any depth", call: read("$WS/sub/dot.txt"), cc: denied, tg: denied, why: "Read(./dot.txt)"},
	{layout: "read_paths", what: "*.env at the top", call: read("$WS/a.env"), cc: denied, tg: denied, why: "Read(*.env)"},
	{layout: "read_paths", what: "*.env at any depth", call: read("$WS/sub/b.env"), cc: denied, tg: denied, why: "Read(*.env)"},
	{layout: "read_paths", what: ".secret at the top", call: read("$WS/.secret"), cc: denied, tg: denied, why: "Read(.secret)"},
	{layout: "read_paths", what: ".secret at any depth", call: read("$WS/sub/.secret"), cc: denied, tg: denied, why: "Read(.secret)"},
	{layout: "read_paths", what: "./deep/** below", call: read("$WS/deep/x/y.txt"), cc: denied, tg: denied, why: "Read(./deep/**)"},
	// --- Edit and Write paths
	{layout: "edit_paths", what: "Edit deny covers Write", call: write("$WS/e1/new.txt"), cc: denied, tg: denied, why: "Edit(./e1/**)"},
	{layout: "edit_paths", what: "Edit deny covers Edit", before: []step{read("$WS/e1/f.txt")},
		call: call("Edit", map[string]any{"file_path": "$WS/e1/f.txt", "old_string": "f", "new_string": "g"}), cc: denied, tg: denied, why: "Edit(./e1/**)"},
	{layout: "edit_paths", what: "Edit deny covers NotebookEdit", before: []step{read("$WS/e1/n.ipynb")},
		call: call("NotebookEdit", map[string]any{"notebook_path": "$WS/e1/n.ipynb", "cell_id": "c1", "new_source": "y"}), cc: denied, tg: denied, why: "Edit(./e1/**)"},
	{layout: "edit_paths", what: "Write deny and Write", call: write("$WS/w1/new.txt"), cc: asked, tg: denied, why: "Write(./w1/**)"},
	{layout: "edit_paths", what: "Write deny and Edit", before: []step{read("$WS/w1/f.txt")},
		call: call("Edit", map[string]any{"file_path": "$WS/w1/f.txt", "old_string": "f", "new_string": "g"}), cc: asked, tg: asked, why: "the default for edit tools is ask"},
	{layout: "edit_paths", what: "Edit allow covers Write", call: write("$WS/e2/new.txt"), cc: ran, tg: ran, why: "Edit(./e2/**)"},
	{layout: "edit_paths", what: "Write allow and Write", call: write("$WS/w2/new.txt"), cc: asked, tg: asked, why: "the default for edit tools is ask"},
	// --- WebFetch domains
	{layout: "webfetch", what: "domain:x allows x", call: fetchURL("https://example.com/"), cc: ran, tg: ran, why: "WebFetch(domain:example.com)"},
	{layout: "webfetch", what: "domain:x and a subdomain", call: fetchURL("https://www.example.com/"), cc: asked, tg: asked, why: "the default for network tools is ask"},
	{layout: "webfetch", what: "domain:x and a port", call: fetchURL("https://example.com:8443/"), cc: ran, tg: ran, why: "WebFetch(domain:example.com)"},
	{layout: "webfetch", what: "deny domain:x and a subdomain", call: fetchURL("https://www.evil.test/"), cc: asked, tg: asked, why: "the default for network tools is ask"},
	{layout: "webfetch", what: "deny domain:x and a port", call: fetchURL("https://evil.test:444/"), cc: denied, tg: denied, why: "WebFetch(domain:evil.test)"},
	// --- precedence across scopes, and the tool name's case
	{layout: "scopes", what: "project ask beats user allow", call: bashIn("touch s1.txt"), cc: asked, tg: asked, why: "Bash(touch:*)"},
	{layout: "scopes", what: "local deny beats project ask and user allow", call: bashIn("touch deny.txt"), cc: denied, tg: denied, why: "Bash(touch deny.txt)"},
	{layout: "scopes", what: "user deny beats project allow", call: bashIn("mkdir deny"), cc: denied, tg: denied, why: "Bash(mkdir deny:*)"},
	{layout: "scopes", what: "project Read ask in the workspace", call: read("$WS/README.md"), cc: asked, tg: asked, why: "Read(./README.md)"},
	{layout: "case", what: "bash(...) names no tool", call: bashIn("mkdir -p m1"), cc: ran, tg: denied, why: "can never match: tool names are case-sensitive"},
	// --- more Bash
	{layout: "bash_more", what: "npm run test:* and npm run test:unit", call: bashIn("npm run test:unit"), cc: asked, tg: asked, why: "npm: not on the safe list"},
	{layout: "bash_more", what: "npm run test:* and npm run test -- x", call: bashIn("npm run test -- x"), cc: denied, tg: denied, why: "Bash(npm run test:*)"},
	{layout: "bash_more", what: "an exact deny and more arguments", call: bashIn("git status -s"), cc: ran, tg: ran, why: "read-only git status"},
	{layout: "bash_more", what: "deny through env", call: bashIn("env rm x"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through command", call: bashIn("command rm x"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through nice -n", call: bashIn("nice -n 5 rm x"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through timeout -s", call: bashIn("timeout -s KILL 5 rm x"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through two wrappers", call: bashIn("nohup nice rm x"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny in a pipeline", call: bashIn("echo x | rm x"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny in a substitution", call: bashIn("echo $(rm x)"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny in a subshell", call: bashIn("(rm x)"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny under bash -c", call: bashIn("bash -c 'rm x'"), cc: asked, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny by a path to the command", call: bashIn("/bin/rm x"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny after a semicolon", call: bashIn("echo a; rm x"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through find -exec", call: bashIn(`find . -name nothing -exec rm {} \;`), cc: asked, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through find -execdir", call: bashIn("find . -name nothing -execdir rm {} +"), cc: asked, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through find -ok", call: bashIn(`find . -name nothing -ok rm {} \;`), cc: asked, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through a second find -exec", call: bashIn("find . -name nothing -exec grep -l x {} + -exec rm {} +"), cc: asked, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through a wrapper under find -exec", call: bashIn(`find . -name nothing -exec timeout 5 rm {} \;`), cc: asked, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "find -delete is not rm", call: bashIn("find . -name nothing -delete"), cc: asked, tg: asked, why: "find: writes ."},
	{layout: "bash_more", what: "deny through xargs", call: bashIn("echo nothing | xargs rm"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "bash_more", what: "deny through xargs on what find lists", call: bashIn("find . -name nothing -print0 | xargs -0 rm"), cc: asked, tg: denied, why: "Bash(rm:*)"},
	// --- outside the workspace
	{layout: "outside", what: "Read allow for ~/x", call: read("$HOME/home.txt"), cc: ran, tg: denied, why: "outside every root"},
	{layout: "outside", what: "Edit allow for //abs covers Write", call: write("$ROOT/out/new.txt"), cc: ran, tg: denied, why: "outside every root"},
	{layout: "outside", what: "mcp__server allows its tools", call: call("mcp__e2e__echo", map[string]any{"text": "x"}), cc: ran, tg: ran, why: "mcp__e2e"},
	{layout: "webfetch", what: "domain:*.x allows a subdomain", call: fetchURL("https://a.ex.test/"), cc: ran, tg: ran, why: "WebFetch(domain:*.ex.test)"},
	{layout: "webfetch", what: "domain:*.x and x itself", call: fetchURL("https://ex.test/"), cc: asked, tg: asked, why: "the default for network tools is ask"},
	{layout: "webfetch", what: "domain:x and an upper-case host", call: fetchURL("https://EXAMPLE.com/"), cc: ran, tg: ran, why: "WebFetch(domain:example.com)"},
	// --- MCP
	{layout: "mcp_glob", what: "mcp__server__* allows its tools", call: call("mcp__e2e__touch", map[string]any{"path": "$WS/m.txt"}), cc: ran, tg: ran, why: "mcp__e2e__*"},
	{layout: "mcp_glob", what: "mcp__server__tool deny beats the glob", call: call("mcp__e2e__echo", map[string]any{"text": "x"}), cc: denied, tg: denied, why: "mcp__e2e__echo"},
	{layout: "mcp_server", what: "mcp__server deny beats a tool's allow", call: call("mcp__e2e__touch", map[string]any{"path": "$WS/m.txt"}), cc: denied, tg: denied, why: "mcp__e2e"},
	{layout: "mcp_server", what: "mcp__server deny covers reading its resource", call: call("ReadMcpResourceTool", map[string]any{"server": "e2e", "uri": "e2e://note"}), cc: ran, tg: denied, why: "denied by deny rule mcp__e2e"},
	{layout: "mcp_server", what: "mcp__server deny covers listing its resources", call: call("ListMcpResourcesTool", map[string]any{"server": "e2e"}), cc: ran, tg: denied, why: "denied by deny rule mcp__e2e"},
	{layout: "outside", what: "mcp__server allow and reading its resource", call: call("ReadMcpResourceTool", map[string]any{"server": "e2e", "uri": "e2e://note"}), cc: ran, tg: ran, why: "allowed by allow rule mcp__e2e"},
	{layout: "outside", what: "mcp__server allow and listing its resources", call: call("ListMcpResourcesTool", map[string]any{"server": "e2e"}), cc: ran, tg: ran, why: "allowed by allow rule ListMcpResourcesTool"},
	{layout: "mcp_ask", what: "mcp__server ask covers reading its resource", call: call("ReadMcpResourceTool", map[string]any{"server": "e2e", "uri": "e2e://note"}), cc: ran, tg: asked, why: "needs confirmation by ask rule mcp__e2e"},
	{layout: "mcp_ask", what: "mcp__server ask covers listing its resources", call: call("ListMcpResourcesTool", map[string]any{"server": "e2e"}), cc: ran, tg: asked, why: "needs confirmation by ask rule mcp__e2e"},
	{layout: "mcp_ask", what: "mcp__server ask and listing every server's resources", call: call("ListMcpResourcesTool", map[string]any{}), cc: ran, tg: asked, why: `rule mcp__e2e asks for server "e2e"`},
	// --- after cd: the project's rules still hold
	{layout: "cd_sub", what: "after cd: a Bash deny", before: []step{bashIn("cd sub")}, cwd: "sub", call: bashIn("rm x.txt"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "cd_sub", what: "after cd: a WebFetch deny", cwd: "sub", call: fetchURL("https://evil.test/"), cc: denied, tg: denied, why: "WebFetch(domain:evil.test)"},
	{layout: "cd_sub", what: "after cd: /x is still under the project root", cwd: "sub", call: read("$WS/proj.txt"), cc: denied, tg: denied, why: "Read(/proj.txt)"},
	{layout: "cd_sub", what: "after cd: /x is not the cwd's", cwd: "sub", call: read("$WS/sub/proj.txt"), cc: ran, tg: ran, why: "the default for read tools is allow"},
	{layout: "cd_sub", what: "after cd: ./x at any depth", cwd: "sub", call: read("$WS/sub/dot.txt"), cc: denied, tg: denied, why: "Read(./dot.txt)"},
	{layout: "cd_sub", what: "after cd, no CLAUDE_PROJECT_DIR: a Bash deny", cwd: "sub", noProjectDir: true, call: bashIn("rm x.txt"), cc: denied, tg: denied, why: "Bash(rm:*)"},
	{layout: "cd_sub", what: "after cd, no CLAUDE_PROJECT_DIR: a WebFetch deny", cwd: "sub", noProjectDir: true, call: fetchURL("https://evil.test/"), cc: denied, tg: denied, why: "WebFetch(domain:evil.test)"},
	{layout: "cd_sub", what: "after cd, no CLAUDE_PROJECT_DIR: /x under the project root", cwd: "sub", noProjectDir: true, call: read("$WS/proj.txt"), cc: denied, tg: denied, why: "Read(/proj.txt)"},
	// --- subagents
	{layout: "agent", what: "Agent(name) covers Task", call: call("Task", map[string]any{"description": "d", "prompt": "p", "subagent_type": "Explore"}), cc: denied, tg: denied, why: "Agent(Explore)"},
	{layout: "agent", what: "Task(name)", call: call("Task", map[string]any{"description": "d", "prompt": "p", "subagent_type": "Plan"}), cc: denied, tg: denied, why: "Task(Plan)"},
}

// ccOutcome reads Claude Code's outcome from the tool_result the model got.
func ccOutcome(tr toolResult) outcome {
	switch {
	case strings.Contains(tr.Text, "haven't granted it yet"), strings.Contains(tr.Text, "requires approval"), strings.Contains(tr.Text, "needs approval"),
		strings.Contains(tr.Text, "Approving runs"), strings.Contains(tr.Text, "cannot be auto-allowed"),
		strings.Contains(tr.Text, "which is a sensitive file"), strings.Contains(tr.Text, "requires manual approval"),
		strings.Contains(tr.Text, "Glob patterns are not allowed"), strings.Contains(tr.Text, "can't be checked before it runs"),
		strings.Contains(tr.Text, "traversal after a directory segment"):
		return asked
	case strings.Contains(tr.Text, "has been denied"), strings.Contains(tr.Text, "denied by your permission settings"),
		strings.Contains(tr.Text, "denied access to domain"):
		return denied
	case strings.Contains(tr.Text, "No such tool available"):
		// A deny rule for a whole tool or server takes it out of the
		// tools the model is given.
		return denied
	}
	return ran
}

func rulesOf(entries []string) map[string]any {
	if entries == nil {
		return nil
	}
	p := map[string]any{}
	for _, e := range entries {
		d, r, _ := strings.Cut(e, ":")
		l, _ := p[d].([]string)
		p[d] = append(l, r)
	}
	return map[string]any{"permissions": p}
}

// TestRuleSemantics holds toolgate's reading of permission rules to
// Claude Code's: each layout runs once through the real Claude Code with
// no hooks, and each row's call is then put to toolgate check with the
// same settings, home and cwd. Where Claude Code denies, toolgate denies;
// where it asks, toolgate asks or denies; where a rule makes it allow,
// toolgate allows, unless the row names toolgate's own reason.
func TestRuleSemantics(t *testing.T) {
	s := setUp(t)
	byLayout := map[string][]ruleRow{}
	for _, r := range ruleRows {
		require.True(t, slices.ContainsFunc(ruleLayouts, func(l ruleLayout) bool { return l.name == r.layout }), "row %q: no layout %s", r.what, r.layout)
		byLayout[r.layout] = append(byLayout[r.layout], r)
	}
	only := os.Getenv("TOOLGATE_E2E_ONLY")
	for _, l := range ruleLayouts {
		if only != "" && !slices.Contains(strings.Split(only, ","), "rules_"+l.name) {
			continue
		}
		rows := byLayout[l.name]
		t.Run(l.name, func(t *testing.T) {
			t.Parallel()
			sc := scenario{name: "rules_" + l.name, prompt: "E2E rules " + l.name, noHooks: true, mcp: l.mcp, mode: l.mode,
				user: rulesOf(l.user), project: rulesOf(l.project), local: rulesOf(l.local), files: withBase(l.files)}
			if sc.project == nil {
				sc.project = map[string]any{}
			}
			var judged []int // the index of each row's call among the steps
			for _, r := range rows {
				sc.steps = append(sc.steps, r.before...)
				judged = append(judged, len(sc.steps))
				sc.steps = append(sc.steps, r.call)
			}
			res := s.run(t, sc)
			all := res.results()
			for i, r := range rows {
				t.Run(strings.ReplaceAll(r.what, " ", "_"), func(t *testing.T) {
					require.Greater(t, len(all), judged[i], "the model received no result for %s", r.what)
					tr := all[judged[i]]
					// 2.1.332 calls Task Agent in what it sends back.
					require.True(t, tr.Tool == r.call.Tool || r.call.Tool == "Task" && tr.Tool == "Agent", "call %s answered as %s", r.call.Tool, tr.Tool)
					cc := ccOutcome(tr)
					input := expandRoot(string(r.call.Input), res)
					tg, why := s.toolgateCheck(t, res, checkAs{mode: l.mode, cwd: r.cwd, noProjectDir: r.noProjectDir}, tr.Tool, input)
					t.Logf("RULEROW\t%s\t%s\t%s\tcc=%s\ttg=%s\t%s\tCC: %.160q", l.name, r.what, input, cc, tg, why, tr.Text)
					assert.Equal(t, r.cc, cc, "Claude Code's outcome; it got %q", tr.Text)
					// The invariant against what Claude Code did.
					switch cc {
					case denied:
						assert.Equal(t, denied, tg, "Claude Code denies: toolgate must deny (%s)", why)
					case asked:
						assert.NotEqual(t, ran, tg, "Claude Code asks: toolgate must not allow (%s)", why)
					}
					assert.Equal(t, r.tg, tg, "toolgate's decision: %s", why)
					if r.why != "" {
						assert.Contains(t, why, r.why)
					}
				})
			}
		})
	}
}

func expandRoot(s string, r *result) string {
	return strings.NewReplacer("$WS", r.ws, "$HOME", r.home, "$ROOT", filepath.Dir(r.ws)).Replace(s)
}

// checkAs is how toolgate check is run for a row: the event's mode, the
// directory below the workspace it names and runs in, and whether
// CLAUDE_PROJECT_DIR is set.
type checkAs struct {
	mode, cwd    string
	noProjectDir bool
}

// toolgateCheck puts one PreToolUse event to toolgate check, as Claude
// Code runs it from the hooks, with the scenario's home and workspace.
func (s *suiteEnv) toolgateCheck(t *testing.T, r *result, as checkAs, tool, input string) (outcome, string) {
	t.Helper()
	mode := as.mode
	if mode == "" {
		mode = "default"
	}
	cwd := filepath.Join(r.ws, filepath.FromSlash(as.cwd))
	ev, err := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "rules-e2e", "tool_use_id": "toolu_rules",
		"cwd": cwd, "permission_mode": mode, "tool_name": tool, "tool_input": json.RawMessage(input),
		"transcript_path": filepath.Join(r.home, ".claude", "projects", "x", "rules-e2e.jsonl")})
	require.NoError(t, err)
	cmd := exec.Command(filepath.Join(s.toolgate, "toolgate"), "check")
	cmd.Dir = cwd
	cmd.Env = []string{"HOME=" + r.home, "PATH=" + s.toolgate + ":" + s.goDir + ":/usr/local/bin:/usr/bin:/bin",
		"XDG_STATE_HOME=" + filepath.Join(r.home, ".local", "state"), "XDG_CONFIG_HOME=" + filepath.Join(r.home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(r.home, ".cache"), "TMPDIR=" + filepath.Join(filepath.Dir(r.ws), "tmp"), "LANG=C.UTF-8"}
	if !as.noProjectDir {
		cmd.Env = append(cmd.Env, "CLAUDE_PROJECT_DIR="+r.ws)
	}
	cmd.Stdin = bytes.NewReader(ev)
	out, err := cmd.Output()
	require.NoError(t, err, "toolgate check: %s", out)
	var a struct {
		Specific struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	require.NoError(t, json.Unmarshal(out, &a), "toolgate check's answer: %s", out)
	switch a.Specific.Decision {
	case "allow":
		return ran, a.Specific.Reason
	case "ask":
		return asked, a.Specific.Reason
	case "deny":
		return denied, a.Specific.Reason
	}
	t.Fatalf("toolgate check answered %s", out)
	return "", ""
}
