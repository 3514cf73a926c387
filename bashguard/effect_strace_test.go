package bashguard

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The effect test's reading of what a command did: the log strace writes
// of it (strace -f -qq -y -s N -e signal=none -e trace=%file,%process,connect),
// parsed into system calls, and a checker of the property that an allowed
// read-only command
//
//   - executes no program but itself (see [programIdentity]);
//   - opens for reading, in the repository's work tree outside .git, only
//     paths the judge saw: a file the judge was asked to Read, or one
//     below a directory it was asked to Read (a recursive read), and lists
//     only directories it was asked to Read or Probe (or below a Read);
//   - writes nothing anywhere outside the repository's .git directory
//     (/dev/null and /dev/tty aside): no open for writing, no create,
//     remove, rename, link, mode, owner or time change;
//   - names no canary in any system call;
//   - connects to no internet address.
//
// An attempt counts as the deed: the sandbox refuses what the host would
// not (a write to the read-only /etc, a program the sandbox lacks), so an
// exec or a write that failed is reported all the same, and so is a read
// of the work tree the sandbox refused (EACCES, EPERM). A read that
// failed otherwise (ENOENT, ENOTDIR, ELOOP) found nothing there: it is
// not an effect, and is listed as absent, for the log.

// straceCall is one system call of a strace log, its two halves joined
// where strace split it ("<unfinished ...>", "<... openat resumed>").
type straceCall struct {
	pid  int
	name string
	args []string // the top-level arguments as strace printed them
	ret  string   // what follows " = ": "3</path>", "-1 ENOENT (No such file or directory)", "0", "?"
	line string   // the call as strace printed it, joined
}

// parseStrace reads a log of strace -f (every line led by a pid). Lines
// it cannot read as a call (signals, exits) are skipped; a call that never
// resumed is kept with no result.
func parseStrace(log string) []straceCall {
	var calls []straceCall
	pending := map[int]string{}
	for raw := range strings.SplitSeq(log, "\n") {
		pidText, rest, ok := strings.Cut(strings.TrimLeft(raw, " "), " ")
		if !ok {
			continue
		}
		pid, err := strconv.Atoi(pidText)
		if err != nil {
			continue
		}
		rest = strings.TrimLeft(rest, " ")
		if before, ok := strings.CutSuffix(rest, " <unfinished ...>"); ok {
			pending[pid] = before
			continue
		}
		if strings.HasPrefix(rest, "<... ") {
			_, after, ok := strings.Cut(rest, " resumed>")
			if !ok {
				continue
			}
			rest = pending[pid] + after
			delete(pending, pid)
		}
		if c, ok := parseCall(pid, rest); ok {
			calls = append(calls, c)
		}
	}
	for pid, text := range pending {
		if c, ok := parseCall(pid, text+")"); ok {
			c.ret = "?"
			calls = append(calls, c)
		}
	}
	return calls
}

// parseCall reads "name(args) = ret" (ret may be missing).
func parseCall(pid int, text string) (straceCall, bool) {
	open := strings.IndexByte(text, '(')
	if open <= 0 || strings.HasPrefix(text, "---") || strings.HasPrefix(text, "+++") {
		return straceCall{}, false
	}
	name := text[:open]
	for _, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return straceCall{}, false
		}
	}
	c := straceCall{pid: pid, name: name, line: text}
	depth, quoted, start := 0, false, open+1
	for i := open + 1; i < len(text); i++ {
		ch := text[i]
		switch {
		case quoted:
			if ch == '\\' {
				i++
			} else if ch == '"' {
				quoted = false
			}
		case ch == '"':
			quoted = true
		case ch == '(' || ch == '[' || ch == '{' || ch == '<' && i > 0 && isFdEnd(text[i-1]):
			depth++
		case ch == ']' || ch == '}' || ch == '>' && depth > 0:
			depth--
		case ch == ')' && depth > 0:
			depth--
		case ch == ',' && depth == 0:
			c.args = append(c.args, strings.TrimSpace(text[start:i]))
			start = i + 1
		case ch == ')':
			if a := strings.TrimSpace(text[start:i]); a != "" || len(c.args) > 0 {
				c.args = append(c.args, a)
			}
			if _, ret, ok := strings.Cut(text[i+1:], "= "); ok {
				c.ret = strings.TrimSpace(ret)
			}
			return c, true
		}
	}
	return c, true
}

