//go:build linux

package runner

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestSeccompProgramPinned pins the compiled filter of every
// architecture and network mode by the SHA-256 of its instructions
// (code, jt, jf, k, little-endian): a change to the compiler or to the
// rows shows here, and a restructuring must leave the hashes as they are.
// The rows' system call numbers are those of the running GOARCH, so the
// hashes are this architecture's.
func TestSeccompProgramPinned(t *testing.T) {
	pinned := map[string]map[string]string{
		"amd64": {
			"x86-64/net0":  "c0b380b47a03fc5a7a8327a916af50308af77aa1342234e48eeaa5cd54f8600d",
			"x86-64/net1":  "2d19504ecd19fb467be868c4f8c9ed6f855c2bc627eac3912f9b0b48338fc5f4",
			"x86-64/net2":  "2d19504ecd19fb467be868c4f8c9ed6f855c2bc627eac3912f9b0b48338fc5f4",
			"aarch64/net0": "7e722587bcc06d1d685cb49df4a182ea5c5f6ebaa29a42650a997eb9460c1c9a",
			"aarch64/net1": "0340fd1bbe4037a0edc9e4e372ee6652bd818e11738a21cce8412ff81463f501",
			"aarch64/net2": "0340fd1bbe4037a0edc9e4e372ee6652bd818e11738a21cce8412ff81463f501",
		},
	}
	want, ok := pinned[runtime.GOARCH]
	if !ok {
		t.Skip("SKIP: no pinned hashes for the rows of GOARCH " + runtime.GOARCH + " (they are taken on amd64)")
	}
	for arch, name := range map[uint32]string{unix.AUDIT_ARCH_X86_64: "x86-64", unix.AUDIT_ARCH_AARCH64: "aarch64"} {
		for _, net := range []confineNetMode{confineNetOff, confineNetLoopback, confineNetOn} {
			prog, err := confineSeccompProgram(arch, confineSeccompRules(net))
			require.NoError(t, err)
			h := sha256.New()
			for _, in := range prog {
				var b [8]byte
				binary.LittleEndian.PutUint16(b[0:], in.Code)
				b[2], b[3] = in.Jt, in.Jf
				binary.LittleEndian.PutUint32(b[4:], in.K)
				h.Write(b[:])
			}
			key := fmt.Sprintf("%s/net%d", name, net)
			t.Logf("%s: %d instructions, %s", key, len(prog), hex.EncodeToString(h.Sum(nil)))
			assert.Equal(t, want[key], hex.EncodeToString(h.Sum(nil)), "the filter for %s", key)
		}
	}
}
