//go:build linux

package runner

import (
	"errors"
	"fmt"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// This file is the runner's Landlock layer: the few system calls the
// confinement makes, on golang.org/x/sys/unix and nothing else, so that
// the toolgate command stays a static binary without the C library. It
// queries the kernel's ABI version and errata, makes a ruleset of
// handled rights, adds path-beneath and network-port rules to it, and
// applies it to the calling thread only: the launcher restricts one
// locked thread right before it executes bash, so no mechanism to
// restrict every thread of the process is needed. What each ABI version
// handles is data, in landlockABIs.

// Landlock filesystem access rights, as linux/landlock.h numbers them.
const (
	llFSExecute     = unix.LANDLOCK_ACCESS_FS_EXECUTE
	llFSWriteFile   = unix.LANDLOCK_ACCESS_FS_WRITE_FILE
	llFSReadFile    = unix.LANDLOCK_ACCESS_FS_READ_FILE
	llFSReadDir     = unix.LANDLOCK_ACCESS_FS_READ_DIR
	llFSRemoveDir   = unix.LANDLOCK_ACCESS_FS_REMOVE_DIR
	llFSRemoveFile  = unix.LANDLOCK_ACCESS_FS_REMOVE_FILE
	llFSMakeChar    = unix.LANDLOCK_ACCESS_FS_MAKE_CHAR
	llFSMakeDir     = unix.LANDLOCK_ACCESS_FS_MAKE_DIR
	llFSMakeReg     = unix.LANDLOCK_ACCESS_FS_MAKE_REG
	llFSMakeSock    = unix.LANDLOCK_ACCESS_FS_MAKE_SOCK
	llFSMakeFifo    = unix.LANDLOCK_ACCESS_FS_MAKE_FIFO
	llFSMakeBlock   = unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK
	llFSMakeSym     = unix.LANDLOCK_ACCESS_FS_MAKE_SYM
	llFSRefer       = unix.LANDLOCK_ACCESS_FS_REFER
	llFSTruncate    = unix.LANDLOCK_ACCESS_FS_TRUNCATE
	llFSIoctlDev    = unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	llFSResolveUnix = unix.LANDLOCK_ACCESS_FS_RESOLVE_UNIX
)

// Landlock network access rights, as linux/landlock.h numbers them.
const (
	llNetBindTCP        = unix.LANDLOCK_ACCESS_NET_BIND_TCP
	llNetConnectTCP     = unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	llNetBindUDP        = unix.LANDLOCK_ACCESS_NET_BIND_UDP
	llNetConnectSendUDP = unix.LANDLOCK_ACCESS_NET_CONNECT_SEND_UDP
)

// Landlock IPC scopes, as linux/landlock.h numbers them.
const (
	llScopeAbstractUnixSocket = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
	llScopeSignal             = unix.LANDLOCK_SCOPE_SIGNAL
)

// llRuleNetPort is landlock_add_rule's rule type for a network port
// (LANDLOCK_RULE_NET_PORT), which golang.org/x/sys/unix does not name.
const llRuleNetPort = 2

// llErratumSignalScope is the bit of the errata query that says the
// kernel has the fix for signal scoping; without it, ABI 6 and later
// count as 5.
const llErratumSignalScope = 0x2

// landlockABI is what one Landlock ABI version handles: the filesystem
// and network access rights and the IPC scopes. A ruleset that handles
// every one of them restricts all the version can.
type landlockABI struct {
	FS, Net, Scoped uint64
}

// landlockABIs holds, by ABI version, what each version handles; index 0
// is a kernel without Landlock. Versions 7, 8 and 11 add only
// landlock_restrict_self flags (audit logging, thread synchronisation),
// which the runner does not use, so they handle what the one before
// does. A kernel newer than the last entry counts as the last.
var landlockABIs = [...]landlockABI{
	{},
	{FS: 1<<13 - 1},                // 1: files and directories
	{FS: 1<<14 - 1},                // 2: + refer
	{FS: 1<<15 - 1},                // 3: + truncate
	{FS: 1<<15 - 1, Net: 1<<2 - 1}, // 4: + TCP bind and connect
	{FS: 1<<16 - 1, Net: 1<<2 - 1}, // 5: + ioctl on devices
	{FS: 1<<16 - 1, Net: 1<<2 - 1, Scoped: 1<<2 - 1}, // 6: + abstract sockets and signals
	{FS: 1<<16 - 1, Net: 1<<2 - 1, Scoped: 1<<2 - 1}, // 7: logging flags
	{FS: 1<<16 - 1, Net: 1<<2 - 1, Scoped: 1<<2 - 1}, // 8: thread synchronisation
	{FS: 1<<17 - 1, Net: 1<<2 - 1, Scoped: 1<<2 - 1}, // 9: + pathname UNIX sockets
	{FS: 1<<17 - 1, Net: 1<<4 - 1, Scoped: 1<<2 - 1}, // 10: + UDP bind and connect/send
	{FS: 1<<17 - 1, Net: 1<<4 - 1, Scoped: 1<<2 - 1}, // 11: no new rights
}

// Names of the access rights and scopes, by bit, for error messages.
var (
	llFSNames     = []string{"execute", "write_file", "read_file", "read_dir", "remove_dir", "remove_file", "make_char", "make_dir", "make_reg", "make_sock", "make_fifo", "make_block", "make_sym", "refer", "truncate", "ioctl_dev", "resolve_unix"}
	llNetNames    = []string{"bind_tcp", "connect_tcp", "bind_udp", "connect_send_udp"}
	llScopedNames = []string{"abstract_unix_socket", "signal"}
)

// covers reports whether a handles every right and scope of b.
func (a landlockABI) covers(b landlockABI) bool {
	return b.FS&^a.FS == 0 && b.Net&^a.Net == 0 && b.Scoped&^a.Scoped == 0
}

// String describes the set as {Landlock V<n>; FS: …; Net: …; Scoped: …},
// where V<n> is the oldest ABI version that handles it all (V??? for
// none) and "all" stands for everything that version has of a kind.
func (a landlockABI) String() string {
	version, abi := "V???", landlockABI{}
	for v := len(landlockABIs) - 1; v >= 0; v-- {
		if landlockABIs[v].covers(a) {
			version, abi = fmt.Sprintf("V%d", v), landlockABIs[v]
		}
	}
	desc := func(set, all uint64, names []string) string {
		if set == all && set != 0 {
			return "all"
		}
		return llSetString(set, names)
	}
	return fmt.Sprintf("{Landlock %s; FS: %s; Net: %s; Scoped: %s}", version,
		desc(a.FS, abi.FS, llFSNames), desc(a.Net, abi.Net, llNetNames), desc(a.Scoped, abi.Scoped, llScopedNames))
}

// llSetString names the bits of set, {a,b}, an unnamed bit as 1<<i and
// the empty set as ∅.
func llSetString(set uint64, names []string) string {
	if set == 0 {
		return "∅"
	}
	var b strings.Builder
	b.WriteByte('{')
	for i := range 64 {
		if set&(1<<i) == 0 {
			continue
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		if i < len(names) {
			b.WriteString(names[i])
		} else {
			fmt.Fprintf(&b, "1<<%d", i)
		}
	}
	b.WriteByte('}')
	return b.String()
}

// landlockVersion asks the kernel for its Landlock ABI version with
// landlock_create_ruleset's version query.
func landlockVersion() (int, error) {
	r, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return int(int32(r)), errno
	}
	return int(r), nil
}

// landlockErrata asks the kernel which Landlock errata it has fixed, as
// a bit mask, with landlock_create_ruleset's errata query.
func landlockErrata() (int, error) {
	r, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_ERRATA)
	if errno != 0 {
		return 0, errno
	}
	return int(r), nil
}

