//go:build linux

package runner

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// Landlock access rights, grouped as the confinement grants them.
const (
	// confineRead reads and executes files and lists directories.
	confineRead = llFSExecute | llFSReadFile | llFSReadDir
	// confineWrite is every right to change a tree except making device
	// nodes.
	confineWrite = llFSWriteFile | llFSRemoveDir | llFSRemoveFile |
		llFSMakeDir | llFSMakeReg | llFSMakeSock | llFSMakeFifo |
		llFSMakeSym | llFSRefer | llFSTruncate | llFSIoctlDev |
		llFSResolveUnix
	// confineAll is what the roots and the private temporary directory
	// get.
	confineAll = confineRead | confineWrite
	// confineFileRights are the rights that apply to a file that is not a
	// directory; a rule on such a file may hold no others.
	confineFileRights = llFSExecute | llFSWriteFile | llFSReadFile |
		llFSTruncate | llFSIoctlDev
	// confineDevice is what the device files get.
	confineDevice = llFSReadFile | llFSWriteFile | llFSTruncate | llFSIoctlDev
	// confineNoRead is what a directory that holds a secret gets: all but
	// reading and executing files.
	confineNoRead = confineAll &^ (llFSReadFile | llFSExecute)
)

// The file descriptors of the pipes between the runner and its launcher.
const (
	confinePlanFD    = 3 // the launcher reads its plan here
	confineStatusFD  = 4 // and reports on this one
	confineRulesetFD = 5 // the Landlock ruleset, when the plan says so
)

// confineProbe asks the kernel for its Landlock ABI version with
// landlock_create_ruleset's version query, downgrading ABI 6 and later
// to 5 on kernels without the fix for signal scoping. Versions newer
// than landlockABIs knows count as the newest it knows.
func confineProbe() confineSupport {
	v, err := landlockVersion()
	if err != nil {
		return confineSupport{reason: "the kernel has no Landlock (landlock_create_ruleset: " + err.Error() + ")"}
	}
	if v < 1 {
		return confineSupport{reason: "the kernel reports Landlock ABI version " + strconv.Itoa(v)}
	}
	v = landlockErrataDowngrade(v)
	return confineSupport{abi: min(v, len(landlockABIs)-1), seccomp: confineSeccompProbe()}
}

// confinePlan is what the runner sends its launcher: the ruleset, the
// limits and the bash to execute. The rest of bash's argv is the
// launcher's own argv after argv[0].
type confinePlan struct {
	ABI      int
	FS       uint64
	Net      uint64
	Scoped   uint64
	Rules    []confineRule
	MaxProcs int
	// CPU (seconds), Data and FileSize (bytes) are the other limits;
	// zero sets none.
	CPU, Data, FileSize uint64
	Bash                string
	// NetMode is the network the seccomp filter leaves: none, loopback
	// or all.
	NetMode confineNetMode
	// Namespaces asks for the second stage in new namespaces; NeedNS,
	// when not empty, says why the run must fail without them.
	Namespaces bool
	NeedNS     string
	// Hidden are the locations the mount namespace covers.
	Hidden []string
	// Binds are the protected paths in the roots, bound read-only onto
	// themselves in the mount namespace.
	Binds []string
	// Covers are the secret paths in the roots that the mount namespace
	// covers with an empty file or directory no one may read, after the
	// binds (confine_cover_linux.go); the rules grant their directories.
	Covers []string
	// Ruleset says that the Landlock ruleset comes made, as descriptor
	// confineRulesetFD, with the flags for landlock_restrict_self; Rules
	// is then empty. The namespaces are needed: the ruleset grants the
	// directory TmpBind[1], onto which the mount namespace binds the
	// run's own temporary directory TmpBind[0].
	Ruleset      bool
	RulesetFlags uint32
	TmpBind      [2]string
	// plants records the directories the command may create entries
	// in, for the check after the run (confine_plant_linux.go); the
	// launcher does not get it.
	plants *confinePlantSnap
	// Late says that the runner is still adding rules to the ruleset
	// it passed when it writes the plan: a confineLateDone line follows
	// the plan once they are in, and the second stage reads it before it
	// restricts itself (a ruleset applied early grants less, never
	// more). late are those rules, added to lateFD; the launcher does
	// not get them. lateDone is closed once they are in, when startLate
	// started adding them.
	Late     bool
	late     []confineRule
	lateFD   int
	refuse   string
	lateDone chan struct{}
}

// confineLateDone follows a Late plan once the runner's rules are in;
// Refuse, when not empty, says why the launcher is to run nothing (a rule
// could not be added).
type confineLateDone struct {
	Refuse string
}

// confineRulesetLate makes the Landlock ruleset of a plan whose run goes
// through the namespaces in the runner, so that its rules (thousands, in
// a large project whose top holds a secret) are added while the launcher
// starts rather than after: the ruleset is a kernel object, and the
// launcher's descriptor is the runner's. It returns the descriptor, or -1
// where the launcher makes the ruleset itself: a plan without namespaces
// for certain, or one whose rules grant a location the mount namespace
// covers (only the launcher can open what covers it).
func confineRulesetLate(p *confinePlan) (int, error) {
	if len(p.Rules) == 0 || confineRulesHidden(p.Hidden, p.Rules) {
		return -1, nil
	}
	fd, flags, err := confineRulesetMade(p)
	if fd >= 0 {
		confineRulesetUse(p, fd, flags)
	}
	return fd, err
}

// confineRulesetMade makes, in the runner, the Landlock ruleset a plan of
// the shape p may use (confineRulesetUse): one whose run goes through the
// namespaces for certain, and that does not come with one made. It
// returns -1 for any other plan.
func confineRulesetMade(p *confinePlan) (int, uint32, error) {
	if !p.Namespaces || p.NeedNS == "" || p.Ruleset {
		return -1, 0, nil
	}
	fd, flags, err := landlockRuleset(p.handled())
	if err != nil {
		return -1, 0, fmt.Errorf("%w: creating the Landlock ruleset: %w", ErrConfineFailed, err)
	}
	if fd < 0 {
		return -1, 0, fmt.Errorf("%w: the Landlock ruleset restricts nothing", ErrConfineFailed)
	}
	return fd, flags, nil
}

