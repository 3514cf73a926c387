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

// A container tool's value names the paths of this machine its format
// says: a build's secret source, the keys of --ssh, the destination of
// -o, a named context; the last of aliased keys wins, as docker reads
// them; a list that does not read as CSV may name any path.
func TestContainerPaths(t *testing.T) {
	for _, tc := range []struct {
		k         kind
		spell, v  string
		want      []hostPath
		wantValid bool
	}{
		{kBuildSecret, "--secret", "id=k,src=/etc/shadow", []hostPath{{path: "/etc/shadow", read: true}}, true},
		{kBuildSecret, "--secret", "id=k,src=./a,source=.env", []hostPath{{path: ".env", read: true}}, true},
		{kBuildSecret, "--secret", `id=k,"src=.env"`, []hostPath{{path: ".env", read: true}}, true},
		{kBuildSecret, "--secret", "id=k,env=TOKEN", nil, true},
		{kBuildSecret, "--secret", "id=k", nil, false},
		{kBuildSecret, "--secret", `id=k,"src=.env`, nil, false},
		{kBuildSSH, "--ssh", "default", nil, true},
		{kBuildSSH, "--ssh", "k=/a,/b", []hostPath{{path: "/a", read: true}, {path: "/b", read: true}}, true},
		{kBuildOutput, "-o", "out", []hostPath{{path: "out", write: true}}, true},
		{kBuildOutput, "-o", "-", nil, true},
		{kBuildOutput, "-o", "type=local,dest=/etc", []hostPath{{path: "/etc", write: true}}, true},
		{kBuildOutput, "-o", "type=image,name=x,push=true", nil, true},
		{kBuildContext, "--build-context", "x=/etc", []hostPath{{path: "/etc", read: true, tree: true}}, true},
		{kBuildContext, "--build-context", "x=docker-image://alpine", nil, true},
		{kBuildContext, "--build-context", "/etc", nil, false},
		{kBuildContext, "", "https://example.com/r.git", nil, true},
		{kBuildContext, "", "src", []hostPath{{path: "src", read: true, tree: true, context: true}}, true},
		{kBind, "-v", "/etc:/e:ro", []hostPath{{path: "/etc", read: true, tree: true}}, true},
		{kBind, "--mount", "type=bind,src=/ok,source=/etc,dst=/e", []hostPath{{path: "/etc", read: true, write: true, tree: true}}, true},
		{kBind, "--mount", "type=volume,dst=/e,volume-opt=device=/etc", []hostPath{{path: "/etc", read: true, write: true, tree: true}}, true},
		{kBind, "--mount", "type=bind,src=/x,dst=/e,volume-opt=device=/etc",
			[]hostPath{{path: "/etc", read: true, write: true, tree: true}, {path: "/x", read: true, write: true, tree: true}}, true},
		{kBind, "--mount", "type=glob,src=/etc/*,dst=/e", nil, false},
	} {
		got, ok := containerPaths(tc.k, tc.spell, tc.v)
		assert.Equal(t, tc.wantValid, ok, "%s %s", tc.spell, tc.v)
		assert.Equal(t, tc.want, got, "%s %s", tc.spell, tc.v)
	}
}

// An operand of docker cp or kubectl cp is a path of this machine as
// docker's splitCpArg reads it.
func TestContainerCopySide(t *testing.T) {
	for w, local := range map[string]bool{"/etc/x": true, "/a:b": true, "./a:b": true, "out": true, "~/.bashrc": true,
		"web:/x": false, "ns/pod:/x": false, "-": false, "c:rel": false} {
		assert.Equal(t, local, containerCopySide(w), w)
	}
}

// Whatever a build's value, a path it names is one written in it: the
// judge is never handed a path the value does not hold.
func FuzzContainerPaths(f *testing.F) {
	f.Add("id=k,src=/etc/shadow")
	f.Add("type=local,dest=out")
	f.Add("x=/etc")
	f.Fuzz(func(t *testing.T, val string) {
		for _, k := range []kind{kBind, kBuildSecret, kBuildSSH, kBuildOutput, kBuildContext} {
			paths, ok := containerPaths(k, "--x", val)
			if !ok && len(paths) > 0 {
				t.Fatalf("%v %q: paths %v from a value that does not read", k, val, paths)
			}
			for _, p := range paths {
				if p.path == "" || !strings.Contains(val, p.path) && !strings.Contains(strings.ReplaceAll(val, `""`, `"`), p.path) {
					t.Fatalf("%v %q: path %q is not in the value", k, val, p.path)
				}
			}
		}
	})
}
