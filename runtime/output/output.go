package output

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/internal/truncate"
)

// Shaper defaults.
const (
	DefaultMaxChars     = 4000
	DefaultPreviewChars = 1000
	maxCallIDLen        = 64
)

// FS is where large results are written: a directory tree addressed by
// slash-separated relative names. *os.Root satisfies it, so the sandbox's
// root can be plugged in and no write escapes it.
type FS interface {
	MkdirAll(name string, perm fs.FileMode) error
	WriteFile(name string, data []byte, perm fs.FileMode) error
}

// Shaper shapes a tool's output for the model: results longer than
// PersistOver characters are written in full to
// <Dir>/tool-results/<call id>.txt in FS and replaced by a short stub;
// others longer than the tool's limit keep their head and tail around a
// marker. The zero value truncates to 4,000 characters and persists
// nothing. Characters are Unicode code points; invalid UTF-8 counts byte by
// byte. A Shaper must not be changed while in use; it is then safe for
// concurrent use.
type Shaper struct {
	// MaxChars is the default limit; 0 means DefaultMaxChars.
	MaxChars int
	// PerTool overrides MaxChars for the named tools.
	PerTool map[string]int
	// PersistOver is the size above which a result is persisted; 0
	// disables persistence.
	PersistOver int
	// FS receives persisted results; required when PersistOver > 0.
	FS FS
	// Dir is the results directory inside FS: relative, slash-separated,
	// without "..". Empty means the top of FS.
	Dir string
	// PreviewChars is how much of a persisted result the stub shows; 0
	// means DefaultPreviewChars.
	PreviewChars int
}

// Validate reports a bad configuration.
func (o *Shaper) Validate() error {
	var errs []error
	if o.MaxChars < 0 || o.PersistOver < 0 || o.PreviewChars < 0 {
		errs = append(errs, errors.New("output: negative size"))
	}
	for tool, n := range o.PerTool {
		if n <= 0 {
			errs = append(errs, fmt.Errorf("output: limit for %s must be positive, got %d", tool, n))
		}
	}
	if o.PersistOver > 0 && o.FS == nil {
		errs = append(errs, errors.New("output: PersistOver set without an FS"))
	}
	if o.Dir != "" && (!fs.ValidPath(o.Dir) || strings.Contains(o.Dir, "\\")) {
		errs = append(errs, fmt.Errorf("output: Dir %q must be a clean relative slash path without '..'", o.Dir))
	}
	return errors.Join(errs...)
}

// Shaped is a tool output as it goes to the model.
type Shaped struct {
	// Text is what the model sees.
	Text string
	// Chars is the original length in characters.
	Chars int
	// Truncated reports that Text is not the whole output.
	Truncated bool
	// Path is the persisted file's name inside FS, or empty.
	Path string
}

// Shape returns the text of tool call id's output as the model should see
// it. If persisting fails, the output is truncated instead and the error
// returned beside the result; a bad configuration is an error and the
// output truncated to the default limit.
func (o *Shaper) Shape(tool, callID, out string) (Shaped, error) {
	if err := o.Validate(); err != nil {
		s := Shaped{Chars: utf8.RuneCountInString(out)}
		s.Text, s.Truncated = Truncate(out, DefaultMaxChars)
		return s, err
	}
	return o.shape(tool, callID, out)
}

// shape is Shape for a Shaper already validated.
func (o *Shaper) shape(tool, callID, out string) (Shaped, error) {
	limit := o.MaxChars
	if n, ok := o.PerTool[tool]; ok {
		limit = n
	} else if limit == 0 {
		limit = DefaultMaxChars
	}
	s := Shaped{Chars: utf8.RuneCountInString(out)}
	var perr error
	if o.PersistOver > 0 && s.Chars > o.PersistOver {
		name := path.Join(o.Dir, "tool-results", sanitizeCallID(callID)+".txt")
		if perr = o.persist(name, out); perr == nil {
			preview := o.PreviewChars
			if preview == 0 {
				preview = DefaultPreviewChars
			}
			head := out[:byteOffset(out, min(preview, limit))]
			s.Text = fmt.Sprintf("[output of %d characters saved to %s; read that file for the rest]\n%s", s.Chars, name, head)
			s.Text, _ = Truncate(s.Text, max(limit, 200))
			s.Truncated, s.Path = true, name
			return s, nil
		}
		perr = fmt.Errorf("output: persisting %s: %w", name, perr)
	}
	if len(out) <= limit {
		// No more characters than bytes: nothing to cut.
		s.Text = out
		return s, perr
	}
	s.Text, s.Truncated = Truncate(out, limit)
	return s, perr
}

func (o *Shaper) persist(name, out string) error {
	if err := o.FS.MkdirAll(path.Dir(name), 0o700); err != nil {
		return err
	}
	return o.FS.WriteFile(name, []byte(out), 0o600)
}

// Truncate shortens s to at most limit characters, keeping its head and
// tail around a marker that says how much was left out. It reports whether
// s was shortened. A limit too small for the marker keeps only the head.
func Truncate(s string, limit int) (string, bool) {
	if limit < 0 {
		limit = 0
	}
	n := utf8.RuneCountInString(s)
	if n <= limit {
		return s, false
	}
	// The marker for n omitted characters is at least as long as the real
	// one, so the result never exceeds limit.
	keep := limit - utf8.RuneCountInString(omitted(n))
	marker := omitted(n - keep)
	if keep < 2 {
		return s[:byteOffset(s, limit)], true
	}
	head, tail := keep-keep/3, keep/3
	return s[:byteOffset(s, head)] + marker + s[byteOffset(s, n-tail):], true
}

func omitted(n int) string { return truncate.Marker(n) }

// byteOffset returns the byte offset of the n-th character of s.
func byteOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// sanitizeCallID turns a call id into a safe file name stem: characters
// other than A-Z, a-z, 0-9, '_' and '-' become '_', the length is bounded,
// and an id that had to change gets a short hash of the original so that
// different ids never share a file.
func sanitizeCallID(id string) string {
	var b strings.Builder
	changed := id == ""
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			b.WriteByte('_')
			changed = true
		}
	}
	stem := b.String()
	if len(stem) > maxCallIDLen {
		stem, changed = stem[:maxCallIDLen], true
	}
	if !changed {
		return stem
	}
	sum := sha256.Sum256([]byte(id))
	if stem == "" {
		stem = "call"
	}
	return stem + "-" + hex.EncodeToString(sum[:6])
}