// confineRulesetUse makes p's rules the late rules of the ruleset fd,
// made for p's shape, and reports whether it did: not when p's rules
// grant a location the mount namespace covers (the launcher then makes
// the ruleset, and fd is left unused). The caller keeps fd open until the
// run is over, after the plan is written.
func confineRulesetUse(p *confinePlan, fd int, flags uint32) bool {
	if len(p.Rules) == 0 || confineRulesHidden(p.Hidden, p.Rules) {
		return false
	}
	p.late, p.lateFD, p.Rules, p.Late = p.Rules, fd, nil, true
	p.Ruleset, p.RulesetFlags = true, flags
	return true
}

// handled is what the plan's Landlock ruleset handles.
func (p *confinePlan) handled() landlockABI {
	return landlockABI{FS: p.FS, Net: p.Net, Scoped: p.Scoped}
}

// startLate starts adding the plan's late rules to its ruleset on a
// goroutine of their own, once: they go in while the runner starts the
// launcher (the clone into the namespaces, the launcher's exec and its
// start), which no longer waits for them, rather than after. It does
// nothing for a plan without late rules. The runner waits for them
// (waitLate) before it tells the launcher they are in, and before it
// closes the ruleset.
func (p *confinePlan) startLate() {
	if !p.Late || p.lateDone != nil {
		return
	}
	p.lateDone = make(chan struct{})
	go func() {
		defer close(p.lateDone)
		p.addLate()
	}()
}

// waitLate waits until the late rules startLate started adding are in.
func (p *confinePlan) waitLate() {
	if p.lateDone != nil {
		<-p.lateDone
	}
}

// addLate adds the plan's late rules to its ruleset, and on failure
// tells the launcher to run nothing.
func (p *confinePlan) addLate() {
	if p.late == nil {
		return
	}
	for _, r := range p.late {
		if err := confineAddRule(p.lateFD, r, p.FS); err != nil {
			p.refuse = err.Error()
			return
		}
	}
}

// confineRule grants Access beneath Path. Follow lets the path's symbolic
// links be followed (system locations); without it a path that holds a
// symbolic link is refused, so that a path inside a root cannot be turned
// into a link to somewhere else between the walk and the launch.
type confineRule struct {
	Path   string
	Access uint64
	Follow bool
}

// confineStatus is the launcher's report (sendStatus); the last one
// counts.
type confineStatus struct {
	Applied bool
	Error   string
	// Layers are the layers applied besides Landlock, in order.
	Layers []string
	// NoNS says why the namespaces were not applied, when they were
	// asked for but not needed.
	NoNS string
}

// confineAvailable decides whether the command can be confined as c
// asks: it needs a launcher, Landlock, and Landlock ABI 4 when the network
// is to be off.
func confineAvailable(c runConfig) confineSupport {
	if c.confine.Launcher == "" && !confineMainCalled.Load() {
		return confineSupport{reason: "the program does not call runner.ConfineMain at the start of main, and no Confinement.Launcher is set"}
	}
	probe := c.probe
	if probe == nil {
		probe = confineProbe
	}
	s := probe()
	if s.abi < 1 {
		if s.reason == "" {
			s.reason = "Landlock is not available"
		}
		return confineSupport{reason: s.reason}
	}
	if !c.confine.Network && s.abi < 4 {
		return confineSupport{reason: "Landlock ABI version " + strconv.Itoa(s.abi) + " cannot refuse TCP connections (version 4 can), and the network is off"}
	}
	if why := confineLauncherWritable(c); why != "" {
		return confineSupport{reason: why}
	}
	if need := confineNeedNS(c, s.abi); need != "" && !c.confine.NamespacesProbed {
		nsProbe := c.nsProbe
		if nsProbe == nil {
			nsProbe = confineNSProbe
			if c.facts != nil {
				nsProbe = func(newNet bool) string { return c.facts.nsProbe(confineNSProbe, newNet) }
			}
		}
		if why := nsProbe(!c.confine.Network); why != "" {
			return confineSupport{reason: why + ", and " + need}
		}
	}
	if s.seccomp != "" {
		return confineSupport{reason: s.seccomp + "; without the seccomp filter a confined command could reach the user's UNIX sockets (ssh-agent, D-Bus, databases), UDP, MPTCP, other processes' limits and the keyring"}
	}
	return s
}

// confinePrepare builds the plan for one run: the handled rights for the
// ABI, and the rules for the roots (with the secret entries left out,
// found by a walk), the read-only locations, the devices and the private
// temporary directory.
func confinePrepare(c runConfig, abi int, tmp string) (confinePlan, ConfineLevel, error) {
	var rec *confineWalkRecord
	kept := c.confine.WalkFile != "" && !c.confine.ReadSecrets
	if kept {
		rec, _ = confineWalkRead(c, c.confine.WalkFile)
		confineWalkGrantsLoad(c, c.facts, rec)
	}
	p, lvl := confinePlanBase(c, abi, tmp)
	p.Rules = append(p.Rules, confineRule{Path: tmp, Access: confineAll})
	if kept {
		w, _, err := confineKeptRoots(c, rec)
		if err != nil {
			return p, lvl, err
		}
		p.Rules = append(p.Rules, w.rules...)
		p.Binds, p.Covers = w.binds, w.covers
		p.plants = w.plants
		lvl.Secrets += w.secrets
		return p, lvl, nil
	}
	var known map[confineIdentity]bool
	if c.confine.IdentityFile != "" && !c.confine.ReadSecrets {
		known = confineLoadIdentities(c.confine.IdentityFile)
	}
	w, err := confineWalkRoots(c, p.Rules, known)
	if err != nil {
		return p, lvl, err
	}
	if w.known != nil && !confineSameIdentities(w.known, w.hidden) {
		// Only when they changed: a record rewritten by every walk would
		// make every kept walk of these roots judge again (WalkFile).
		if err := confineSaveIdentities(c.confine.IdentityFile, w.hidden); err != nil {
			return p, lvl, fmt.Errorf("%w: recording the secret paths' identities in %s: %w", ErrConfineFailed, c.confine.IdentityFile, err)
		}
	}
	p.Rules = w.rules
	p.Binds, p.Covers = w.binds, w.covers
	p.plants = w.plants
	lvl.Secrets += w.secrets
	return p, lvl, nil
}

