package passwd

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Find returns the first entry that matches, skips malformed lines, and
// says when none matches.
func TestFind(t *testing.T) {
	const db = "root:x:0:0:root:/root:/bin/bash\n" +
		"broken:x:1000\n" +
		"rel:x:1001:1001::home/rel:/bin/sh\n" +
		"ann:x:1002:1002:Ann,,,:/home/ann:/bin/bash\n" +
		"ann:x:1003:1003::/home/second:/bin/sh\n"
	byName := func(n string) func(Entry) bool { return func(e Entry) bool { return e.Name == n } }
	byUID := func(u string) func(Entry) bool { return func(e Entry) bool { return e.UID == u } }
	for _, c := range []struct {
		match func(Entry) bool
		want  Entry
		ok    bool
	}{
		{byUID("0"), Entry{"root", "0", "/root"}, true},
		{byName("ann"), Entry{"ann", "1002", "/home/ann"}, true},
		{byUID("1001"), Entry{"rel", "1001", "home/rel"}, true},
		{byUID("1000"), Entry{}, false},
		{byName("broken"), Entry{}, false},
		{byName("nobody"), Entry{}, false},
	} {
		got, ok := Find(strings.NewReader(db), c.match)
		assert.Equal(t, c.ok, ok, "%v", c.want)
		assert.Equal(t, c.want, got)
	}
}
