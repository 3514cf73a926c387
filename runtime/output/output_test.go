package output

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTruncate(t *testing.T) {
	s, cut := Truncate("short", 10)
	assert.Equal(t, "short", s)
	assert.False(t, cut)

	long := strings.Repeat("a", 3000) + strings.Repeat("é", 3000) + strings.Repeat("z", 3000)
	s, cut = Truncate(long, 4000)
	assert.True(t, cut)
	assert.LessOrEqual(t, utf8.RuneCountInString(s), 4000)
	assert.GreaterOrEqual(t, utf8.RuneCountInString(s), 3990)
	assert.True(t, utf8.ValidString(s), "never splits a character")
	assert.True(t, strings.HasPrefix(s, strings.Repeat("a", 2600)), "keeps the head")
	assert.True(t, strings.HasSuffix(s, strings.Repeat("z", 1300)), "keeps the tail")
	head, rest, ok := strings.Cut(s, "\n[... ")
	require.True(t, ok, "has a marker")
	omitted, _, _ := strings.Cut(rest, " characters cut ...]\n")
	tail := s[len(head)+len("\n[... ")+len(omitted)+len(" characters cut ...]\n"):]
	assert.Equal(t, omitted, strconv.Itoa(9000-utf8.RuneCountInString(head)-utf8.RuneCountInString(tail)),
		"the marker counts exactly what was left out")

	s, cut = Truncate("abcdefghijklmnopqrstuvwxyz", 5)
	assert.Equal(t, "abcde", s, "a limit too small for the marker keeps the head")
	assert.True(t, cut)
}

func TestSanitizeCallID(t *testing.T) {
	assert.Equal(t, "toolu_01ABC-x", sanitizeCallID("toolu_01ABC-x"), "a clean id is kept")
	a, b := sanitizeCallID("../../etc/passwd"), sanitizeCallID("__/__/etc/passwd")
	assert.Regexp(t, `^______etc_passwd-[0-9a-f]{12}$`, a)
	assert.NotEqual(t, a, b, "ids that sanitise alike still differ")
	assert.Regexp(t, `^call-[0-9a-f]{12}$`, sanitizeCallID(""))
	long := sanitizeCallID(strings.Repeat("x", 500))
	assert.Len(t, long, 64+1+12)
	assert.Regexp(t, `^[A-Za-z0-9_-]+$`, sanitizeCallID("a/b\\c\x00d é"))
}

func TestOutputPersist(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	o := &Shaper{MaxChars: 300, PersistOver: 1000, FS: root, Dir: "results", PreviewChars: 50}
	require.NoError(t, o.Validate())

	big := strings.Repeat("0123456789", 200)
	sh, err := o.Shape("Bash", "call/../1", big)
	require.NoError(t, err)
	assert.True(t, sh.Truncated)
	assert.Equal(t, 2000, sh.Chars)
	assert.Regexp(t, `^results/tool-results/call____1-[0-9a-f]{12}\.txt$`, sh.Path)
	assert.True(t, strings.HasPrefix(sh.Text, "[output of 2000 characters saved to "+sh.Path+"; read that file for the rest]\n"+big[:50]),
		sh.Text)
	assert.LessOrEqual(t, utf8.RuneCountInString(sh.Text), 300)
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(sh.Path)))
	require.NoError(t, err)
	assert.Equal(t, big, string(data), "the full output is on disk")
	info, err := os.Stat(filepath.Join(dir, filepath.FromSlash(sh.Path)))
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), info.Mode().Perm())

	mid := strings.Repeat("m", 500)
	sh, err = o.Shape("Bash", "c2", mid)
	require.NoError(t, err)
	assert.Empty(t, sh.Path, "under PersistOver: truncated, not persisted")
	assert.True(t, sh.Truncated)
	assert.Contains(t, sh.Text, "characters cut")

	o.PerTool = map[string]int{"Read": 1000}
	sh, err = o.Shape("Read", "c3", mid)
	require.NoError(t, err)
	assert.Equal(t, Shaped{Text: mid, Chars: 500}, sh, "a per-tool limit overrides the default")
}

// failFS refuses every write, to show that persistence falls back.
type failFS struct{}

func (failFS) MkdirAll(string, fs.FileMode) error          { return errors.New("disk full") }
func (failFS) WriteFile(string, []byte, fs.FileMode) error { return errors.New("disk full") }

func TestOutputPersistFailsToTruncation(t *testing.T) {
	o := &Shaper{PersistOver: 10, FS: failFS{}}
	sh, err := o.Shape("Read", "x", strings.Repeat("a", 5000))
	assert.EqualError(t, err, "output: persisting tool-results/x.txt: disk full")
	assert.True(t, sh.Truncated)
	assert.Empty(t, sh.Path)
	assert.LessOrEqual(t, utf8.RuneCountInString(sh.Text), DefaultMaxChars)
}

func TestOutputEscapeRefused(t *testing.T) {
	dir := t.TempDir()
	root, err := os.OpenRoot(filepath.Join(dir))
	require.NoError(t, err)
	defer root.Close()
	for _, d := range []string{"../out", "/abs", "a/../../b", `a\b`} {
		o := &Shaper{PersistOver: 1, FS: root, Dir: d}
		err := o.Validate()
		require.Error(t, err, d)
		assert.Contains(t, err.Error(), "must be a clean relative slash path without '..'")
		sh, err := o.Shape("Read", "x", "hello")
		assert.Error(t, err)
		assert.Equal(t, "hello", sh.Text, "a bad configuration still returns bounded output")
	}
	o := &Shaper{PersistOver: 1}
	assert.EqualError(t, o.Validate(), "output: PersistOver set without an FS")
	o = &Shaper{PerTool: map[string]int{"Read": 0}}
	assert.EqualError(t, o.Validate(), "output: limit for Read must be positive, got 0")

	var zero Shaper
	sh, err := zero.Shape("Read", "x", strings.Repeat("b", 4001))
	require.NoError(t, err)
	assert.True(t, sh.Truncated, "the zero Shaper truncates at 4,000")
	assert.LessOrEqual(t, utf8.RuneCountInString(sh.Text), 4000)
}