// confineWalkRoots walks c's roots after rules, judging by the recorded
// identities known (nil: none are recorded).
func confineWalkRoots(c runConfig, rules []confineRule, known map[confineIdentity]bool) (*confineWalk, error) {
	w := &confineWalk{checker: c.checker, limit: c.confine.MaxWalk, rules: rules, names: map[string]bool{}, known: known,
		cover: !c.confine.ReadSecrets && confineCoverable(c.roots)}
	for _, name := range c.confine.Protect {
		w.names[name] = true
	}
	if w.limit == 0 {
		w.limit = ConfineMaxWalk
	}
	if !c.confine.ReadSecrets {
		w.plants = newConfinePlantSnap(c.roots)
	}
	for _, root := range c.roots {
		if c.confine.ReadSecrets {
			w.rules = append(w.rules, confineRule{Path: root, Access: confineAll})
			continue
		}
		if err := w.root(root); err != nil {
			return nil, err
		}
	}
	return w, nil
}

// confineKeptRoots is the walk of c's roots for a process that keeps it
// in the walk file, whose record is rec (nil: none): the recorded one
// when no directory changed, else the walk again where they changed
// (confine_walktree_linux.go), recorded for the next process. The run is
// nil when the record served unchanged.
func confineKeptRoots(c runConfig, rec *confineWalkRecord) (*confineWalk, *confineKeptRun, error) {
	if w, ok := confineWalkLoad(c, rec); ok {
		return w, nil, nil
	}
	r, err := confineKeptWalk(c, rec)
	if err != nil {
		return nil, nil, err
	}
	tree := confineTreeEncode(r.tree, r.start)
	// A failure to record leaves the next process to walk.
	_ = confineWalkSave(c, c.confine.WalkFile, r, tree, c.facts)
	t := r.tree
	// The snapshot reads the names from the tree's bytes, when it needs
	// them, as the next process does.
	dirs, ok := confineTreeTable(tree, c.roots)
	if !ok {
		return nil, nil, fmt.Errorf("%w: the walk of the roots does not read back", ErrConfineFailed)
	}
	plants := confinePlantsOf(c.roots, dirs)
	plants.started = r.start
	w := &confineWalk{rules: t.rules, binds: t.binds, covers: t.covers, secrets: t.secrets, hidden: t.hidden, plants: plants}
	return w, r, nil
}

// confinePlanShape is what the start of the launcher needs of the plan
// for one run, made from c alone without a file read: the handled rights
// for the ABI, the limits, the network and the namespaces.
func confinePlanShape(c runConfig, abi int) confinePlan {
	base := landlockABIs[abi]
	p := confinePlan{
		ABI:      abi,
		FS:       base.FS,
		Scoped:   base.Scoped,
		MaxProcs: runProcLimit(c.maxProcs),
		CPU:      c.limits.cpu,
		Data:     c.limits.data,
		FileSize: c.limits.fileSize,
		Bash:     c.bash,
		NetMode:  confineNetOn,
	}
	if !c.confine.Network {
		p.Net = base.Net
		p.NetMode = confineNetOff
	}
	switch {
	case c.confine.Network:
	case c.confine.Loopback:
		p.NetMode = confineNetLoopback
		p.Net = 0 // the network namespace holds only the loopback interface
	}
	p.NeedNS = confineNeedNS(c, abi)
	p.Namespaces = !c.noStage || p.NeedNS != ""
	return p
}

// confinePlanBase is the plan for one run without the roots and the
// temporary directory: its shape (confinePlanShape), and the rules for
// the system locations.
func confinePlanBase(c runConfig, abi int, tmp string) (confinePlan, ConfineLevel) {
	p := confinePlanShape(c, abi)
	hidden := c.confine.Hidden
	if hidden == nil {
		hidden = DefaultConfineHidden()
	}
	// A location that holds a root (a project under /run/user), the
	// private temporary directory (a TMPDIR under /run/user) or a
	// Writable location is not hidden: the command would lose them.
	keep := append(append([]string{tmp}, c.roots...), c.confine.Writable...)
	for _, h := range hidden {
		if !slices.ContainsFunc(keep, func(root string) bool {
			rel, err := filepath.Rel(h, root)
			return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
		}) {
			p.Hidden = append(p.Hidden, h)
		}
	}
	lvl := confineLevelOf(p, []string{"seccomp"})

	readOnly := c.confine.ReadOnly
	if readOnly == nil {
		readOnly = DefaultConfineReadOnly()
	}
	devices := c.confine.Devices
	if devices == nil {
		devices = DefaultConfineDevices()
	}
	for _, path := range readOnly {
		if confineSystemLocation(path) {
			p.Rules = append(p.Rules, confineRule{Path: path, Access: confineRead, Follow: true})
			continue
		}
		g := c.facts.grant(c, path)
		p.Rules = append(p.Rules, g.rules...)
		lvl.Secrets += g.secrets
		if g.dropped != "" {
			lvl.Dropped = append(lvl.Dropped, g.dropped)
		}
	}
	for _, path := range c.confine.Packages {
		p.Rules = append(p.Rules, confineRule{Path: path, Access: confineRead, Follow: true})
	}
	for _, path := range devices {
		p.Rules = append(p.Rules, confineRule{Path: path, Access: confineDevice, Follow: true})
	}
	for _, path := range c.confine.Writable {
		p.Rules = append(p.Rules, confineRule{Path: path, Access: confineAll, Follow: true})
	}
	return p, lvl
}

