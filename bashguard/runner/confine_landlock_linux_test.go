//go:build linux

package runner

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"unsafe"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// goLandlockABIs are go-landlock's configurations by ABI version, the
// reference the runner's own table is held to.
var goLandlockABIs = []landlock.Config{
	{}, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5, landlock.V6,
	landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11,
}

// toConfig is h as a go-landlock configuration.
func (h landlockABI) toConfig() landlock.Config {
	return landlock.Config{
		HandledAccessFS:  landlock.AccessFSSet(h.FS),
		HandledAccessNet: landlock.AccessNetSet(h.Net),
		Scoped:           landlock.ScopedSet(h.Scoped),
	}
}

// The table of what each ABI version handles is go-landlock's, version
// by version, and knows as many versions.
func TestLandlockABIsMatchGoLandlock(t *testing.T) {
	require.Len(t, landlockABIs, len(goLandlockABIs), "the table knows as many ABI versions as go-landlock")
	for v, c := range goLandlockABIs {
		got := landlockABIs[v]
		assert.Equal(t, uint64(c.HandledAccessFS), got.FS, "filesystem rights of ABI %d", v)
		assert.Equal(t, uint64(c.HandledAccessNet), got.Net, "network rights of ABI %d", v)
		assert.Equal(t, uint64(c.Scoped), got.Scoped, "scopes of ABI %d", v)
	}
}

// Every right, scope, flag and structure size the layer uses is the
// number go-landlock uses.
func TestLandlockConstantsMatchGoLandlock(t *testing.T) {
	for name, pair := range map[string][2]uint64{
		"execute":              {llFSExecute, ll.AccessFSExecute},
		"write_file":           {llFSWriteFile, ll.AccessFSWriteFile},
		"read_file":            {llFSReadFile, ll.AccessFSReadFile},
		"read_dir":             {llFSReadDir, ll.AccessFSReadDir},
		"remove_dir":           {llFSRemoveDir, ll.AccessFSRemoveDir},
		"remove_file":          {llFSRemoveFile, ll.AccessFSRemoveFile},
		"make_char":            {llFSMakeChar, ll.AccessFSMakeChar},
		"make_dir":             {llFSMakeDir, ll.AccessFSMakeDir},
		"make_reg":             {llFSMakeReg, ll.AccessFSMakeReg},
		"make_sock":            {llFSMakeSock, ll.AccessFSMakeSock},
		"make_fifo":            {llFSMakeFifo, ll.AccessFSMakeFifo},
		"make_block":           {llFSMakeBlock, ll.AccessFSMakeBlock},
		"make_sym":             {llFSMakeSym, ll.AccessFSMakeSym},
		"refer":                {llFSRefer, ll.AccessFSRefer},
		"truncate":             {llFSTruncate, ll.AccessFSTruncate},
		"ioctl_dev":            {llFSIoctlDev, ll.AccessFSIoctlDev},
		"resolve_unix":         {llFSResolveUnix, ll.AccessFSResolveUnix},
		"bind_tcp":             {llNetBindTCP, ll.AccessNetBindTCP},
		"connect_tcp":          {llNetConnectTCP, ll.AccessNetConnectTCP},
		"bind_udp":             {llNetBindUDP, ll.AccessNetBindUDP},
		"connect_send_udp":     {llNetConnectSendUDP, ll.AccessNetConnectSendUDP},
		"abstract_unix_socket": {llScopeAbstractUnixSocket, ll.ScopeAbstractUnixSocket},
		"signal":               {llScopeSignal, ll.ScopeSignal},
		"rule net port":        {llRuleNetPort, ll.RuleTypeNetPort},
		"rule path beneath":    {unix.LANDLOCK_RULE_PATH_BENEATH, ll.RuleTypePathBeneath},
	} {
		assert.Equal(t, pair[1], pair[0], "%s", name)
	}
	assert.Len(t, llFSNames, 17, "one name per filesystem right")
	assert.Len(t, llNetNames, 4, "one name per network right")
	assert.Len(t, llScopedNames, 2, "one name per scope")
	assert.Equal(t, unsafe.Sizeof(ll.RulesetAttr{}), unsafe.Sizeof(unix.LandlockRulesetAttr{}), "the ruleset attribute has go-landlock's size")
	assert.Equal(t, unsafe.Sizeof(ll.NetPortAttr{}), unsafe.Sizeof(llNetPortAttr{}), "the port attribute has go-landlock's size")
	assert.Equal(t, uintptr(12), unsafe.Offsetof(unix.LandlockPathBeneathAttr{}.Parent_fd)+unsafe.Sizeof(int32(0)), "the path attribute is the kernel's packed 12 bytes and padding")
}

// A set reads in error messages as go-landlock's configuration does.
func TestLandlockSetStringMatchesGoLandlock(t *testing.T) {
	sets := []landlockABI{
		{}, {FS: llFSExecute}, {FS: confineAll}, {FS: confineRead, Net: llNetBindTCP},
		{Scoped: llScopeSignal}, {FS: 1 << 20}, {Net: 1 << 9, Scoped: 1 << 5},
	}
	sets = append(sets, landlockABIs[:]...)
	for _, h := range sets {
		assert.Equal(t, h.toConfig().String(), h.String(), "%#v", h)
	}
}

