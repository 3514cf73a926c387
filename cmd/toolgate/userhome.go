package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"github.com/toolgate/toolgate/internal/passwd"
)

// userHome is the home directory the user database gives the real user:
// the /etc/passwd entry of the process's uid, or else what getent
// answers (it also asks the system's other sources: LDAP, SSSD), or ""
// when neither has an absolute one. It is os/user's answer without
// os/user, whose cgo build would link the C library into the hook and
// make every hook process start slower.
func userHome() string {
	uid := strconv.Itoa(os.Getuid())
	if f, err := os.Open(passwd.File); err == nil {
		home, ok := passwdHome(f, uid)
		f.Close()
		if ok {
			return home
		}
	}
	for _, getent := range []string{"/usr/bin/getent", "/bin/getent"} {
		if !isExecutable(getent) {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		out, err := exec.CommandContext(ctx, getent, "passwd", uid).Output()
		cancel()
		if err != nil {
			return ""
		}
		home, _ := passwdHome(bytes.NewReader(out), uid)
		return home
	}
	return ""
}

// passwdHome finds uid's entry in r, in passwd(5)'s format, and returns
// its home directory when that is absolute; ok reports that the entry
// was there.
func passwdHome(r io.Reader, uid string) (home string, ok bool) {
	e, ok := passwd.Find(r, func(e passwd.Entry) bool { return e.UID == uid })
	if !ok || !filepath.IsAbs(e.Home) {
		return "", ok
	}
	return e.Home, true
}