// isFdEnd reports whether a '<' after ch opens strace -y's path of a
// descriptor (3</path>, AT_FDCWD</path>).
func isFdEnd(ch byte) bool {
	return ch >= '0' && ch <= '9' || ch >= 'A' && ch <= 'Z'
}

// straceString decodes an argument strace printed as a C string; ok is
// false for anything else (NULL, a number, a flag set).
func straceString(arg string) (string, bool) {
	if len(arg) < 2 || arg[0] != '"' {
		return "", false
	}
	end := strings.LastIndexByte(arg, '"')
	if end == 0 {
		return "", false
	}
	return unescapeC(arg[1:end]), true
}

// unescapeC undoes strace's quoting: \\ \" \n \t \r \v \f, \xHH and octal.
func unescapeC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch ch := s[i]; ch {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'x':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteByte(ch)
		default:
			if ch >= '0' && ch <= '7' {
				j := i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(s[i:j], 8, 8)
				b.WriteByte(byte(v))
				i = j - 1
				continue
			}
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// fdPath returns the path strace -y printed for a descriptor
// ("3</a/b>", "AT_FDCWD</a>"), or "".
func fdPath(arg string) string {
	open := strings.IndexByte(arg, '<')
	if open < 0 || !strings.HasSuffix(arg, ">") {
		return ""
	}
	return unescapeC(arg[open+1 : len(arg)-1])
}

// retFd returns the path of the descriptor a call returned, or "".
func (c straceCall) retFd() string {
	if strings.HasPrefix(c.ret, "-") {
		return ""
	}
	return fdPath(strings.Fields(c.ret + " ")[0])
}

// errno returns the error a call failed with ("ENOENT"), or "".
func (c straceCall) errno() string {
	if !strings.HasPrefix(c.ret, "-1 ") {
		return ""
	}
	return strings.Fields(c.ret[3:])[0]
}

// pathArg is where a call names a path: the index of its directory
// descriptor (-1: the working directory) and of the path.
type pathArg struct{ dirfd, path int }

// callKind says what a traced call does to the paths it names.
type callKind struct {
	paths []pathArg
	open  int  // the index of the open flags (open, openat, openat2), or -1
	write bool // it changes what it names
	exec  bool // it runs the program it names
}

// straceCalls are the calls the checker reads; every other call of the
// log is read for canaries only.
var straceCalls = map[string]callKind{
	"open":         {paths: []pathArg{{-1, 0}}, open: 1},
	"openat":       {paths: []pathArg{{0, 1}}, open: 2},
	"openat2":      {paths: []pathArg{{0, 1}}, open: 2},
	"creat":        {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"execve":       {paths: []pathArg{{-1, 0}}, open: -1, exec: true},
	"execveat":     {paths: []pathArg{{0, 1}}, open: -1, exec: true},
	"unlink":       {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"unlinkat":     {paths: []pathArg{{0, 1}}, open: -1, write: true},
	"rmdir":        {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"mkdir":        {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"mkdirat":      {paths: []pathArg{{0, 1}}, open: -1, write: true},
	"mknod":        {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"mknodat":      {paths: []pathArg{{0, 1}}, open: -1, write: true},
	"rename":       {paths: []pathArg{{-1, 0}, {-1, 1}}, open: -1, write: true},
	"renameat":     {paths: []pathArg{{0, 1}, {2, 3}}, open: -1, write: true},
	"renameat2":    {paths: []pathArg{{0, 1}, {2, 3}}, open: -1, write: true},
	"link":         {paths: []pathArg{{-1, 1}}, open: -1, write: true},
	"linkat":       {paths: []pathArg{{2, 3}}, open: -1, write: true},
	"symlink":      {paths: []pathArg{{-1, 1}}, open: -1, write: true},
	"symlinkat":    {paths: []pathArg{{1, 2}}, open: -1, write: true},
	"truncate":     {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"chmod":        {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"fchmodat":     {paths: []pathArg{{0, 1}}, open: -1, write: true},
	"fchmodat2":    {paths: []pathArg{{0, 1}}, open: -1, write: true},
	"chown":        {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"lchown":       {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"fchownat":     {paths: []pathArg{{0, 1}}, open: -1, write: true},
	"utime":        {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"utimes":       {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"utimensat":    {paths: []pathArg{{0, 1}}, open: -1, write: true},
	"futimesat":    {paths: []pathArg{{0, 1}}, open: -1, write: true},
	"setxattr":     {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"lsetxattr":    {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"removexattr":  {paths: []pathArg{{-1, 0}}, open: -1, write: true},
	"lremovexattr": {paths: []pathArg{{-1, 0}}, open: -1, write: true},
}

// judgedPath is a path the judge was asked about.
type judgedPath struct {
	path   string
	access Access
}

// effectCase is what the checker needs to know of one run.
type effectCase struct {
	repo    string // the work tree, absolute and resolved
	workdir string // where the command started
	shell   string // the harness's shell, whose first exec is not the command's
	itself  func(path string) bool
	judged  []judgedPath // what the judge was asked, cleaned and resolved
	// scans: the command's spec says it hashes the tracked files and
	// lists the work tree, printing only names (git status, git diff's
	// index refresh): a Probe of the work tree covers what it reads and
	// lists below it.
	scans bool
	// lists: the command only ever lists and looks at paths, never reads
	// a file (ls, du: a spec whose operands are probes): a Probe of a
	// directory covers the listings of the tree below it.
	lists    bool
	canaries []string // absolute, resolved
	isDir    func(path string) bool
	state    []string // absolute: where the program keeps its own bookkeeping (spec.state)
}

// effect is one thing a command did that the property forbids.
type effect struct {
	what string // "runs /bin/sh", "reads a.txt, which the judge did not see"
	call string // the system call, as strace printed it
}

func (e effect) String() string { return e.what + ": " + e.call }

// checkEffects returns what the calls did that the property forbids, and
// the work-tree paths the command tried to read and found absent.
func checkEffects(calls []straceCall, ec effectCase) ([]effect, []string) {
	ck := &effectChecker{ec: ec, cwd: map[int]string{}, harness: true}
	for _, c := range calls {
		ck.call(c)
	}
	return ck.effects, ck.absent
}

// effectChecker reads a trace call by call.
type effectChecker struct {
	ec      effectCase
	cwd     map[int]string // each process's working directory, as far as the trace shows it
	harness bool           // the next exec is the first, the harness's shell
	effects []effect
	absent  []string
}

// add reports an effect, once: the first call that had it stands for
// the others.
func (ck *effectChecker) add(c straceCall, format string, a ...any) {
	what := fmt.Sprintf(format, a...)
	if slices.ContainsFunc(ck.effects, func(e effect) bool { return e.what == what }) {
		return
	}
	ck.effects = append(ck.effects, effect{what: what, call: fmt.Sprintf("%d %s", c.pid, c.line)})
}

// call reads one call: where its process is, and what it does.
func (ck *effectChecker) call(c straceCall) {
	ck.track(c)
	k, known := straceCalls[c.name]
	if k.exec && ck.harness {
		ck.harness = false
		if p, _ := ck.path(c, pathArg{-1, 0}); p == ck.ec.shell {
			return
		}
	}
	if c.name == "connect" && strings.Contains(c.line, "sa_family=AF_INET") {
		ck.add(c, "connects to an internet address")
	}
	ck.canaries(c)
	if !known {
		return
	}
	flags := ""
	if k.open >= 0 && k.open < len(c.args) {
		flags = c.args[k.open]
	}
	write := k.write || strings.Contains(flags, "O_WRONLY") || strings.Contains(flags, "O_RDWR") ||
		strings.Contains(flags, "O_CREAT") || strings.Contains(flags, "O_TRUNC") ||
		strings.Contains(flags, "O_APPEND") || strings.Contains(flags, "O_TMPFILE")
	for _, pa := range k.paths {
		p, ok := ck.path(c, pa)
		if !ok {
			continue
		}
		if got := c.retFd(); got != "" {
			p = got // the file the kernel opened, links followed
		}
		switch {
		case k.exec:
			if !ck.ec.itself(p) {
				ck.add(c, "runs %s", p)
			}
		case write:
			if !ck.ec.writable(p) {
				ck.add(c, "writes %s", p)
			}
		case strings.Contains(flags, "O_PATH"):
			// A handle on the path, not its content: a probe.
		default:
			ck.read(c, p, flags)
		}
	}
}

// track follows each process's working directory: strace -y names it in
// every *at call, chdir moves it, and a child starts where its parent was.
func (ck *effectChecker) track(c straceCall) {
	for _, a := range c.args {
		if strings.HasPrefix(a, "AT_FDCWD<") {
			ck.cwd[c.pid] = fdPath(a)
		}
	}
	switch c.name {
	case "clone", "clone3", "fork", "vfork":
		child, err := strconv.Atoi(strings.Fields(c.ret + " ")[0])
		if d := ck.cwd[c.pid]; err == nil && child > 0 && d != "" {
			ck.cwd[child] = d
		}
	case "chdir":
		if p, ok := ck.path(c, pathArg{-1, 0}); ok && c.ret == "0" {
			ck.cwd[c.pid] = p
		}
	}
}

// path returns the absolute path a call names at pa: relative to the
// directory descriptor, else to the process's working directory.
func (ck *effectChecker) path(c straceCall, pa pathArg) (string, bool) {
	if pa.path >= len(c.args) {
		return "", false
	}
	s, ok := straceString(c.args[pa.path])
	if !ok {
		return "", false
	}
	if filepath.IsAbs(s) {
		return filepath.Clean(s), true
	}
	dir := ""
	if pa.dirfd >= 0 && pa.dirfd < len(c.args) {
		dir = fdPath(c.args[pa.dirfd])
	}
	if dir == "" {
		dir = ck.cwd[c.pid]
	}
	if dir == "" {
		dir = ck.ec.workdir
	}
	return filepath.Join(dir, s), true
}

// canaries reports a call that names a canary: as a path argument, as
// the path of a descriptor, or as what it returned.
func (ck *effectChecker) canaries(c straceCall) {
	var names []string
	for i, a := range c.args {
		if p := fdPath(a); p != "" {
			names = append(names, p)
		}
		dirfd := -1
		if i > 0 && fdPath(c.args[i-1]) != "" {
			dirfd = i - 1
		}
		if p, ok := ck.path(c, pathArg{dirfd, i}); ok {
			names = append(names, p)
		}
	}
	if p := c.retFd(); p != "" {
		names = append(names, p)
	}
	for _, n := range names {
		if slices.Contains(ck.ec.canaries, n) {
			ck.add(c, "touches the canary %s", n)
			return
		}
	}
}

// read reports a read of the work tree the judge did not see, and notes
// one that found nothing.
func (ck *effectChecker) read(c straceCall, p, flags string) {
	ec := ck.ec
	git := filepath.Join(ec.repo, ".git")
	if p != ec.repo && !strings.HasPrefix(p, ec.repo+"/") || p == git || strings.HasPrefix(p, git+"/") {
		return
	}
	switch c.errno() {
	case "":
	case "EACCES", "EPERM":
		// Refused by the sandbox: the host would have let it read.
	default:
		ck.absent = append(ck.absent, p)
		return
	}
	rel, _ := filepath.Rel(ec.repo, p)
	if strings.Contains(flags, "O_DIRECTORY") || ec.isDir(p) {
		if !ec.covered(p, true) {
			ck.add(c, "lists the directory %s, which the judge did not see", rel)
		}
		return
	}
	if !ec.covered(p, false) {
		ck.add(c, "reads %s, which the judge did not see", rel)
	}
}

// writable reports whether the property lets a command write p: inside
// the repository's .git directory (git's index refresh), or /dev/null.
func (ec effectCase) writable(p string) bool {
	git := filepath.Join(ec.repo, ".git")
	return p == git || strings.HasPrefix(p, git+"/") || p == "/dev/null" || p == "/dev/tty" || ec.ownState(p)
}

// ownState reports whether p is a place the program keeps its own
// bookkeeping, or a directory on the way to one (which it creates).
func (ec effectCase) ownState(p string) bool {
	for _, s := range ec.state {
		if p == s || strings.HasPrefix(p, s+"/") || strings.HasPrefix(s, p+"/") {
			return true
		}
	}
	return false
}

// covered reports whether the judge saw p: asked to Read it (or, for a
// listing, to Probe it), or to Read a directory p lies below.
func (ec effectCase) covered(p string, listing bool) bool {
	for _, j := range ec.judged {
		if ec.scans && j.path == ec.repo && (j.access == Probe || j.access == Read) && strings.HasPrefix(p, ec.repo+"/") {
			return true
		}
		if ec.lists && listing && j.access == Probe && strings.HasPrefix(p, strings.TrimSuffix(j.path, "/")+"/") {
			return true
		}
		if j.path == p && (j.access == Read || listing && j.access == Probe) {
			return true
		}
		if j.access == Read && strings.HasPrefix(p, strings.TrimSuffix(j.path, "/")+"/") && ec.isDir(j.path) {
			return true
		}
	}
	return false
}

// programIdentity tells whether an executed path is the command's own
// program. "Itself" is the program's executable by content, under any
// name or copy: git's builtins are links to it in git's exec-path
// (/usr/lib/git-core/git-log -> git), and Debian ships that binary twice
// (/usr/bin/git and /usr/lib/git-core/git, identical files). Nothing else
// in the exec-path is git itself: its scripts run sh (git-difftool--helper,
// git-sh-setup), its remote helpers reach the network.
type programIdentity struct {
	size int64
	sum  [sha256.Size]byte
	mu   sync.Mutex
	seen map[string]bool
}

// newProgramIdentity reads the program at path (links followed).
func newProgramIdentity(path string) (*programIdentity, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return &programIdentity{size: int64(len(data)), sum: sha256.Sum256(data), seen: map[string]bool{}}, nil
}

// is reports whether path is the program, by content.
func (id *programIdentity) is(path string) bool {
	id.mu.Lock()
	defer id.mu.Unlock()
	if same, ok := id.seen[path]; ok {
		return same
	}
	same := false
	if st, err := os.Stat(path); err == nil && st.Mode().IsRegular() && st.Size() == id.size {
		if data, err := os.ReadFile(path); err == nil {
			sum := sha256.Sum256(data)
			same = bytes.Equal(sum[:], id.sum[:])
		}
	}
	id.seen[path] = same
	return same
}

// effectLog is a trace recorded by the effect test's sandbox (paths
// shortened to /w), of bash -c "git -c alias.x='!cat ../canary-beside-repo.txt; echo hi > a.txt' x",
// and a few calls of its kind added: a read of the work tree the judge
// saw, one it did not, one of an absent file, a listing, writes in .git,
// in the work tree, in HOME and /dev/null, a relative unlink after a
// chdir, a connect. An effect had twice is reported once.
const effectLog = `5     execve("/usr/bin/bash", ["/usr/bin/bash", "-c", "git -c alias.x='!cat ../canary-beside-repo.txt; echo hi > a.txt' x"], 0x7ffe7049f640 /* 3 vars */) = 0
5     openat(AT_FDCWD</w/repo>, "/etc/ld.so.cache", O_RDONLY|O_CLOEXEC) = 3</etc/ld.so.cache>
5     execve("/usr/bin/git", ["git", "-c", "alias.x=!cat ../canary-beside-repo.txt; echo hi > a.txt", "x"], 0x56303e53a8b0 /* 5 vars */) = 0
5     openat(AT_FDCWD</w/repo>, "/dev/null", O_RDWR) = 3</dev/null>
5     openat(AT_FDCWD</w/repo>, "/etc/gitconfig", O_RDONLY) = 3</etc/gitconfig>
5     openat(AT_FDCWD</w/repo>, ".git/config", O_RDONLY) = 3</w/repo/.git/config>
5     openat(AT_FDCWD</w/repo>, "a.txt", O_RDONLY|O_CLOEXEC) = 3</w/repo/a.txt>
5     openat(AT_FDCWD</w/repo>, "src/main.go", O_RDONLY|O_CLOEXEC) = 3</w/repo/src/main.go>
5     openat(AT_FDCWD</w/repo>, "src/main.go", O_RDONLY) = 3</w/repo/src/main.go>
5     openat(AT_FDCWD</w/repo>, ".mailmap", O_RDONLY) = -1 ENOENT (No such file or directory)
5     openat(AT_FDCWD</w/repo>, "src/", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY) = 4</w/repo/src>
5     openat(AT_FDCWD</w/repo>, "/w/repo/.git/index.lock", O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC, 0666) = 3</w/repo/.git/index.lock>
5     rename("/w/repo/.git/index.lock", "/w/repo/.git/index") = 0
5     openat(AT_FDCWD</w/repo>, "/w/home/.gitconfig.lock", O_RDWR|O_CREAT|O_EXCL, 0666) = -1 EROFS (Read-only file system)
5     connect(3<socket:[1]>, {sa_family=AF_INET, sin_port=htons(443), sin_addr=inet_addr("192.0.2.1")}, 16) = -1 ENETUNREACH (Network is unreachable)
5     clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|CLONE_CHILD_SETTID|SIGCHLD, child_tidptr=0x7f8ce8735a10) = 6
6     execve("/bin/sh", ["/bin/sh", "-c", "cat ../canary-beside-repo.txt; echo hi > a.txt", "cat ../canary-beside-repo.txt; echo hi > a.txt"], 0x561324e4cb70 /* 8 vars */) = 0
5     wait4(6,  <unfinished ...>
6     vfork( <unfinished ...>
7     execve("/usr/bin/cat", ["cat", "../canary-beside-repo.txt"], 0x560ef0454518 /* 8 vars */ <unfinished ...>
6     <... vfork resumed>)              = 7
6     wait4(-1,  <unfinished ...>
7     <... execve resumed>)             = 0
7     openat(AT_FDCWD</w/repo>, "../canary-beside-repo.txt", O_RDONLY) = 3</w/canary-beside-repo.txt>
7     exit_group(0)                     = ?
6     <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 7
6     openat(AT_FDCWD</w/repo>, "a.txt", O_WRONLY|O_CREAT|O_TRUNC, 0666) = 3</w/repo/a.txt>
6     chdir("src")                      = 0
6     unlink("main.go")                 = 0
6     exit_group(0)                     = ?
5     <... wait4 resumed>[{WIFEXITED(s) && WEXITSTATUS(s) == 0}], 0, NULL) = 6
5     exit_group(0)                     = ?
`

// The checker reports every effect of a recorded trace, each with its
// system call, and nothing the property allows.
func TestEffectCheckerOnRecordedTrace(t *testing.T) {
	calls := parseStrace(effectLog)
	require.Len(t, calls, 28, "every call read, split ones joined")
	assert.Equal(t, `execve("/usr/bin/cat", ["cat", "../canary-beside-repo.txt"], 0x560ef0454518 /* 8 vars */)             = 0`, calls[18].line)
	assert.Equal(t, []string{`"/usr/bin/cat"`, `["cat", "../canary-beside-repo.txt"]`, `0x560ef0454518 /* 8 vars */`}, calls[18].args)
	git := func(p string) bool { return p == "/usr/bin/git" }
	effects, absent := checkEffects(calls, effectCase{
		repo: "/w/repo", workdir: "/w/repo", shell: "/usr/bin/bash", itself: git,
		judged:   []judgedPath{{"/w/repo/a.txt", Read}},
		canaries: []string{"/w/canary-beside-repo.txt", "/w/home/.ssh/id_ed25519"},
		isDir:    func(p string) bool { return p == "/w/repo" || p == "/w/repo/src" },
	})
	var got []string
	for _, e := range effects {
		got = append(got, e.what)
	}
	assert.Equal(t, []string{
		"reads src/main.go, which the judge did not see",
		"lists the directory src, which the judge did not see",
		"writes /w/home/.gitconfig.lock",
		"connects to an internet address",
		"runs /bin/sh",
		"runs /usr/bin/cat",
		"touches the canary /w/canary-beside-repo.txt",
		"writes /w/repo/a.txt",
		"writes /w/repo/src/main.go",
	}, got)
	assert.Equal(t, []string{"/w/repo/.mailmap"}, absent)
	for _, e := range effects {
		assert.Regexp(t, `^\d+ [a-z_0-9]+\(`, e.call, "each effect carries its system call")
	}
	assert.Contains(t, effects[4].String(), `runs /bin/sh: 6 execve("/bin/sh", ["/bin/sh", "-c", "cat ../canary-beside-repo.txt; echo hi > a.txt"`)

	// The directory the judge was asked to Read covers what lies below
	// it; a Probe covers a listing, not a read.
	effects, _ = checkEffects(calls[:11], effectCase{
		repo: "/w/repo", workdir: "/w/repo", shell: "/usr/bin/bash", itself: git,
		judged: []judgedPath{{"/w/repo/a.txt", Probe}, {"/w/repo/src", Read}},
		isDir:  func(p string) bool { return p == "/w/repo" || p == "/w/repo/src" },
	})
	require.Len(t, effects, 1)
	assert.Equal(t, "reads a.txt, which the judge did not see", effects[0].what)

	// A second exec of the harness's shell is the command's, not the
	// harness's.
	effects, _ = checkEffects(parseStrace(`5 execve("/usr/bin/bash", ["bash", "-c", "x"], 0x1 /* 1 var */) = 0
5 execve("/usr/bin/bash", ["bash"], 0x1 /* 1 var */) = 0
`), effectCase{repo: "/w/repo", workdir: "/w/repo", shell: "/usr/bin/bash", itself: git})
	require.Len(t, effects, 1)
	assert.Equal(t, "runs /usr/bin/bash", effects[0].what)
}

// strace's C quoting is undone in paths.
func TestStraceString(t *testing.T) {
	for in, want := range map[string]string{
		`"a b"`: "a b", `"a\"b"`: `a"b`, `"a\\b"`: `a\b`, `"\x41\102\n"`: "AB\n", `NULL`: "",
	} {
		got, ok := straceString(in)
		assert.Equal(t, want, got, in)
		assert.Equal(t, in != "NULL", ok, in)
	}
	assert.Equal(t, "/a b/c", fdPath(`AT_FDCWD</a b/c>`))
	assert.Equal(t, "/x", fdPath(`3</x>`))
	assert.Equal(t, "", fdPath(`3`))
}
