package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// userHome is the home directory the user database gives the real user:
// the /etc/passwd entry of the process's uid, or else what getent
// answers (it also asks the system's other sources: LDAP, SSSD), or ""
// when neither has an absolute one. It is os/user's answer without
// os/user, whose cgo build would link the C library into the hook and
// make every hook process start slower.
func userHome() string {
	uid := strconv.Itoa(os.Getuid())
	if f, err := os.Open("/etc/passwd"); err == nil {
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
	sc := bufio.NewScanner(io.LimitReader(r, 16<<20))
	for sc.Scan() {
		f := strings.Split(sc.Text(), ":")
		if len(f) < 7 || f[2] != uid {
			continue
		}
		if filepath.IsAbs(f[5]) {
			return f[5], true
		}
		return "", true
	}
	return "", false
}
