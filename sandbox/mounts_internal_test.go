package sandbox

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInnerMounts: the mount points strictly beneath a root that are not
// roots are the ones a path is judged outside on; escapes in the table
// are decoded.
func TestInnerMounts(t *testing.T) {
	table := []byte(`22 1 0:21 / / rw - ext4 /dev/vda rw
63 43 254:0 /home/u/.aws /w/proj/cloud rw,relatime - ext4 /dev/vda rw
64 43 254:0 /x /w/proj/my\040dir rw - ext4 /dev/vda rw
65 43 254:0 /y /w/data rw - ext4 /dev/vda rw
66 43 254:0 /z /w/data/inner rw - ext4 /dev/vda rw
67 43 254:0 /z /elsewhere rw - ext4 /dev/vda rw
`)
	got := innerMounts(table, []string{"/w/proj", "/w/data"})
	assert.Equal(t, []string{"/w/proj/cloud", "/w/proj/my dir", "/w/data/inner"}, got)
	s := &Sandbox{roots: []string{"/w/proj", "/w/data"}, mounts: got}
	assert.Equal(t, "/w/proj/cloud", s.otherMount("/w/proj/cloud/credentials"), "a bind mount inside a root")
	assert.Equal(t, "", s.otherMount("/w/proj/src/main.go"), "the root's own mount")
	assert.Equal(t, "", s.otherMount("/w/data/x"), "a mount that is itself a root")
	s2 := &Sandbox{roots: []string{"/w/proj", "/w/proj/cloud"}, mounts: innerMounts(table, []string{"/w/proj", "/w/proj/cloud"})}
	assert.Equal(t, "", s2.otherMount("/w/proj/cloud/credentials"), "a mount made a root")
}