// confineLauncherWritable says why the launcher (Confinement.Launcher,
// or the running program) lies where a confined command may write (a
// root or a Writable location), or "" when it does not: a command that
// replaced it would run unconfined the next time the program runs.
func confineLauncherWritable(c runConfig) string {
	launcher := c.confine.Launcher
	if launcher == "" {
		exe, err := os.Executable()
		if err != nil {
			return "the running program cannot name its own path (" + err.Error() + "), so it cannot tell whether a confined command could replace it"
		}
		launcher = exe
	}
	if resolved, err := filepath.EvalSymlinks(launcher); err == nil {
		launcher = resolved
	}
	grants := append(append(append([]string(nil), c.roots...), c.confine.Roots...), c.confine.Writable...)
	for _, g := range grants {
		if resolved, err := filepath.EvalSymlinks(g); err == nil {
			g = resolved
		}
		if rel, err := filepath.Rel(g, launcher); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
			return "the launcher " + launcher + " lies in " + g + ", which a confined command may write: it could replace the launcher and run unconfined the next time"
		}
	}
	return ""
}

// confineNeedNS says why the run needs the namespaces, or "" when they
// only add to it.
func confineNeedNS(c runConfig, abi int) string {
	switch {
	case c.confine.Loopback && !c.confine.Network:
		return "the loopback-only network needs a network namespace of its own"
	case abi < 6:
		return "Landlock ABI " + strconv.Itoa(abi) + " cannot keep a command from signalling the user's other processes (ABI 6 can; a PID namespace would)"
	case !c.confine.ReadSecrets:
		return "the protected paths in the roots (.git/config and hooks, the agent's settings, editors' tasks, CI workflows) can be kept from being written, renamed or removed only by read-only binds in a mount namespace"
	}
	return ""
}

// confineLevelOf describes the confinement of plan p under the layers
// the launcher reported.
func confineLevelOf(p confinePlan, layers []string) ConfineLevel {
	has := func(l string) bool { return slices.Contains(layers, l) }
	lvl := ConfineLevel{Enforced: true, ABI: p.ABI, Restricted: []string{"fs"}, Layers: layers}
	if p.Net&(llNetBindTCP|llNetConnectTCP) != 0 {
		lvl.Restricted = append(lvl.Restricted, "tcp")
	}
	if p.Net&(llNetBindUDP|llNetConnectSendUDP) != 0 || p.NetMode == confineNetOff {
		lvl.Restricted = append(lvl.Restricted, "udp")
	}
	if p.NetMode == confineNetLoopback && has("netns") {
		lvl.Restricted = append(lvl.Restricted, "non-loopback")
	}
	if p.Scoped&llScopeSignal != 0 || has("pidns") {
		lvl.Restricted = append(lvl.Restricted, "signal")
	}
	if p.Scoped&llScopeAbstractUnixSocket != 0 || p.NetMode == confineNetOff {
		lvl.Restricted = append(lvl.Restricted, "abstract-unix")
	}
	if has("seccomp") {
		lvl.Restricted = append(lvl.Restricted, confineSeccompRestricts()...)
	}
	if has("mountns") {
		lvl.Restricted = append(lvl.Restricted, "runtime-sockets")
		if len(p.Binds) > 0 || len(p.Covers) > 0 {
			lvl.Restricted = append(lvl.Restricted, "protected-paths")
		}
	}
	if has("pidns") {
		lvl.Restricted = append(lvl.Restricted, "outliving")
	}
	return lvl
}

// confineWalk finds the entries of the roots that the checker does not
// let a command read, and grants the rest.
type confineWalk struct {
	checker bashguard.PathChecker
	limit   int // entries the walk may visit
	visited int
	rules   []confineRule
	secrets int
	binds   []string        // protected paths, bound read-only
	names   map[string]bool // Confinement.Protect
	// cover says that secrets bound read-only (or below a bound path)
	// are covered in the mount namespace (confineCoverable) rather than
	// left out of the grant; covers collects them.
	cover  bool
	covers []string
	// known are the identities recorded as secret (nil: not recorded);
	// hidden collects those of the entries this walk leaves out.
	known  map[confineIdentity]bool
	hidden []confineIdentity
	// plants, when not nil, records each directory listed.
	plants *confinePlantSnap
	// access, when not zero, is what a granted entry gets in place of
	// confineAll (confineRead for a read-only grant).
	access uint64
	// stamps, when not nil, records each directory listed as it was.
	stamps *[]confineDirStamp
	// maxDepth, when not zero, bounds how far below its start the walk
	// lists directories (ConfineMaxGrantDepth for a read-only grant);
	// depth is how far it is now.
	maxDepth, depth int
}

// granted is what the walk grants an entry without a secret below it.
func (w *confineWalk) granted() uint64 {
	if w.access != 0 {
		return w.access
	}
	return confineAll
}

// confineWalkAt is where the walk is: inside a git directory, or below a
// path already bound read-only.
type confineWalkAt struct {
	inGit, readOnly bool
}

// confineGitReadOnly are the entries of a git directory (at any depth:
// .git/modules/x/ holds a submodule's) that run code when git next runs
// outside, and so are bound read-only; the rest of it (objects, refs, the
// index, logs, HEAD) stays writable, for git itself.
var confineGitReadOnly = map[string]bool{"config": true, "config.worktree": true, "hooks": true}

// protect decides whether path, an entry the command may read, is bound
// read-only in the mount namespace: in a git directory by
// confineGitReadOnly, elsewhere when the checker refuses to let a command
// write it (the protected paths: the agent's settings, editors' tasks, CI
// workflows, ...). It returns where the walk is below path.
func (w *confineWalk) protect(path, name string, dir bool, at confineWalkAt) confineWalkAt {
	if at.readOnly {
		return at
	}
	if at.inGit {
		if confineGitReadOnly[name] {
			w.binds = append(w.binds, path)
			return confineWalkAt{inGit: true, readOnly: true}
		}
		return at
	}
	if dir && name == ".git" {
		return confineWalkAt{inGit: true}
	}
	if d, _ := runCheckEntry(w.checker, parentOf(path, name), name, true); d != permission.Allow || w.names[name] {
		w.binds = append(w.binds, path)
		return confineWalkAt{readOnly: true}
	}
	return at
}

