package bashguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgate/toolgate/permission"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A compose file names the paths its volumes bind, its env files, its
// build contexts and its secrets' and configs' files; what the reader
// cannot follow is named.
func TestReadCompose(t *testing.T) {
	for _, tc := range []struct {
		text  string
		paths []hostPath
		why   string
	}{
		{"services:\n  web:\n    image: nginx\n    volumes: [\"./app:/app:ro\", \"data:/data\"]\n",
			[]hostPath{{path: "./app", read: true, tree: true}}, ""},
		{"services:\n  web:\n    volumes:\n      - type: bind\n        source: /etc\n        target: /e\n",
			[]hostPath{{path: "/etc", read: true, write: true, tree: true}}, ""},
		{"services:\n  web:\n    volumes:\n      - type: volume\n        source: data\n        target: /d\n", nil, ""},
		{"services:\n  web:\n    volumes:\n      - source: /etc\n        target: /e\n        read_only: true\n",
			[]hostPath{{path: "/etc", read: true, tree: true}}, ""},
		{"services:\n  web:\n    env_file: [.env, {path: other.env}]\n    build: {context: ./src}\n",
			[]hostPath{{path: ".env", read: true}, {path: "other.env", read: true}, {path: "./src", read: true, tree: true, context: true}}, ""},
		{"services:\n  b:\n    build: https://example.com/r.git\n  a:\n    build: {dockerfile: D}\n",
			[]hostPath{{path: ".", read: true, tree: true}}, ""}, // D.dockerignore would take .dockerignore's place
		{"secrets:\n  k:\n    file: ./key.pem\nconfigs:\n  c:\n    file: /etc/x.conf\n",
			[]hostPath{{path: "./key.pem", read: true}, {path: "/etc/x.conf", read: true}}, ""},
		{"x: &v\n  - /:/host\nservices:\n  web:\n    volumes: *v\n", []hostPath{{path: "/", read: true, write: true, tree: true}}, ""},
		{"volumes:\n  data:\n    driver_opts: {type: none, o: bind, device: /etc}\n", []hostPath{{path: "/etc", read: true, write: true, tree: true}}, ""},
		{"services:\n  web:\n    privileged: true\n", nil, "names in its service web privileged"},
		{"services:\n  web:\n    devices: [\"/dev/sda:/dev/sda\"]\n", nil, "names in its service web devices"},
		{"services:\n  web:\n    build:\n      context: .\n      dockerfile: D\n      additional_contexts: {etc: /etc, img: \"docker-image://alpine\", svc: \"service:base\"}\n      ssh: [default, \"k=~/.ssh/id_rsa\"]\n",
			[]hostPath{{path: "/etc", read: true, tree: true}, {path: "~/.ssh/id_rsa", read: true}, {path: ".", read: true, tree: true}}, ""},
		{"services:\n  web:\n    build:\n      additional_contexts: [\"etc=/etc\"]\n",
			[]hostPath{{path: "/etc", read: true, tree: true}, {path: ".", read: true, tree: true, context: true}}, ""},
		{"include:\n  - other.yml\n", nil, "has include"},
		{"services:\n  web:\n    extends: {file: base.yml, service: b}\n", nil, "names in its service web extends"},
		{"services:\n  web:\n    volumes: [\"${HOME}:/h\"]\n", nil, "a volume only known at run time"},
		{"services:\n  web:\n    env_file: [[x]]\n", nil, "a path of a form not read here"},
		{"services: [\n", nil, "does not parse"},
	} {
		r := readCompose(tc.text)
		if tc.why != "" {
			assert.Contains(t, r.why, tc.why, tc.text)
			continue
		}
		assert.Empty(t, r.why, tc.text)
		assert.Equal(t, tc.paths, r.paths, tc.text)
	}
}

// Whatever a compose file holds, the reader returns, and every path it
// gives is written in the file.
func FuzzReadCompose(f *testing.F) {
	f.Add("services:\n  web:\n    volumes: [\"/:/host\"]\n    env_file: .env\n")
	f.Add("secrets:\n  k:\n    file: ./k\n")
	f.Fuzz(func(t *testing.T, text string) {
		r := readCompose(text)
		for _, p := range r.paths {
			if p.path == "" || !strings.Contains(text, p.path) && p.path != "." {
				t.Fatalf("%q: path %q is not in the file", text, p.path)
			}
		}
	})
}

// A compose file's path is resolved as docker compose resolves it.
func TestComposePath(t *testing.T) {
	for _, tc := range []struct{ p, home, want string }{
		{"./site", "/h", "/p/site"}, {"/etc", "/h", "/etc"}, {"~/.ssh", "/h", "/h/.ssh"}, {"~", "/h", "/h"},
		{"~/.ssh", "", ""}, {"~root/x", "/h", ""},
	} {
		assert.Equal(t, tc.want, composePath(tc.p, "/p", tc.home), tc.p)
	}
}

// Without -f, docker compose finds its file in the working directory or
// in one above it, and resolves its paths from there: a compose file in
// the workspace's root binds what it says for a command run in a
// subdirectory.
func TestComposeFileAbove(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "sub")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "compose.yaml"),
		[]byte("services:\n  web:\n    image: alpine\n    volumes: [\"../etc:/e\"]\n"), 0o644))
	g := wsGuard(t, true)
	v := wsJudgeIn(t, g, root, sub, "docker compose up")
	assert.Equal(t, permission.Deny, v.Decision, v.Reason)
	assert.Contains(t, v.Reason, "writes "+filepath.Join(filepath.Dir(root), "etc")+" outside the allowed roots")
}
