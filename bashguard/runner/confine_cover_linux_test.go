package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/permission"
)

// confineTestCoveredRoot is runTestRoot that refuses to let commands read
// or write the entries with a secret name, as the sandbox refuses its
// secret paths (they are bound read-only, and so covered), and to write
// the entries with a protected name (bound read-only).
type confineTestCoveredRoot struct {
	runTestRoot
	secret, protected map[string]bool
}

func (c confineTestCoveredRoot) CheckPath(path string, write bool) (permission.Decision, string) {
	d, reason := c.runTestRoot.CheckPath(path, write)
	switch {
	case d != permission.Allow:
	case c.secret[filepath.Base(path)]:
		return permission.Ask, path + " is a secret path"
	case write && c.protected[filepath.Base(path)]:
		return permission.Ask, path + " is a protected path"
	}
	return d, reason
}

// A secret that no command may write is covered in the mount namespace:
// the kernel refuses to read, list, write, rename, remove or link it as it
// did when it was left out of the grant, and its directory is granted
// whole (a file made there during the run reads back).
func TestConfinedSecretCovered(t *testing.T) {
	confineTestNeedNS(t, true)
	root := runTestDir(t)
	for name, body := range map[string]string{
		".env":            "TOKEN=top-secret\n",
		"README.md":       "readme\n",
		"src/keys/id_rsa": "PRIVATE KEY\n",
		"conf/.env":       "TOKEN=below-a-bind\n",
		"conf/app.toml":   "a = 1\n",
	} {
		p := filepath.Join(root, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(body), 0o644))
	}
	require.True(t, confineCoverable([]string{root}), "SKIP would hide the test: this mount table shows the root twice")
	// conf is bound read-only (the checker refuses to let a command
	// write it), and the secret below it is covered after the bind.
	r := &Shell{Dir: root, Checker: confineTestCoveredRoot{runTestRoot{root: root},
		map[string]bool{".env": true, "keys": true}, map[string]bool{"conf": true}}}
	script := `cat .env
echo x >> .env
chmod 644 .env
mv .env e2
rm -f .env
ln .env hl
ln -s .env sl && cat sl; rm -f sl
ls src/keys
cat src/keys/id_rsa
mv src/keys src/k2
echo top > top.txt && cat top.txt
cat README.md
cat conf/.env
echo x > conf/.env
cat conf/app.toml`
	res, err := r.Run(context.Background(), script)
	require.NoError(t, err)
	assert.Equal(t, "cat: .env: Permission denied\n"+
		DefaultBash+": line 2: .env: Read-only file system\n"+
		"chmod: changing permissions of '.env': Read-only file system\n"+
		"mv: cannot move '.env' to 'e2': Device or resource busy\n"+
		"rm: cannot remove '.env': Device or resource busy\n"+
		"ln: failed to create hard link 'hl' => '.env': Invalid cross-device link\n"+
		"cat: sl: Permission denied\n"+
		"ls: cannot open directory 'src/keys': Permission denied\n"+
		"cat: src/keys/id_rsa: Permission denied\n"+
		"mv: cannot move 'src/keys' to 'src/k2': Device or resource busy\n"+
		"top\nreadme\n"+
		"cat: conf/.env: Permission denied\n"+
		DefaultBash+": line 14: conf/.env: Read-only file system\n"+
		"a = 1\n", res.Output)
	assert.True(t, res.Confined.Enforced, res.Confined.Reason)
	assert.Equal(t, 3, res.Confined.Secrets)
	assert.Contains(t, res.Confined.Restricted, "protected-paths")
	b, err := os.ReadFile(filepath.Join(root, ".env"))
	require.NoError(t, err)
	assert.Equal(t, "TOKEN=top-secret\n", string(b), "outside, the secret is as it was")
	assert.NoFileExists(t, filepath.Join(root, "hl"))
	assert.DirExists(t, filepath.Join(root, "src", "keys"))
}

// Secrets are covered only where no other mount reaches the roots' files:
// Landlock grants by inode, so a second mount of the same files would
// reach a covered secret uncovered.
func TestConfineCoverableIn(t *testing.T) {
	const base = "22 27 0:21 / /proc rw,relatime - proc proc rw\n" +
		"24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw\n" +
		"27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n" +
		"28 27 254:1 / /home rw,relatime - ext4 /dev/vdb rw\n"
	for _, c := range []struct {
		name, table, root string
		want              bool
	}{
		{"one mount each", base, "/home/u/proj", true},
		{"the root file system", base, "/srv/proj", true},
		{"another file of the same disk bound elsewhere", base +
			"40 27 254:1 /docker/hosts /etc/hosts rw - ext4 /dev/vdb rw\n", "/home/u/proj", true},
		{"the project bound elsewhere", base +
			"40 27 254:1 /u/proj /workspace rw - ext4 /dev/vdb rw\n", "/home/u/proj", false},
		{"the root's own mount reached from another place", base +
			"40 27 254:1 /u/proj /workspace rw - ext4 /dev/vdb rw\n", "/workspace", false},
		{"the whole disk mounted twice", base +
			"40 27 254:1 / /mnt/home rw - ext4 /dev/vdb rw\n", "/home/u/proj", false},
		{"a directory inside bound elsewhere", base +
			"40 27 254:1 /u/proj/src /mnt/src rw - ext4 /dev/vdb rw\n", "/home/u/proj", false},
		{"a mount stacked on the root's", base +
			"40 28 0:50 / /home rw - tmpfs tmpfs rw\n", "/home/u/proj", true},
		{"a mount above that it does not lie on", base +
			"40 24 0:50 / /home rw - tmpfs tmpfs rw\n", "/home/u/proj", false},
		{"a path with a space", base +
			"40 27 254:1 /u/my\\040proj /w rw - ext4 /dev/vdb rw\n", "/home/u/my proj", false},
		{"an unreadable table", "garbage\n", "/home/u/proj", false},
		{"an empty table", "", "/home/u/proj", false},
		{"a relative root", base, "home/u/proj", false},
	} {
		assert.Equal(t, c.want, confineCoverableIn([]byte(c.table), []string{c.root}), c.name)
	}
}