// parentOf returns the directory holding the entry name at path.
func parentOf(path, name string) string {
	if d := path[:len(path)-len(name)]; d != "/" {
		return d[:len(d)-1]
	}
	return "/"
}

// confineReadDir lists a directory without following a link and without
// blocking: a FIFO or device put in its place is not opened for reading.
func confineReadDir(dir string) ([]fs.DirEntry, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), dir)
	defer f.Close()
	entries, err := f.ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// errConfineWalkBudget stops a walk that visited too many entries.
var errConfineWalkBudget = errors.New("too many entries")

// errConfineWalkDepth stops a walk that met directories nested deeper
// than its maxDepth.
var errConfineWalkDepth = errors.New("directories nested too deep")

func (w *confineWalk) root(root string) error {
	below, err := w.walk(root, confineWalkAt{})
	if errors.Is(err, errConfineWalkBudget) {
		return fmt.Errorf("%w: the roots hold more than %d entries, too many to find their secret paths (see Confinement.MaxWalk and ReadSecrets)", ErrConfineFailed, w.limit)
	}
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfineFailed, err)
	}
	if !below {
		w.rules = append(w.rules, confineRule{Path: root, Access: confineAll})
	}
	return nil
}

// list lists dir for the walk, within its depth bound, recording its
// stamp when the walk keeps them; listed is false when dir cannot be
// listed.
func (w *confineWalk) list(dir string) (entries []fs.DirEntry, listed bool, err error) {
	if w.maxDepth > 0 && w.depth > w.maxDepth {
		return nil, false, errConfineWalkDepth
	}
	if w.stamps != nil {
		// Before the listing: a change after it changes the stamp.
		st, ok := confineStampOf(dir)
		if !ok {
			return nil, false, nil
		}
		*w.stamps = append(*w.stamps, st)
	}
	entries, err = confineReadDir(dir)
	return entries, err == nil, nil
}

// walk adds the rules for the entries of dir and reports whether dir
// holds an entry, at any depth, that must not be granted. When it does
// not, walk adds nothing: the caller grants dir whole. When it does, dir
// gets every right but reading and executing files, and each entry that
// may be granted is granted by its own rule.
func (w *confineWalk) walk(dir string, at confineWalkAt) (secretBelow bool, err error) {
	entries, listed, err := w.list(dir)
	if err != nil {
		return false, err
	}
	if !listed {
		// A directory that cannot be listed cannot be searched for
		// secrets: it is not granted.
		return true, nil
	}
	w.plants.dir(dir, at, entries)
	start := len(w.rules)
	for _, e := range entries {
		if w.visited++; w.visited > w.limit {
			return false, errConfineWalkBudget
		}
		below, err := w.entry(dir, e, at)
		if err != nil {
			return false, err
		}
		secretBelow = secretBelow || below
	}
	if !secretBelow {
		w.rules = w.rules[:start]
		return false, nil
	}
	w.rules = append(w.rules, confineRule{Path: dir, Access: w.granted() &^ (llFSReadFile | llFSExecute)})
	return true, nil
}

// entry adds the rules for the entry e of dir, reached as at, and
// reports whether it is, or holds at any depth, an entry that must not be
// granted, which dir then must not be granted whole for.
func (w *confineWalk) entry(dir string, e fs.DirEntry, at confineWalkAt) (secretBelow bool, err error) {
	path := dir + "/" + e.Name()
	if dir == "/" {
		path = "/" + e.Name()
	}
	t := e.Type()
	if t&fs.ModeSymlink != 0 {
		return false, nil // never granted: the kernel judges the target
	}
	bound := len(w.binds)
	sub := w.protect(path, e.Name(), t.IsDir(), at)
	bound = len(w.binds) - bound
	var id confineIdentity
	idOK := false
	if w.known != nil {
		id, idOK = confineIdentityOf(e)
	}
	if d, _ := runCheckEntry(w.checker, dir, e.Name(), false); d != permission.Allow || (idOK && w.known[id]) {
		w.secrets++
		if idOK {
			w.hidden = append(w.hidden, id)
		}
		if w.cover && (bound > 0 || at.readOnly) {
			// Covered in the mount namespace, its own bind no more.
			w.binds = w.binds[:len(w.binds)-bound]
			w.covers = append(w.covers, path)
			return false, nil
		}
		return true, nil
	}
	if !t.IsDir() {
		w.rules = append(w.rules, confineRule{Path: path, Access: w.granted() & confineFileRights})
		return false, nil
	}
	w.depth++
	below, err := w.walk(path, sub)
	w.depth--
	if err != nil || below {
		return below, err
	}
	w.rules = append(w.rules, confineRule{Path: path, Access: w.granted()})
	return false, nil
}

