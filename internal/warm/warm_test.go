package warm

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample is a request with every field set.
func sample() *Request {
	return &Request{
		Bin: "/usr/local/bin/toolgate", BinID: FileID{1, 2, 3, 4, 5},
		Dir: "/home/u/p", DirID: FileID{Dev: 6, Ino: 7},
		Env: []string{"HOME=/home/u", "PATH=/usr/bin", "EMPTY="}, Args: []string{"--settings", "a b.json"},
		Input: []byte(`{"hook_event_name":"PreToolUse"}`),
	}
}

// TestWireRoundTrip: a request and an answer read back as written, and
// every truncation of either is refused.
func TestWireRoundTrip(t *testing.T) {
	req := sample()
	msg := AppendRequest(nil, req)
	got, err := ReadRequest(bytes.NewReader(msg))
	require.NoError(t, err)
	assert.Equal(t, req, got, "the request reads back as written")
	ans := &Answer{Code: -3, Stdout: []byte("{}\n"), Stderr: []byte("why")}
	amsg := AppendAnswer(nil, ans)
	gotA, err := ReadAnswer(bytes.NewReader(amsg))
	require.NoError(t, err)
	assert.Equal(t, ans, gotA, "the answer reads back as written, a negative status too")
	for n := range len(msg) {
		_, err := ReadRequest(bytes.NewReader(msg[:n]))
		require.Error(t, err, "a request cut at %d of %d bytes is refused", n, len(msg))
	}
	for n := range len(amsg) {
		_, err := ReadAnswer(bytes.NewReader(amsg[:n]))
		require.Error(t, err, "an answer cut at %d of %d bytes is refused", n, len(amsg))
	}
	bad := append([]byte("TGW\x02"), msg[4:]...)
	_, err = ReadRequest(bytes.NewReader(bad))
	assert.ErrorIs(t, err, errMessage, "another version of the wire is refused")
}

// TestKeyNamesEveryField: a change of any field the server compares
// names another warm process; arguments and input do not.
func TestKeyNamesEveryField(t *testing.T) {
	base := Key(sample())
	assert.Len(t, base, 16)
	for name, change := range map[string]func(r *Request){
		"binary path":      func(r *Request) { r.Bin += "x" },
		"binary identity":  func(r *Request) { r.BinID.Mtime++ },
		"directory":        func(r *Request) { r.Dir += "/src" },
		"directory inode":  func(r *Request) { r.DirID.Ino++ },
		"one more var":     func(r *Request) { r.Env = append(r.Env, "X=1") },
		"a var's value":    func(r *Request) { r.Env[1] = "PATH=/bin" },
		"vars reordered":   func(r *Request) { r.Env[0], r.Env[1] = r.Env[1], r.Env[0] },
		"split, not moved": func(r *Request) { r.Env = []string{"HOME=/home/uPATH=/usr/bin", "", "EMPTY="} },
	} {
		r := sample()
		change(r)
		assert.NotEqual(t, base, Key(r), "%s names another process", name)
	}
	r := sample()
	r.Args, r.Input = nil, []byte("other")
	assert.Equal(t, base, Key(r), "the call itself does not choose the process")
}

// TestPrivate: only a directory of this user's that nobody else may
// enter is a place for sockets; a link to one is not.
func TestPrivate(t *testing.T) {
	tmp := t.TempDir()
	own := filepath.Join(tmp, "own")
	require.NoError(t, os.Mkdir(own, 0o700))
	assert.True(t, Private(own), "a 0700 directory of this user's")
	open := filepath.Join(tmp, "open")
	require.NoError(t, os.Mkdir(open, 0o755))
	require.NoError(t, os.Chmod(open, 0o755))
	assert.False(t, Private(open), "others may enter a 0755 directory")
	link := filepath.Join(tmp, "link")
	require.NoError(t, os.Symlink(own, link))
	assert.False(t, Private(link), "a link is not followed")
	file := filepath.Join(tmp, "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	assert.False(t, Private(file), "a file is not a directory")
	assert.False(t, Private(filepath.Join(tmp, "missing")), "a missing directory")
}

// TestDirAndSocket: the socket directory comes from the runtime
// directory, else the state directory; relative values are not taken, and a path
// too long for a socket address is refused.
func TestDirAndSocket(t *testing.T) {
	vars := map[string]string{"XDG_RUNTIME_DIR": "/run/user/1000", "HOME": "/home/u"}
	get := func(k string) string { return vars[k] }
	assert.Equal(t, "/run/user/1000/toolgate-warm", Dir(get))
	vars["XDG_RUNTIME_DIR"] = "run"
	assert.Equal(t, "/home/u/.local/state/toolgate/warm", Dir(get), "a relative runtime directory is not taken: the state directory's")
	vars["XDG_STATE_HOME"] = "/home/u/st"
	assert.Equal(t, "/home/u/st/toolgate/warm", Dir(get), "the state directory as toolgate check finds it")
	vars["XDG_STATE_HOME"] = ""
	vars["HOME"] = ""
	assert.Equal(t, "", Dir(get), "no absolute directory: no warm process")
	p, ok := Socket("/run/user/1000/toolgate-warm", "0123456789abcdef")
	assert.True(t, ok)
	assert.Equal(t, "/run/user/1000/toolgate-warm/0123456789abcdef.sock", p)
	_, ok = Socket("/"+string(bytes.Repeat([]byte("d"), 100)), "0123456789abcdef")
	assert.False(t, ok, "a socket path of 108 bytes or more does not fit sun_path")
}

// FuzzReadRequest: any bytes either fail to read or read as a request
// within the limits whose encoding begins them (a reader reads ahead).
func FuzzReadRequest(f *testing.F) {
	f.Add(AppendRequest(nil, sample()))
	f.Add([]byte("TGW\x01"))
	f.Add(append([]byte("TGW\x01"), bytes.Repeat([]byte{0xff}, 64)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := ReadRequest(bytes.NewReader(data))
		if err != nil {
			return
		}
		if len(req.Env) > maxFields || len(req.Args) > maxFields || len(req.Input) > MaxInput {
			t.Fatalf("a request beyond the limits was read: %d vars, %d args, %d bytes", len(req.Env), len(req.Args), len(req.Input))
		}
		if !bytes.HasPrefix(data, AppendRequest(nil, req)) {
			t.Fatalf("the request read does not encode as the bytes it was read from")
		}
	})
}
