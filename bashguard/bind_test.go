package bashguard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A bind names a path of this machine as docker reads its value: -v's
// first field when it is a path, --mount's source when its type is bind.
func TestBindSource(t *testing.T) {
	for _, tc := range []struct {
		opt, val, src string
		ro, ok        bool
	}{
		{"-v", "/etc:/e", "/etc", false, true},
		{"-v", "./src:/src:ro", "./src", true, true},
		{"-v", "~/.ssh:/k:z,ro", "~/.ssh", true, true},
		{"--volume", "data:/d", "", false, false},
		{"-v", "/anon", "", false, false},
		{"--mount", "type=bind,src=/,dst=/host", "/", false, true},
		{"--mount", "type=bind,source=/etc,target=/e,readonly", "/etc", true, true},
		{"--mount", "type=bind,source=/etc,target=/e,readonly=false", "/etc", false, true},
		{"--mount", "src=cache,dst=/c", "", false, false},
		{"--mount", "type=tmpfs,dst=/t", "", false, false},
		{"--mount", `type=bind,"src=/etc",dst=/e`, "/etc", false, true},
		{"--mount", `"type=bind",source=/etc,target=/e`, "/etc", false, true},
		{"--mount", `type=bind,"src=/e`, "", false, true},
	} {
		src, ro, ok := bindSource(tc.opt, tc.val)
		assert.Equal(t, tc.ok, ok, "%s %s", tc.opt, tc.val)
		if tc.ok {
			assert.Equal(t, tc.src, src, "%s %s", tc.opt, tc.val)
			assert.Equal(t, tc.ro, ro, "%s %s", tc.opt, tc.val)
		}
	}
}

// Whatever -v's value, a path before its first ":" is the bind's source;
// a value without one binds nothing of this machine by a path.
func FuzzBindSource(f *testing.F) {
	f.Add("/etc:/e:ro")
	f.Add("name:/d")
	f.Fuzz(func(t *testing.T, val string) {
		src, _, ok := bindSource("-v", val)
		first, _, colon := strings.Cut(val, ":")
		path := first != "" && strings.ContainsAny(first[:1], "/.~")
		if ok != (colon && path) || ok && src != first {
			t.Fatalf("%q: source %q, ok %v", val, src, ok)
		}
	})
}
