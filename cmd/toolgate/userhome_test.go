package main

import (
	"os/user"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// userHome agrees with os/user, the user database as the C library reads
// it, for the user running the test.
func TestUserHomeAgreesWithOSUser(t *testing.T) {
	u, err := user.Current()
	require.NoError(t, err)
	assert.Equal(t, u.HomeDir, userHome(), "uid %s", u.Uid)
}

// passwdHome reads passwd(5) lines: the uid's entry, an absolute home
// only, and nothing for a malformed line or another uid.
func TestPasswdHome(t *testing.T) {
	const db = "root:x:0:0:root:/root:/bin/bash\n" +
		"broken:x:1000\n" +
		"rel:x:1001:1001::home/rel:/bin/sh\n" +
		"ann:x:1002:1002:Ann,,,:/home/ann:/bin/bash\n"
	for _, c := range []struct {
		uid, home string
		ok        bool
	}{{"0", "/root", true}, {"1002", "/home/ann", true}, {"1001", "", true}, {"1000", "", false}, {"7", "", false}} {
		home, ok := passwdHome(strings.NewReader(db), c.uid)
		assert.Equal(t, c.home, home, "uid %s", c.uid)
		assert.Equal(t, c.ok, ok, "uid %s", c.uid)
	}
}
