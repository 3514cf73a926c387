package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCanonical(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{" {\n \"a\" : [ 1 , 2 ] } ", `{"a":[1,2]}`},
		{`{"z":{"y":1,"x":2},"a":null}`, `{"a":null,"z":{"x":2,"y":1}}`},
		{`"\u0041\/"`, `"A/"`},
		{`1.0`, `1`}, {`10e-1`, `1`}, {`-0.0`, `0`}, {`1E+2`, `100`}, {`0.001`, `0.001`}, {`105e-1`, `10.5`}, {`1.5e-7`, `1.5e-7`}, {`-1234.5e30`, `-1.2345e33`},
		{`123456789012345678901234567890`, `1.2345678901234567890123456789e29`},
		{`1e21`, `1e21`}, {`1e20`, `100000000000000000000`},
		{`[true,false,null]`, `[true,false,null]`},
		{`{}`, `{}`}, {`[]`, `[]`},
	}
	for _, c := range cases {
		got, err := Canonical([]byte(c.in))
		require.NoError(t, err, c.in)
		assert.Equal(t, c.want, string(got), c.in)
	}
}

func TestCanonicalRefuses(t *testing.T) {
	cases := []struct{ in, err string }{
		{`{"a":1,"a":2}`, `runtime: duplicate object key "a"`},
		{`{"a":1}{}`, "trailing data"},
		{`{"a":`, "EOF"},
		{``, "EOF"},
		{`1e99999999999`, "exponent out of range"},
		{`{'a':1}`, "invalid character"},
	}
	for _, c := range cases {
		_, err := Canonical([]byte(c.in))
		require.Error(t, err, c.in)
		assert.Contains(t, err.Error(), c.err, c.in)
	}
	_, err := Canonical([]byte(`{"x":{"k":1,"k":1}}`))
	assert.True(t, errors.Is(err, ErrDuplicateKey), "nested duplicates are found too: %v", err)
}

// FuzzCanonical checks that canonicalising is idempotent, yields valid
// JSON, and maps inputs with the same meaning (re-indented, or re-encoded
// by encoding/json with other key order and escaping) to the same bytes.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":2}`, `{"file_path":"/tmp/a","limit":10.50}`, `[1,"x",{"k":[null,true]}]`,
		`"<&>\u00e9"`, `-0.000e5`, `{"a":{"b":{"c":[]}}}`, `1.5e300`, `"\ud800"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c1, err := Canonical(data)
		if err != nil {
			if json.Valid(data) && !errors.Is(err, ErrDuplicateKey) && !strings.Contains(err.Error(), "exponent") {
				t.Fatalf("valid JSON %q refused: %v", data, err)
			}
			return
		}
		if !json.Valid(c1) {
			t.Fatalf("canonical form %q of %q is not valid JSON", c1, data)
		}
		c2, err := Canonical(c1)
		if err != nil || !bytes.Equal(c1, c2) {
			t.Fatalf("not idempotent: %q -> %q -> %q (%v)", data, c1, c2, err)
		}
		var ind bytes.Buffer
		if err := json.Indent(&ind, data, "", "\t"); err != nil {
			t.Fatalf("json.Indent failed on accepted input %q: %v", data, err)
		}
		if c3, err := Canonical(ind.Bytes()); err != nil || !bytes.Equal(c1, c3) {
			t.Fatalf("re-indented input differs: %q vs %q (%v)", c1, c3, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("encoding/json refused accepted input %q: %v", data, err)
		}
		re, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("re-encoding %q: %v", data, err)
		}
		if c4, err := Canonical(re); err != nil || !bytes.Equal(c1, c4) {
			t.Fatalf("re-encoded input %q canonicalises to %q, want %q (%v)", re, c4, c1, err)
		}
	})
}