// landlockErrataDowngrade returns ABI version v as far as it can be
// trusted: 6 or later counts as 5 on a kernel whose errata query fails
// or lacks the fix for signal scoping.
func landlockErrataDowngrade(v int) int {
	if v >= 6 {
		if errata, err := landlockErrata(); err != nil || errata&llErratumSignalScope == 0 {
			return 5
		}
	}
	return v
}

// landlockKernelABI is the ABI version a ruleset is checked against: the
// kernel's, after the errata downgrade, 0 without Landlock, and the last
// of landlockABIs for a newer kernel.
func landlockKernelABI() int {
	v, err := landlockVersion()
	if err != nil || v < 0 {
		return 0
	}
	return min(landlockErrataDowngrade(v), len(landlockABIs)-1)
}

// landlockRuleset makes a Landlock ruleset that handles the rights and
// scopes of h, with no rules yet. It returns the descriptor (close on
// exec), or -1 and no error when h handles nothing, and the flags for
// landlock_restrict_self, which are none: the runner asks for no audit
// logging changes, and the flags that only say how to apply the ruleset
// (synchronising threads, setting no_new_privs) are the caller's to add.
// Rights unknown to landlockABIs, and rights the running kernel does
// not handle, are refused rather than dropped.
func landlockRuleset(h landlockABI) (fd int, flags uint32, err error) {
	if !landlockABIs[len(landlockABIs)-1].covers(h) {
		return -1, 0, fmt.Errorf("unsupported access rights in %v: %w", h, unix.EINVAL)
	}
	if abi := landlockKernelABI(); !landlockABIs[abi].covers(h) {
		return -1, 0, fmt.Errorf("missing kernel Landlock support. Got Landlock ABI v%d, wanted %v", abi, h)
	}
	if h == (landlockABI{}) {
		return -1, 0, nil // nothing to restrict
	}
	attr := unix.LandlockRulesetAttr{Handled_access_fs: h.FS, Handled_access_net: h.Net, Scoped: h.Scoped}
	r, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		var err error = errno
		switch {
		case errors.Is(errno, unix.ENOSYS), errors.Is(errno, unix.EOPNOTSUPP):
			err = errors.New("landlock is not supported by kernel or not enabled at boot time")
		case errors.Is(errno, unix.EINVAL):
			err = errors.New("unknown flags, unknown access, or too small size")
		}
		return -1, 0, fmt.Errorf("landlock_create_ruleset: %w", err)
	}
	return int(r), 0, nil
}