// The kernel queries answer as go-landlock's do, and the runner's
// probe takes the same ABI version the table check uses.
func TestLandlockQueriesMatchGoLandlock(t *testing.T) {
	v, err := landlockVersion()
	wantV, wantErr := ll.LandlockGetABIVersion()
	require.Equal(t, wantErr, err, "the version query fails alike")
	if err != nil {
		t.Skipf("SKIPPED LOUDLY: the kernel has no Landlock (%v), so nothing more of the queries can be compared", err)
	}
	assert.Equal(t, wantV, v, "the version query")
	errata, err := landlockErrata()
	wantErrata, wantErr := ll.LandlockGetErrata()
	assert.Equal(t, wantErr, err, "the errata query fails alike")
	assert.Equal(t, wantErrata, errata, "the errata query")
	abi := landlockKernelABI()
	assert.Equal(t, abi, confineProbe().abi, "the probe and the ruleset check take the same ABI version")
	assert.Positive(t, abi, "a kernel with Landlock has a version")
}

// landlockRuleset makes the ruleset go-landlock's NewRulesetFD makes:
// the same flags, nothing for an empty set, and the same refusals for
// rights unknown to the table or to the running kernel.
func TestLandlockRulesetMatchesGoLandlock(t *testing.T) {
	abi := landlockKernelABI()
	if abi == 0 {
		t.Skip("SKIPPED LOUDLY: the kernel has no Landlock, so no ruleset can be made")
	}
	for v := range landlockABIs {
		h := landlockABIs[v]
		fd, flags, err := landlockRuleset(h)
		wantFD, wantFlags, wantErr := h.toConfig().NewRulesetFD()
		if wantFD >= 0 {
			unix.Close(wantFD)
		}
		if fd >= 0 {
			unix.Close(fd)
		}
		assert.Equal(t, wantFlags, flags, "flags for ABI %d", v)
		assert.Equal(t, wantFD < 0, fd < 0, "whether ABI %d's ruleset is made", v)
		if wantErr != nil {
			require.Error(t, err, "ABI %d above the kernel's %d is refused", v, abi)
			assert.Equal(t, wantErr.Error(), err.Error(), "the refusal of ABI %d", v)
		} else {
			assert.NoError(t, err, "ABI %d", v)
		}
		assert.Equal(t, landlockABIs[abi].covers(h), err == nil, "ABI %d's rights on a kernel of ABI %d", v, abi)
	}
	_, _, err := landlockRuleset(landlockABI{FS: 1 << 40})
	assert.EqualError(t, err, "unsupported access rights in {Landlock V???; FS: {1<<40}; Net: ∅; Scoped: ∅}: invalid argument", "an unknown right is refused, not dropped")
}

// Rules of both kinds go in, and a rule with a right the ruleset does
// not handle is refused by the kernel.
func TestLandlockAddRules(t *testing.T) {
	abi := landlockKernelABI()
	if abi < 4 {
		t.Skipf("SKIPPED LOUDLY: the kernel's Landlock ABI %d has no network rules", abi)
	}
	fd, _, err := landlockRuleset(landlockABI{FS: confineRead, Net: llNetBindTCP | llNetConnectTCP})
	require.NoError(t, err)
	defer unix.Close(fd)
	dir, err := unix.Open(t.TempDir(), unix.O_PATH|unix.O_CLOEXEC, 0)
	require.NoError(t, err)
	defer unix.Close(dir)
	assert.NoError(t, landlockAddPathBeneath(fd, dir, llFSReadFile|llFSReadDir), "a path rule within the handled rights")
	assert.ErrorIs(t, landlockAddPathBeneath(fd, dir, llFSWriteFile), unix.EINVAL, "a path rule with an unhandled right")
	assert.NoError(t, landlockAddNetPort(fd, llNetConnectTCP, 443), "a port rule within the handled rights")
	assert.ErrorIs(t, landlockAddNetPort(fd, llFSReadFile<<8, 443), unix.EINVAL, "a port rule with an unhandled right")
}

// landlockRestrictSelf confines the calling thread only: a locked
// thread that handles reading files and grants none cannot read a file
// the rest of the process still reads.
func TestLandlockRestrictSelfThreadOnly(t *testing.T) {
	if landlockKernelABI() == 0 {
		t.Skip("SKIPPED LOUDLY: the kernel has no Landlock, so nothing can be restricted")
	}
	file := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o600))
	fd, flags, err := landlockRuleset(landlockABI{FS: llFSReadFile})
	require.NoError(t, err)
	defer unix.Close(fd)
	done := make(chan error, 2)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			done <- err
			return
		}
		done <- landlockRestrictSelf(fd, flags)
		_, err := os.ReadFile(file)
		done <- err
	}()
	require.NoError(t, <-done, "the thread restricts itself")
	assert.ErrorIs(t, <-done, unix.EACCES, "the restricted thread cannot read the file")
	_, err = os.ReadFile(file)
	assert.NoError(t, err, "the rest of the process still reads it")
}
