package jsonin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
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
		{`{"a":1,"a":2}`, `jsonin: duplicate object key "a"`},
		{`{"a":1}{}`, "after top-level value"},
		{`{"a":`, "unexpected end of JSON input"},
		{``, "unexpected end of JSON input"},
		{strings.Repeat("[", 129) + strings.Repeat("]", 129), "nested deeper than 128 levels"},
		{strings.Repeat(`{"a":`, 1_000_000), "nested deeper than 128 levels"},
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
			if json.Valid(data) && !errors.Is(err, ErrDuplicateKey) && !errors.Is(err, ErrTooDeep) && !strings.Contains(err.Error(), "exponent") {
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

// FuzzCanonicalObject checks the members Object returns against
// encoding/json: the object's keys, decoded, in sorted order, each with
// the canonical form of its value; and the canonical form of the whole
// as Canonical gives it.
func FuzzCanonicalObject(f *testing.F) {
	for _, s := range []string{
		`{"b":1,"a":2}`, `{"file_path":"src/a.go","description":"call 1"}`, `{"k\u00e9y":"v\n","<":{"z":[1,{"y":2,"x":3}]}}`,
		`{"a":"\ud800","b":"\u007f","c":"&"}`, `{"a":1,"a":2}`, `{"\u0061":1,"a":2}`, `{}`, ` { "x" : [ ] } `,
		`{"1":1,"2":2,"3":3,"4":4,"5":5,"6":6,"7":7,"8":8,"9":9,"10":10}`,
		`{"command":"a \u0026\u0026 b","x":["\u00e9"],"y":{"z":"\n"},"w":"\u00e9\ud800"}`,
		`{"z":true,"y":null,"x":false,"w":-12,"v":"","u":"a b"}`, ` {"b" :"x" , "a": 0 } `, `{"a":1.0,"b":"x"}`,
		`{"a":"x","a":"y"}`, `{"a":"<"}`, `{"n":007}`, `{"n":-0}`,
		`{"command":"git status \u0026\u0026 ls \u003e out","d":"tab\there \"q\" \\ \u001f é \u2028"}`,
		`{"a":1,}`, `{"a":tru}`, `{"a" 1}`, `{"a":1`, `{"a":1}x`, `{"a":nul}`, `{"a":1 "b":2}`, `{"a":-}`, `{`, `{"a":"x",}`,
		`{"a":"\u0026amp;","b":"\/","c":"\u00e9","d":"\ufffd","e":"\u2029","f":"\u000a","g":"\u0026"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// Room for a few members: the results must not depend on it.
		canon, members, err := Object(data, make([]byte, 0, 8), make([]Member, 0, 2))
		want, werr := Canonical(data)
		// The fast path for flat objects, when it answers, was given
		// valid JSON and answers exactly as the general scanner.
		if ft, fm, ok := flatObject(data, nil, nil); ok {
			if !json.Valid(data) {
				t.Fatalf("flatObject accepted %q, which is not valid JSON", data)
			}
			st, sm, serr := scanObject(data, nil, nil)
			if serr != nil || !bytes.Equal(ft, st) || len(fm) != len(sm) {
				t.Fatalf("flatObject(%q) = %q, %d members; scanObject gives %q, %d members, %v", data, ft, len(fm), st, len(sm), serr)
			}
			for i := range fm {
				if !bytes.Equal(fm[i].Key, sm[i].Key) || !bytes.Equal(fm[i].Val, sm[i].Val) || memberText(fm[i]) != memberText(sm[i]) {
					t.Fatalf("flatObject(%q) member %d = %+v; scanObject gives %+v", data, i, fm[i], sm[i])
				}
			}
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(data, &obj) != nil {
			if err == nil {
				t.Fatalf("Object accepted %q, which is not a JSON object", data)
			}
			return
		}
		if werr != nil {
			if err == nil || err.Error() != werr.Error() {
				t.Fatalf("Object(%q) error %v, Canonical error %v", data, err, werr)
			}
			return
		}
		if err != nil || !bytes.Equal(canon, want) {
			t.Fatalf("Object(%q) = %q, %v; Canonical gives %q", data, canon, err, want)
		}
		// The members never alias canon's room (the caller's scratch):
		// they hold after it is written over.
		clear(canon)
		if len(members) != len(obj) {
			t.Fatalf("Object(%q): %d members, the object has %d", data, len(members), len(obj))
		}
		for i, m := range members {
			if i > 0 && string(members[i-1].Key) >= string(m.Key) {
				t.Fatalf("Object(%q): members not sorted: %q before %q", data, members[i-1].Key, m.Key)
			}
			raw, ok := obj[string(m.Key)]
			if !ok {
				t.Fatalf("Object(%q): member %q is not a key of the object", data, m.Key)
			}
			if v, err := Canonical(raw); err != nil || !bytes.Equal(v, m.Val) {
				t.Fatalf("Object(%q): member %q = %q, want %q (%v)", data, m.Key, m.Val, v, err)
			}
			if m.Decoded {
				// The text kept from the scan is the string's value.
				var s string
				if err := json.Unmarshal(raw, &s); err != nil || s != m.Str {
					t.Fatalf("Object(%q): member %q decoded as %q, json.Unmarshal gives %q (%v)", data, m.Key, m.Str, s, err)
				}
			}
		}
	})
}

// memberText is the text of a string member, decoded by the scan or read
// from its canonical value.
func memberText(m Member) string {
	if m.Decoded {
		return m.Str
	}
	if len(m.Val) > 0 && m.Val[0] == '"' {
		return DecodeString(m.Val)
	}
	return ""
}

// FuzzStringCodec checks the string writer and reader the canonical form
// uses against encoding/json: writeString writes what json.Marshal
// writes, and DecodeString reads back what json.Unmarshal reads.
func FuzzStringCodec(f *testing.F) {
	for _, s := range []string{
		"", "plain", "git status && ls -la src | grep main", `say "hi" \ bye`, "tab\there\nnew\r\b\f\x00\x1f\x7f",
		"<a href='x'>&amp;</a>", "caf\u00e9 \u2028 \u2029 \U0001F600", "bad \xff\xfe utf8 \xed\xa0\x80", "\\u0041",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		var buf bytes.Buffer
		writeString(&buf, s)
		require.Equal(t, string(want), buf.String(), "writeString(%q)", s)
		var back string
		require.NoError(t, json.Unmarshal(want, &back))
		require.Equal(t, back, DecodeString(want), "DecodeString(%q)", want)
		// Escapes json.Marshal does not write: \/, \u in either case, and
		// escaped printable characters.
		var alt strings.Builder
		alt.WriteByte('"')
		for _, r := range back {
			switch {
			case r == '/':
				alt.WriteString(`\/`)
			case r < 0x80 && r%3 == 0:
				fmt.Fprintf(&alt, `\u%04X`, r)
			case r < 0x80 && r%3 == 1:
				fmt.Fprintf(&alt, `\u%04x`, r)
			default:
				b, _ := json.Marshal(string(r))
				alt.Write(b[1 : len(b)-1])
			}
		}
		alt.WriteByte('"')
		var back2 string
		require.NoError(t, json.Unmarshal([]byte(alt.String()), &back2), "%s", alt.String())
		require.Equal(t, back2, DecodeString([]byte(alt.String())), "DecodeString(%s)", alt.String())
	})
}

func TestCanonicalObjectKeepsDecodedStrings(t *testing.T) {
	_, members, err := Object([]byte(`{"command":"git status \u0026\u0026 ls","list":["\u0026"],"plain":"ls"}`), nil, nil)
	require.NoError(t, err)
	require.Len(t, members, 3)
	assert.True(t, members[0].Decoded)
	assert.Equal(t, "git status && ls", members[0].Str)
	assert.False(t, members[1].Decoded, "an array is not a string")
	assert.False(t, members[2].Decoded, "a plain string is read from its value when needed")
	assert.Equal(t, `"ls"`, string(members[2].Val))
}

// TestCanonicalObjectFlatNoAlloc: the usual tool input, with room given
// for its canonical form and members, costs no allocation.
func TestCanonicalObjectFlatNoAlloc(t *testing.T) {
	in := []byte(`{"file_path":"src/main.go","limit":20,"offset":null}`)
	var canonBuf [256]byte
	var memberBuf [8]Member
	allocs := testing.AllocsPerRun(100, func() {
		canon, members, err := Object(in, canonBuf[:0], memberBuf[:0])
		if err != nil || len(members) != 3 || len(canon) != len(in) {
			t.Fatalf("Object(%s) = %s, %d members, %v", in, canon, len(members), err)
		}
	})
	assert.Zero(t, allocs)
}