// confineLaunch runs in the launcher: it reads the plan, applies the
// limits and the Landlock ruleset to itself, and executes bash. It
// returns only on failure, with the exit status.
func confineLaunch() int {
	status := os.NewFile(confineStatusFD, "status")
	planFile := os.NewFile(confinePlanFD, "plan")
	if status == nil || planFile == nil {
		return 126
	}
	// Neither pipe may reach bash.
	unix.CloseOnExec(confinePlanFD)
	unix.CloseOnExec(confineStatusFD)
	l := confineLauncher{status: status}

	br := bufio.NewReader(planFile)
	p, err := recvPlan(br)
	if err != nil {
		return l.fail("reading the plan: %v", err)
	}
	// Neither may a ruleset the runner made for the plan's shape, which
	// the plan then did not use (confineRulesetUse); the stage gets the
	// one it uses by name.
	unix.CloseOnExec(confineRulesetFD)
	l.late = func() (confineLateDone, error) {
		d, err := recvLateDone(br)
		planFile.Close()
		return d, err
	}
	if !p.Late {
		planFile.Close()
	}
	stage2 := os.Getenv(confineStageEnv) == confineStageValue
	env := confineLaunchEnv()
	argv := os.Args[1:]

	layers, noNS, exit, done := l.namespaces(&p, stage2, argv, env)
	if done {
		return exit
	}
	if p.Late && stage2 {
		// The runner's rules are in the ruleset once this line comes.
		d, err := l.late()
		if err != nil {
			return l.fail("reading the end of the ruleset: %v", err)
		}
		if d.Refuse != "" {
			return l.fail("%s", d.Refuse)
		}
	}
	fd, flags, err := confineLaunchRuleset(&p, stage2)
	if err != nil {
		return l.fail("%v", err)
	}
	if err := confineRestrictSelf(&p, fd, flags, stage2); err != nil {
		return l.fail("%v", err)
	}
	applied := confineStatus{Applied: true, Layers: append([]string{"seccomp"}, layers...), NoNS: noNS}
	if stage2 {
		// The limits bind bash, not this process: a launcher's own
		// mappings (a race-instrumented or cgo binary maps hundreds of
		// MiB) may exceed a data bound that bash keeps well within.
		pid, err := confineStartBash(&p, argv, env)
		if err != nil {
			return l.fail("executing %s: %v", p.Bash, err)
		}
		l.report(applied)
		status.Close()
		return confineReap(pid)
	}
	return l.execBash(&p, argv, env, applied)
}

// confineLauncher is the launcher's end of the status pipe, and of the
// plan pipe for a Late plan's last line.
type confineLauncher struct {
	status *os.File
	late   func() (confineLateDone, error)
}

// report writes s to the runner (sendStatus).
func (l confineLauncher) report(s confineStatus) {
	_ = sendStatus(l.status, s)
}

// fail reports the error and returns the launcher's exit status for it.
func (l confineLauncher) fail(format string, args ...any) int {
	l.report(confineStatus{Error: fmt.Sprintf(format, args...)})
	return 126
}

// confineLaunchEnv is the launcher's environment without its own
// variables: the environment bash gets.
func confineLaunchEnv() []string {
	env := make([]string, 0, len(os.Environ()))
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, confineEnv+"=") && !strings.HasPrefix(kv, confineStageEnv+"=") {
			env = append(env, kv)
		}
	}
	return env
}

// namespaces sets up the namespaces in the second stage, or starts that
// stage when the plan asks for namespaces. It returns the layers applied
// and why the namespaces did not apply; done says the launcher is to
// return exit (the stage ran and reported, or a failure was reported).
func (l confineLauncher) namespaces(p *confinePlan, stage2 bool, argv, env []string) (layers []string, noNS string, exit int, done bool) {
	switch {
	case stage2:
		ns, err := confineStageSetup(p)
		if err != nil {
			return nil, "", l.fail("setting up the namespaces: %v", err), true
		}
		return ns, "", 0, false
	case p.Namespaces:
		// The process count is bounded before the namespaces, so that it
		// counts every process of the user (a user namespace keeps the
		// bound its creator had), and again in the stage below.
		if err := confineSetLimits(0, &confinePlan{MaxProcs: p.MaxProcs}); err != nil {
			return nil, "", l.fail("%v", err), true
		}
		code, err := confineSpawnStage(p, argv, env, l.status, l.late)
		if err == nil {
			return nil, "", code, true // the stage reported
		}
		if p.NeedNS != "" {
			return nil, "", l.fail("the kernel gives no user, PID and mount namespaces here (%v), and %s", err, p.NeedNS), true
		}
		return nil, err.Error(), 0, false
	}
	return nil, "", 0, false
}

// confineLaunchRuleset is the Landlock ruleset the launcher applies, with
// the plan's rules added: the one the runner made (passed in the second
// stage) or a new one.
func confineLaunchRuleset(p *confinePlan, stage2 bool) (fd int, flags uint32, err error) {
	if p.ABI < 1 || p.ABI >= len(landlockABIs) {
		return -1, 0, fmt.Errorf("invalid Landlock ABI version %d", p.ABI)
	}
	switch {
	case p.Ruleset && !stage2:
		return -1, 0, errors.New("the made Landlock ruleset needs the namespaces, which did not apply")
	case p.Ruleset:
		fd, flags = confineRulesetFD, p.RulesetFlags
	default:
		fd, flags, err = landlockRuleset(p.handled())
	}
	if err != nil {
		return -1, 0, fmt.Errorf("creating the Landlock ruleset: %v", err)
	}
	if fd < 0 {
		return -1, 0, errors.New("the Landlock ruleset restricts nothing")
	}
	for _, r := range p.Rules {
		if err := confineAddRule(fd, r, p.FS); err != nil {
			unix.Close(fd)
			return -1, 0, err
		}
	}
	return fd, flags, nil
}

// confineRestrictSelf applies the ruleset fd and the seccomp filter to
// this thread, which is locked to the goroutine for good: it then
// executes bash (or, in the second stage, starts it), after dropping the
// capabilities of the stage's namespaces.
func confineRestrictSelf(p *confinePlan, fd int, flags uint32, stage2 bool) error {
	runtime.LockOSThread()
	if stage2 {
		if err := confineDropCaps(); err != nil {
			return err
		}
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %v", err)
	}
	if err := landlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock_restrict_self: %v", err)
	}
	unix.Close(fd)
	if err := confineSeccompApply(p.NetMode); err != nil {
		return fmt.Errorf("installing the seccomp filter: %v", err)
	}
	return nil
}

