// Package mountinfo reads the fields of the kernel's mount tables
// (/proc/self/mountinfo, /proc/self/mounts).
package mountinfo

import (
	"strconv"
	"strings"
)

// Unescape decodes the octal escapes of a path in a mount table: the
// kernel writes a space, a tab, a newline and a backslash as \040, \011,
// \012 and \134. A backslash not followed by three octal digits stays.
func Unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
