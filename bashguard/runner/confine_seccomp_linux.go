//go:build linux

package runner

import (
	"errors"
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The seccomp layer. Landlock sees files and TCP ports; it does not see
// which socket a command opens (a pathname UNIX socket before ABI 9, UDP
// before ABI 10, MPTCP, raw and packet sockets), nor the system calls that
// act on another process without signalling it (prlimit64, setpriority,
// ioprio_set, sched_setaffinity) or that reach the user's keyring. The
// launcher installs a seccomp filter for those, built here as classic BPF
// from a table of rows, one per system call: each row either refuses the
// call or allows it only when its arguments match one of its
// alternatives.
//
// The filter is built with golang.org/x/sys/unix alone (SockFilter and the
// BPF opcodes), so that the library keeps no cgo and no further
// dependency: the program is a few dozen instructions, and the table below
// reads as the policy.

// confineSeccompArch is the audit architecture of the running program and
// whether its system call numbers are those of x/sys/unix for GOARCH; a
// filter is only built for the architectures listed.
var confineSeccompArch = map[string]uint32{
	"amd64": unix.AUDIT_ARCH_X86_64,
	"arm64": unix.AUDIT_ARCH_AARCH64,
}

// scCond matches argument Arg of a system call (its low 32 bits, or its
// high ones with High), after a bitwise AND with Mask when Mask is not
// zero, against any of In.
type scCond struct {
	Arg  int
	High bool
	Mask uint32
	In   []uint32
}

// scRule is one row: system call Nr is refused with Errno unless its
// arguments match every condition of one of Allow. A row with no Allow
// refuses the call always.
type scRule struct {
	Nr    uintptr
	Errno unix.Errno
	Allow [][]scCond
}

// The offsets of struct seccomp_data.
const (
	scOffNr   = 0
	scOffArch = 4
	scOffArgs = 16
)

// Return values of a seccomp filter.
const (
	scRetAllow       = 0x7fff0000 // SECCOMP_RET_ALLOW
	scRetErrno       = 0x00050000 // SECCOMP_RET_ERRNO | errno
	scRetKillProcess = 0x80000000 // SECCOMP_RET_KILL_PROCESS
)

// confineNetMode is how much of the network a confined command reaches.
type confineNetMode uint8

const (
	// confineNetOff: no socket but AF_UNIX stream pairs.
	confineNetOff confineNetMode = iota
	// confineNetLoopback: IP sockets, inside a network namespace that
	// holds only the loopback interface.
	confineNetLoopback
	// confineNetOn: IP sockets to anywhere.
	confineNetOn
)

// The argument values the rows name. x/sys/unix has each; they are listed
// as uint32 for the filter.
const (
	scAFUnix    = uint32(unix.AF_UNIX)
	scAFInet    = uint32(unix.AF_INET)
	scAFInet6   = uint32(unix.AF_INET6)
	scAFNetlink = uint32(unix.AF_NETLINK)
	scStream    = uint32(unix.SOCK_STREAM)
	scDgram     = uint32(unix.SOCK_DGRAM)
	scSeqPacket = uint32(unix.SOCK_SEQPACKET)
	// scSockType masks the socket type out of SOCK_CLOEXEC and
	// SOCK_NONBLOCK.
	scSockType = 0xf
)

// confineSeccompRules is the policy for a network mode: the rows of the
// filter.
//
//   - socket: with the network off, refused whatever the family, so that
//     no socket can reach a pathname or abstract UNIX socket (an
//     ssh-agent, gpg-agent, the D-Bus session bus, a database), UDP, MPTCP
//     or raw and packet sockets. Otherwise only AF_INET and AF_INET6
//     stream and datagram sockets with the default protocol, TCP or UDP
//     (not MPTCP: Landlock's TCP rules do not see it), and route netlink
//     for the C library's address lookups. Never AF_UNIX: the only UNIX
//     sockets are pairs.
//   - socketpair: AF_UNIX stream and sequenced-packet pairs (a datagram
//     pair can send to any address named in sendmsg).
//   - connect, bind, listen: refused with the network off (a pair needs
//     none of them).
//   - sendto with an address: refused with the network off.
//   - io_uring_setup, io_uring_enter, io_uring_register: refused, since
//     io_uring opens and connects sockets without these system calls.
//   - prlimit64, setpriority, ioprio_set, sched_setaffinity,
//     sched_setscheduler, sched_setparam, sched_setattr: only on the
//     calling process itself (pid 0; PRIO_PROCESS and IOPRIO_WHO_PROCESS
//     with who 0), never on another of the user's processes.
//   - keyctl, add_key, request_key: refused (the user's keyrings).
func confineSeccompRules(net confineNetMode) []scRule {
	self := func(arg int) []scCond { return []scCond{{Arg: arg, In: []uint32{0}}} }
	rules := []scRule{
		{Nr: unix.SYS_SOCKETPAIR, Errno: unix.EACCES, Allow: [][]scCond{{
			{Arg: 0, In: []uint32{scAFUnix}},
			{Arg: 1, Mask: scSockType, In: []uint32{scStream, scSeqPacket}},
		}}},
		{Nr: unix.SYS_IO_URING_SETUP, Errno: unix.EPERM},
		{Nr: unix.SYS_IO_URING_ENTER, Errno: unix.EPERM},
		{Nr: unix.SYS_IO_URING_REGISTER, Errno: unix.EPERM},
		{Nr: unix.SYS_PRLIMIT64, Errno: unix.EPERM, Allow: [][]scCond{self(0)}},
		{Nr: unix.SYS_SETPRIORITY, Errno: unix.EPERM, Allow: [][]scCond{{
			{Arg: 0, In: []uint32{unix.PRIO_PROCESS}}, {Arg: 1, In: []uint32{0}},
		}}},
		{Nr: unix.SYS_IOPRIO_SET, Errno: unix.EPERM, Allow: [][]scCond{{
			{Arg: 0, In: []uint32{1}}, {Arg: 1, In: []uint32{0}}, // IOPRIO_WHO_PROCESS, the caller
		}}},
		{Nr: unix.SYS_SCHED_SETAFFINITY, Errno: unix.EPERM, Allow: [][]scCond{self(0)}},
		{Nr: unix.SYS_SCHED_SETSCHEDULER, Errno: unix.EPERM, Allow: [][]scCond{self(0)}},
		{Nr: unix.SYS_SCHED_SETPARAM, Errno: unix.EPERM, Allow: [][]scCond{self(0)}},
		{Nr: unix.SYS_SCHED_SETATTR, Errno: unix.EPERM, Allow: [][]scCond{self(0)}},
		{Nr: unix.SYS_KEYCTL, Errno: unix.EPERM},
		{Nr: unix.SYS_ADD_KEY, Errno: unix.EPERM},
		{Nr: unix.SYS_REQUEST_KEY, Errno: unix.EPERM},
	}
	if net == confineNetOff {
		return append(rules,
			scRule{Nr: unix.SYS_SOCKET, Errno: unix.EACCES},
			scRule{Nr: unix.SYS_CONNECT, Errno: unix.EACCES},
			scRule{Nr: unix.SYS_BIND, Errno: unix.EACCES},
			scRule{Nr: unix.SYS_LISTEN, Errno: unix.EACCES},
			scRule{Nr: unix.SYS_SENDTO, Errno: unix.EACCES, Allow: [][]scCond{{
				{Arg: 4, In: []uint32{0}}, {Arg: 4, High: true, In: []uint32{0}},
			}}},
		)
	}
	ipProto := []uint32{0, unix.IPPROTO_TCP, unix.IPPROTO_UDP}
	return append(rules, scRule{Nr: unix.SYS_SOCKET, Errno: unix.EACCES, Allow: [][]scCond{
		{
			{Arg: 0, In: []uint32{scAFInet, scAFInet6}},
			{Arg: 1, Mask: scSockType, In: []uint32{scStream, scDgram}},
			{Arg: 2, In: ipProto},
		},
		{
			{Arg: 0, In: []uint32{scAFNetlink}},
			{Arg: 1, Mask: scSockType, In: []uint32{scDgram, uint32(unix.SOCK_RAW)}},
			{Arg: 2, In: []uint32{unix.NETLINK_ROUTE}},
		},
	}})
}

// errSeccompProgram is returned for a table the filter cannot encode.
var errSeccompProgram = errors.New("seccomp filter too large")

// The BPF instructions the filter is made of.
const (
	scLdAbs = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
	scJeq   = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
	scJge   = unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K
	scAnd   = unix.BPF_ALU | unix.BPF_AND | unix.BPF_K
	scRet   = unix.BPF_RET | unix.BPF_K
)

func scIns(code uint16, k uint32, jt, jf uint8) unix.SockFilter {
	return unix.SockFilter{Code: code, Jt: jt, Jf: jf, K: k}
}

// confineSeccompProgram assembles the filter for the rules on arch:
// anything from another architecture (and, on x86-64, the x32 system
// calls) kills the process; a listed system call goes through its row;
// every other call is allowed.
func confineSeccompProgram(arch uint32, rules []scRule) ([]unix.SockFilter, error) {
	prog := []unix.SockFilter{
		scIns(scLdAbs, scOffArch, 0, 0),
		scIns(scJeq, arch, 1, 0),
		scIns(scRet, scRetKillProcess, 0, 0),
		scIns(scLdAbs, scOffNr, 0, 0),
	}
	if arch == unix.AUDIT_ARCH_X86_64 {
		prog = append(prog, scIns(scJge, 0x40000000, 0, 1), scIns(scRet, scRetKillProcess, 0, 0))
	}
	for _, r := range rules {
		block, err := scRowBlock(r)
		if err != nil {
			return nil, err
		}
		if len(block) > 255 || r.Nr > 0xffffffff {
			return nil, errSeccompProgram
		}
		prog = append(prog, scIns(scJeq, uint32(r.Nr), 0, uint8(len(block))))
		prog = append(prog, block...)
		// The block may have loaded an argument; it always returns, so
		// the next row's test still sees the number only through this
		// row's jf, taken before the block ran.
	}
	prog = append(prog, scIns(scRet, scRetAllow, 0, 0))
	if len(prog) > 4096 {
		return nil, errSeccompProgram
	}
	return prog, nil
}

// scRowBlock is a row's block: each alternative, conditions in turn; a
// failed condition goes to the next alternative, the last alternative's
// to the refusal.
func scRowBlock(r scRule) ([]unix.SockFilter, error) {
	var block []unix.SockFilter
	for _, alt := range r.Allow {
		next := len(block) + scAltLen(alt) // where the next alternative (or the refusal) starts
		for _, c := range alt {
			var err error
			if block, err = scCondAppend(block, c, next); err != nil {
				return nil, err
			}
		}
		block = append(block, scIns(scRet, scRetAllow, 0, 0))
	}
	return append(block, scIns(scRet, scRetErrno|uint32(r.Errno), 0, 0)), nil
}

// scAltLen is the number of instructions of an alternative: its
// conditions and its allow.
func scAltLen(alt []scCond) int {
	n := 1 // its allow
	for _, c := range alt {
		n += 1 + len(c.In)
		if c.Mask != 0 {
			n++
		}
	}
	return n
}

// scCondAppend appends condition c to block: the argument's load, its
// mask, and a test per value that goes on to the next condition when it
// matches; the last value's failure goes to next, an index in block.
func scCondAppend(block []unix.SockFilter, c scCond, next int) ([]unix.SockFilter, error) {
	off := uint32(scOffArgs + 8*c.Arg)
	if c.High {
		off += 4
	}
	block = append(block, scIns(scLdAbs, off, 0, 0))
	if c.Mask != 0 {
		block = append(block, scIns(scAnd, c.Mask, 0, 0))
	}
	after := len(block) + len(c.In) // the next condition
	for j, v := range c.In {
		at := len(block)
		jt := after - (at + 1)
		jf := 0
		if j == len(c.In)-1 {
			jf = next - (at + 1)
		}
		if jt > 255 || jf > 255 {
			return nil, errSeccompProgram
		}
		block = append(block, scIns(scJeq, v, uint8(jt), uint8(jf)))
	}
	return block, nil
}

// confineSeccompProbe says why the kernel or the architecture cannot take
// the filter, or "" when it can.
func confineSeccompProbe() string {
	if _, ok := confineSeccompArch[runtime.GOARCH]; !ok {
		return "no seccomp filter is built for " + runtime.GOARCH
	}
	if _, err := unix.PrctlRetInt(unix.PR_GET_SECCOMP, 0, 0, 0, 0); err != nil {
		return "the kernel has no seccomp (prctl(PR_GET_SECCOMP): " + err.Error() + ")"
	}
	return ""
}

// confineSeccompApply installs the filter for net on the calling thread,
// which must have set no_new_privs and then only executes bash.
func confineSeccompApply(net confineNetMode) error {
	arch, ok := confineSeccompArch[runtime.GOARCH]
	if !ok {
		return fmt.Errorf("no seccomp filter is built for %s", runtime.GOARCH)
	}
	prog, err := confineSeccompProgram(arch, confineSeccompRules(net))
	if err != nil {
		return err
	}
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	if err := unix.Prctl(unix.PR_SET_SECCOMP, unix.SECCOMP_MODE_FILTER, uintptr(unsafe.Pointer(&fprog)), 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_SECCOMP): %w", err)
	}
	runtime.KeepAlive(prog)
	return nil
}

// confineSeccompRestricts names what the filter refuses in every network
// mode, for [ConfineLevel.Restricted].
func confineSeccompRestricts() []string {
	return []string{"unix-socket", "mptcp", "raw-socket", "io-uring", "other-processes", "keyring"}
}