// execBash reports applied and replaces this process with bash under the
// plan's limits. Everything exec needs is made first, so that nothing
// allocates under the limits. It returns only on failure.
func (l confineLauncher) execBash(p *confinePlan, argv, env []string, applied confineStatus) int {
	argv0, err := syscall.BytePtrFromString(p.Bash)
	if err != nil {
		return l.fail("executing %s: %v", p.Bash, err)
	}
	argvp, err := syscall.SlicePtrFromStrings(argv)
	if err != nil {
		return l.fail("executing %s: %v", p.Bash, err)
	}
	envp, err := syscall.SlicePtrFromStrings(env)
	if err != nil {
		return l.fail("executing %s: %v", p.Bash, err)
	}
	l.report(applied)
	if err := confineSetLimits(0, p); err != nil {
		return l.fail("%v", err)
	}
	_, _, errno := syscall.RawSyscall(syscall.SYS_EXECVE, uintptr(unsafe.Pointer(argv0)), uintptr(unsafe.Pointer(&argvp[0])), uintptr(unsafe.Pointer(&envp[0])))
	return l.fail("executing %s: %v", p.Bash, errno)
}

// confineSetLimits sets the plan's resource limits, soft and hard, on
// process pid (0: this one), never above the host's own.
func confineSetLimits(pid int, p *confinePlan) error {
	for _, l := range []struct {
		name     string
		resource int
		value    uint64
	}{
		{"RLIMIT_NPROC", unix.RLIMIT_NPROC, uint64(max(p.MaxProcs, 0))},
		{"RLIMIT_CPU", unix.RLIMIT_CPU, p.CPU},
		{"RLIMIT_DATA", unix.RLIMIT_DATA, p.Data},
		{"RLIMIT_FSIZE", unix.RLIMIT_FSIZE, p.FileSize},
	} {
		if l.value == 0 {
			continue
		}
		lim := unix.Rlimit{Cur: l.value, Max: l.value}
		var old unix.Rlimit
		if unix.Prlimit(pid, l.resource, nil, &old) == nil && old.Max != unix.RLIM_INFINITY && old.Max < l.value {
			lim = unix.Rlimit{Cur: old.Max, Max: old.Max} // never above the host's own
		}
		if err := unix.Prlimit(pid, l.resource, &lim, nil); err != nil {
			return fmt.Errorf("setting %s to %d: %w", l.name, l.value, err)
		}
	}
	return nil
}

// confineAddRule opens the rule's path and adds it to the ruleset, with
// the rights that apply to what it is. A path that does not exist is
// skipped.
func confineAddRule(rulesetFD int, r confineRule, handled uint64) error {
	var fd int
	var err error
	if r.Follow {
		fd, err = unix.Open(r.Path, unix.O_PATH|unix.O_CLOEXEC, 0)
	} else {
		fd, err = unix.Openat2(unix.AT_FDCWD, r.Path, &unix.OpenHow{
			Flags:   unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW,
			Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
		})
	}
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("opening %s: %w", r.Path, err)
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return fmt.Errorf("stat %s: %w", r.Path, err)
	}
	access := r.Access & handled
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
	case unix.S_IFLNK:
		return nil // a link that appeared since the walk: not granted
	default:
		access &= confineFileRights
	}
	if access == 0 {
		return nil
	}
	if err := landlockAddPathBeneath(rulesetFD, fd, access); err != nil {
		return fmt.Errorf("adding the Landlock rule for %s: %w", r.Path, err)
	}
	return nil
}

// confineReadStatus reads the launcher's report to its end and returns
// the last line, or ok false when there was none.
func confineReadStatus(r io.Reader) (s confineStatus, ok bool) {
	br := bufio.NewReader(io.LimitReader(r, confineWireReportMax))
	for {
		line, err := recvStatus(br)
		if err != nil {
			// The end, or a report that does not parse: what follows
			// it cannot be framed.
			_, _ = io.Copy(io.Discard, br)
			return s, ok
		}
		s, ok = line, true
	}
}

// confineLaunchPipes are the runner's ends of the pipes to a launcher, and
// the goroutines that write the plan and read the report.
type confineLaunchPipes struct {
	planR, planW     *os.File
	statusR, statusW *os.File
	wrote            chan struct{}
	reported         chan struct{}
	status           confineStatus
	statusOK         bool
	direct           bool         // the runner starts the second stage itself (confineDirect)
	nproc            *unix.Rlimit // the runner's own bound, while startDirect lowers it
}

// confineCommand turns cmd, which would start bash, into one that starts
// the launcher: argv[0] and a variable mark it, the plan pipe is its file
// descriptor 3 and the report pipe its 4, and the rest of its argv is
// bash's.
func confineCommand(cmd *exec.Cmd, c runConfig, command string, plan *confinePlan, ruleset *os.File) (*confineLaunchPipes, error) {
	launcher := c.confine.Launcher
	if launcher == "" {
		launcher = "/proc/self/exe"
	}
	p := &confineLaunchPipes{wrote: make(chan struct{}), reported: make(chan struct{})}
	var err error
	if p.planR, p.planW, err = os.Pipe(); err != nil {
		return nil, fmt.Errorf("runner: run: %w", err)
	}
	if p.statusR, p.statusW, err = os.Pipe(); err != nil {
		p.planR.Close()
		p.planW.Close()
		return nil, fmt.Errorf("runner: run: %w", err)
	}
	cmd.Path = launcher
	cmd.Args = []string{confineArg0, c.bash, "-c", command}
	cmd.Env = append(cmd.Env[:len(cmd.Env):len(cmd.Env)], confineEnv+"="+confineEnvValue)
	cmd.ExtraFiles = []*os.File{p.planR, p.statusW} // descriptors 3 and 4
	if ruleset != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, ruleset) // 5
	}
	if p.direct = confineDirect(c, plan); p.direct {
		// The second stage, started here as the first would start it:
		// the same plan and report pipes, the same namespaces.
		cmd.Env = append(cmd.Env, confineStageEnv+"="+confineStageValue)
		ns := confineNSAttr(plan.NetMode != confineNetOn)
		ns.Setpgid = cmd.SysProcAttr.Setpgid
		cmd.SysProcAttr = ns
	}
	return p, nil
}