// landlockAddPathBeneath adds a rule to the ruleset that grants access
// beneath the file or directory open (O_PATH) as fd.
func landlockAddPathBeneath(rulesetFD, fd int, access uint64) error {
	attr := unix.LandlockPathBeneathAttr{Allowed_access: access, Parent_fd: int32(fd)}
	return landlockAddRule(rulesetFD, unix.LANDLOCK_RULE_PATH_BENEATH, unsafe.Pointer(&attr))
}

// llNetPortAttr is struct landlock_net_port_attr: the network rights a
// rule grants on one port.
type llNetPortAttr struct {
	AllowedAccess uint64
	Port          uint64
}

// landlockAddNetPort adds a rule to the ruleset that grants access (the
// network rights) on TCP or UDP port port.
func landlockAddNetPort(rulesetFD int, access, port uint64) error {
	attr := llNetPortAttr{AllowedAccess: access, Port: port}
	return landlockAddRule(rulesetFD, llRuleNetPort, unsafe.Pointer(&attr))
}

// landlockAddRule is landlock_add_rule(2) with no flags.
func landlockAddRule(rulesetFD, ruleType int, attr unsafe.Pointer) error {
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(rulesetFD), uintptr(ruleType), uintptr(attr), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}

// landlockRestrictSelf applies the ruleset to the calling thread
// (landlock_restrict_self(2)); the caller holds the thread locked, has
// set no_new_privs on it, and never unlocks it.
func landlockRestrictSelf(rulesetFD int, flags uint32) error {
	_, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(rulesetFD), uintptr(flags), 0)
	if errno != 0 {
		return errno
	}
	return nil
}
