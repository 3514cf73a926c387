package jsonin

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestValidJSONDepth checks the nesting bound against encoding/json's, at
// the bound and one past it, for objects and arrays.
func TestValidJSONDepth(t *testing.T) {
	for _, n := range []int{maxJSONDepth - 1, maxJSONDepth, maxJSONDepth + 1} {
		arr := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
		obj := []byte(strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n))
		mixed := []byte(strings.Repeat(`[{"a":`, n/2) + "1" + strings.Repeat("}]", n/2))
		for _, d := range [][]byte{arr, obj, mixed} {
			assert.Equal(t, json.Valid(d), validJSON(d), "depth %d, %.12s...", n, d)
		}
	}
	assert.True(t, validJSON([]byte(strings.Repeat("[", maxJSONDepth)+strings.Repeat("]", maxJSONDepth))))
	assert.False(t, validJSON([]byte(strings.Repeat("[", maxJSONDepth+1)+strings.Repeat("]", maxJSONDepth+1))))
}

// FuzzValidJSON checks validJSON against json.Valid on any input.
func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `[]`, `{"a":1}`, ` {"a" : [1, 2.5e-3, -0, "x\u00e9\n", true, false, null]} `, `{"a":1,}`, `[1,]`,
		`{"a" 1}`, `{a:1}`, `01`, `-`, `-01`, `1.`, `1.e5`, `1e`, `1e+`, `.5`, `+1`, `"\x"`, `"\u12"`, `"\u12G4"`,
		"\"tab\there\"", "\"\xff\xfe\"", `tru`, `true false`, `nul`, `"abc`, `[1 2]`, `{"a":1 "b":2}`, `{"a":}`, `[`,
		`"\/\b\f\n\r\t\"\\"`, `1E+10`, `-0.0e-0`, "\t\n\r 1 \r\n\t", `{"a":{"b":[{"c":"d"}]}}`, `"\u0000"`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := validJSON(data), json.Valid(data); got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid says %v", data, got, want)
		}
	})
}