// confineDirect reports whether the runner starts the launcher's second
// stage itself (Confinement.OwnProcess): for a plan that needs the
// namespaces, which confineAvailable has then found the kernel gives,
// and no other user to run as (the first stage would become that user
// before it made the namespaces).
func confineDirect(c runConfig, plan *confinePlan) bool {
	return c.confine.OwnProcess && c.credential == nil && plan != nil && plan.Namespaces && plan.NeedNS != ""
}

// startDirect prepares the runner's process to start the second stage
// itself. The process count is bounded before the namespaces are made,
// as the first stage bounds its own: a user namespace keeps the bound its
// creator had when it was made (the soft RLIMIT_NPROC), which counts
// every process of the user, and the stage bounds itself again, soft and
// hard. Only the runner's soft bound is lowered, and only until the stage
// has started (started restores it): the runner's own threads are never
// refused because the command made processes up to its bound, so the
// runner always lives to clean up after it. The starting thread is
// locked, so that the stage's parent-death signal follows the runner's
// life and not a thread's; the caller unlocks it once the stage is gone.
func (p *confineLaunchPipes) startDirect(plan *confinePlan) error {
	if p == nil || !p.direct {
		return nil
	}
	runtime.LockOSThread()
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NPROC, &lim); err != nil {
		return fmt.Errorf("%w: reading RLIMIT_NPROC: %w", ErrConfineFailed, err)
	}
	p.nproc = &lim
	bound := lim
	bound.Cur = min(uint64(max(plan.MaxProcs, 0)), lim.Max)
	if err := unix.Setrlimit(unix.RLIMIT_NPROC, &bound); err != nil {
		return fmt.Errorf("%w: setting RLIMIT_NPROC to %d: %w", ErrConfineFailed, bound.Cur, err)
	}
	return nil
}

// restoreBound gives the runner back the soft process-count bound
// startDirect lowered, once the stage has started (or failed to).
func (p *confineLaunchPipes) restoreBound() {
	if p == nil || p.nproc == nil {
		return
	}
	_ = unix.Setrlimit(unix.RLIMIT_NPROC, p.nproc)
	p.nproc = nil
}

// close closes every end, when the launcher did not start.
func (p *confineLaunchPipes) close() {
	if p == nil {
		return
	}
	p.planR.Close()
	p.planW.Close()
	p.statusR.Close()
	p.statusW.Close()
}

// started closes the ends the launcher now holds and starts writing the
// plan, once planned is prepared, and reading the report. A plan that
// could not be prepared is not written: the launcher reads the pipe's
// end, and fails.
func (p *confineLaunchPipes) started(planned *confinePlanned) {
	if p == nil {
		return
	}
	p.planR.Close()
	p.statusW.Close()
	go func() {
		defer close(p.wrote)
		plan, err := planned.wait()
		if err != nil {
			p.planW.Close()
			return
		}
		_ = sendPlan(p.planW, plan)
		if plan.Late {
			// Added while the launcher starts (startLate); the line
			// after the plan says they are in.
			plan.startLate()
			plan.waitLate()
			_ = sendLateDone(p.planW, confineLateDone{Refuse: plan.refuse})
		}
		p.planW.Close()
	}()
	go func() {
		defer close(p.reported)
		p.status, p.statusOK = confineReadStatus(p.statusR)
	}()
}

// pidNSEnded reports, once the launcher has ended by exiting, whether it
// ran bash in a PID namespace of its own: then no process of the command
// is left anywhere. Every process bash started is in that namespace
// (none can leave it), the kernel kills them all when the namespace's
// first process, the second stage, ends, and that end is complete only
// once they are gone; the launcher exits only after it has waited for
// the stage. The runner's sweep of /proc (runSweep) then finds nothing,
// and is not needed. The report is in by then: only the stages hold the
// pipe it comes on, and bash never gets it.
func (p *confineLaunchPipes) pidNSEnded() bool {
	if p == nil {
		return false
	}
	<-p.reported
	return p.statusOK && p.status.Applied && slices.Contains(p.status.Layers, "pidns")
}

// finish waits for the plan writer and the report, once the launcher and
// everything it started are gone, and says whether the launcher confined
// and executed bash. A launcher that a timeout or cancellation killed
// before it reported is not an error: nothing ran.
func (p *confineLaunchPipes) finish(launcher string, killed bool, exitCode int) error {
	// p.status, once finish returns, holds the launcher's report.
	// A launcher that never read its plan leaves the writer blocked;
	// closing the file releases it.
	p.planW.Close()
	<-p.wrote
	_ = p.statusR.SetReadDeadline(time.Now().Add(runDrainGrace))
	<-p.reported
	p.statusR.Close()
	switch {
	case !p.statusOK && killed:
		return nil
	case !p.statusOK:
		return fmt.Errorf("%w: the launcher %s did not report (it exited with status %d; does it call runner.ConfineMain first thing in main?); the command did not run", ErrConfineFailed, launcher, exitCode)
	case p.status.Error != "":
		return fmt.Errorf("%w: %s; the command did not run", ErrConfineFailed, p.status.Error)
	case !p.status.Applied:
		return fmt.Errorf("%w: the launcher %s reported no confinement; the command did not run", ErrConfineFailed, launcher)
	}
	return nil
}

// CanConfine reports whether r's commands would run confined by the
// kernel as r.Confinement asks, and when not, why: the program must call
// [ConfineMain] (or name a Launcher), and the kernel must offer Landlock,
// at ABI 4 or later when the network is off. Where the namespaces are
// needed and [Shell.Namespaces] is nil, it starts the namespace probe
// ([ProbeNamespaces]); it starts nothing else.
func (r *Shell) CanConfine() (bool, string) {
	if r == nil {
		r = &Shell{}
	}
	c := runConfig{confine: r.Confinement, probe: r.probe, nsProbe: r.namespaces()}
	if len(r.Confinement.Roots) == 0 && r.Dir != "" {
		c.roots = []string{r.Dir}
	}
	s := confineAvailable(c)
	return s.abi > 0, s.reason
}
