package runtime_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/runtime"
)

// CanonicalInput is the library's one canonical form: the same bytes as
// the parse Check makes, and refusals in the words of Check's Deny.
func TestCanonicalInput(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`{ "path": "a.go", "limit": 10.0 }`,
		`{"p\u0061th":"\u0061.go","n":[1e0,-0,0.0012e3],"o":{"b":1,"a":null}}`,
		"{\"s\":\"\xff\"}",
	} {
		got, err := runtime.CanonicalInput([]byte(in))
		require.NoError(t, err, in)
		want, err := jsonin.Canonical([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, string(want), string(got), in)
	}
	deep := `{"a":` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`
	for _, c := range []struct{ in, reason string }{
		{`{"path":"a","path":"b"}`, `runtime: input is not a JSON object: duplicate object key "path"`},
		{`{"o":{"k":1,"k":1}}`, `runtime: input is not a JSON object: duplicate object key "k"`},
		{deep, "runtime: input is nested deeper than 128 levels of objects and arrays"},
		{`[1]`, "runtime: input is not a JSON object"},
		{`{"a":1} {}`, "runtime: input is not a JSON object"},
		{`{"a":}`, "runtime: input is not a JSON object"},
		{``, "runtime: input is not a JSON object"},
	} {
		got, err := runtime.CanonicalInput([]byte(c.in))
		assert.Nil(t, got, c.in)
		require.Error(t, err, c.in)
		assert.Equal(t, c.reason, err.Error(), c.in)
	}
}

// FuzzCanonicalInput: CanonicalInput agrees with the library's canonical
// form on every object, and is its own fixed point.
func FuzzCanonicalInput(f *testing.F) {
	for _, s := range []string{`{}`, `{"b":1,"a":[1.0,{"c":"\u00e9"}]}`, `{"a":1,"a":2}`, `[]`, `{"x":1e400}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		got, err := runtime.CanonicalInput(in)
		want, werr := jsonin.Canonical(in)
		if err != nil {
			if werr == nil && len(want) > 0 && want[0] == '{' {
				t.Fatalf("CanonicalInput refused the object %q (%v) that Canonical takes", in, err)
			}
			return
		}
		if werr != nil || string(got) != string(want) {
			t.Fatalf("CanonicalInput(%q) = %q, Canonical = %q, %v", in, got, want, werr)
		}
		again, err := runtime.CanonicalInput(got)
		if err != nil || string(again) != string(got) {
			t.Fatalf("not a fixed point: %q -> %q, %v", got, again, err)
		}
	})
}
