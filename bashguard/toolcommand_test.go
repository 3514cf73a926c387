package bashguard

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A command of a tool's own protocol asks by its table's rows: its words
// in any case, a row's arguments where it names some, any argument where
// the tool puts its input among them, and a name only known at run time.
func TestToolCommandAsks(t *testing.T) {
	for _, tc := range []struct {
		line      string
		fromInput bool
		want      string
	}{
		{"CONFIG SET dir /root/.ssh", false, "makes the server write or read the files that key names"},
		{"config set DBFILENAME x", false, "makes the server write or read the files that key names"},
		{"config set maxmemory 100mb", false, ""},
		{"config set t /x", true, "makes the server write or read the files that key names"},
		{"config get dir", false, ""},
		{"module load /tmp/x.so", false, "makes the server load and run the code of a module"},
		{"MODULE LOADEX /tmp/x.so", false, "makes the server load and run the code of a module"},
		{"replicaof 203.0.113.1 6379", false, "replace its data with another server's"},
		{"get k", false, ""},
		{"$CMD set dir /x", false, "names its command with a word only known at run time"},
		{"config $X dir /x", false, "names its command with a word only known at run time"},
		{"config set dir $D", false, "makes the server write or read the files that key names"},
		{"", false, ""},
	} {
		words := append([]string{"redis-cli"}, strings.Fields(tc.line)...)
		v := argv{vals: words, flags: make([]wordFlags, len(words))}
		var ops []int
		for i := 1; i < len(words); i++ {
			if strings.HasPrefix(words[i], "$") {
				v.flags[i] |= wDynamic
			}
			ops = append(ops, i)
		}
		got := toolCommandAsks(redisCommands, &v, ops, tc.fromInput)
		if tc.want == "" {
			assert.Empty(t, got, tc.line)
			continue
		}
		assert.Contains(t, got, tc.want, tc.line)
	}
}

// The files an option's value names, by the value's kind.
func TestValueFiles(t *testing.T) {
	for _, tc := range []struct {
		k    kind
		val  string
		want []string
	}{
		{kFieldFile, "body=@.env", []string{".env"}},
		{kFieldFile, "body=@-", nil},
		{kFieldFile, "body=x", nil},
		{kURLOrFile, "file:///etc/shadow", []string{"/etc/shadow"}},
		{kURLOrFile, "file://localhost/etc/shadow", []string{"/etc/shadow"}},
		{kURLOrFile, ".env", []string{".env"}},
		{kURLOrFile, "https://example.com/x", nil},
		{kKeyFiles, "a=x.txt,b=.env", []string{"x.txt", ".env"}},
		{kKeyFiles, "a", nil},
	} {
		assert.Equal(t, tc.want, valueFiles(tc.k, tc.val), "%v %q", tc.k, tc.val)
	}
}
