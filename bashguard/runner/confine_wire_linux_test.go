//go:build linux

package runner

import (
	"bufio"
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fillExported sets every exported field of the struct v points to a
// value other than its zero, distinct per field (n counts them), so that
// a field the wire form leaves out shows as a difference.
func fillExported(t *testing.T, v reflect.Value, n *int) {
	t.Helper()
	typ := v.Type()
	for i := range v.NumField() {
		if !typ.Field(i).IsExported() {
			continue
		}
		*n++
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Int, reflect.Int32, reflect.Int64:
			f.SetInt(int64(1000 + *n))
		case reflect.Uint, reflect.Uint8, reflect.Uint32, reflect.Uint64:
			f.SetUint(uint64(100 + *n))
		case reflect.String:
			f.SetString("s" + strings.Repeat("é/", *n))
		case reflect.Array:
			for j := range f.Len() {
				f.Index(j).SetString("a" + strings.Repeat("x", *n+j))
			}
		case reflect.Slice:
			s := reflect.MakeSlice(f.Type(), 2, 2)
			for j := range 2 {
				e := s.Index(j)
				if e.Kind() == reflect.Struct {
					fillExported(t, e, n)
				} else {
					e.SetString("l" + strings.Repeat("y", *n+j))
				}
			}
			f.Set(s)
		default:
			t.Fatalf("field %s of %s: a kind (%s) the test does not fill: the wire form needs it too", typ.Field(i).Name, typ, f.Kind())
		}
	}
}

// TestConfineWireCarriesEveryField sends a plan, the line that ends a
// Late plan and a report, each with every exported field set, and reads
// them back equal: a field added to one of them and not to the wire form
// fails here.
func TestConfineWireCarriesEveryField(t *testing.T) {
	var p confinePlan
	var d confineLateDone
	var s confineStatus
	n := 0
	fillExported(t, reflect.ValueOf(&p).Elem(), &n)
	fillExported(t, reflect.ValueOf(&d).Elem(), &n)
	fillExported(t, reflect.ValueOf(&s).Elem(), &n)
	p.NetMode = confineNetLoopback // a mode the launcher knows
	var buf bytes.Buffer
	require.NoError(t, sendPlan(&buf, &p))
	require.NoError(t, sendLateDone(&buf, d))
	require.NoError(t, sendStatus(&buf, s))
	r := bufio.NewReader(&buf)
	gotP, err := recvPlan(r)
	require.NoError(t, err)
	assert.Equal(t, p, gotP, "the plan crosses the pipe whole")
	gotD, err := recvLateDone(r)
	require.NoError(t, err)
	assert.Equal(t, d, gotD)
	gotS, err := recvStatus(r)
	require.NoError(t, err)
	assert.Equal(t, s, gotS)
	_, err = recvStatus(r)
	assert.Error(t, err, "nothing is left")
}

// TestConfineWireRefusesForeign: a plan of another form (the JSON an
// earlier runner wrote, another version's magic, a frame cut short or
// with bytes left over) is refused, and the report reader keeps the last
// report that parsed.
func TestConfineWireRefusesForeign(t *testing.T) {
	var good bytes.Buffer
	require.NoError(t, sendPlan(&good, &confinePlan{ABI: 4, Bash: "/bin/bash", Rules: []confineRule{{Path: "/w", Access: 7}}}))
	frame := good.Bytes()
	other := bytes.Replace(append([]byte(nil), frame...), []byte("plan-1"), []byte("plan-2"), 1)
	long := append(append([]byte(nil), frame...), 0)
	long[0]++ // the length covers a byte the fields do not read
	for name, b := range map[string][]byte{
		"json":      []byte(`{"ABI":4,"Bash":"/bin/bash"}` + "\n"),
		"version":   other,
		"truncated": frame[:len(frame)-1],
		"leftover":  long,
		"empty":     nil,
		"huge":      {0xff, 0xff, 0xff, 0xff, 0x7f},
	} {
		_, err := recvPlan(bufio.NewReader(bytes.NewReader(b)))
		assert.Error(t, err, "%s: refused", name)
	}
	p, err := recvPlan(bufio.NewReader(bytes.NewReader(frame)))
	require.NoError(t, err)
	assert.Equal(t, "/bin/bash", p.Bash)

	var reports bytes.Buffer
	require.NoError(t, sendStatus(&reports, confineStatus{Error: "first"}))
	require.NoError(t, sendStatus(&reports, confineStatus{Applied: true, Layers: []string{"seccomp"}}))
	reports.Write([]byte{5, 1, 2}) // a report cut short by the launcher's end
	s, ok := confineReadStatus(&reports)
	require.True(t, ok)
	assert.Equal(t, confineStatus{Applied: true, Layers: []string{"seccomp"}}, s, "the last whole report counts")
	_, ok = confineReadStatus(bytes.NewReader(nil))
	assert.False(t, ok, "no report: none counts")
}

// FuzzConfineWirePlan: any bytes are refused or read as a plan that,
// sent again, reads back the same (the reader accepts only what the
// writer writes), without a panic.
func FuzzConfineWirePlan(f *testing.F) {
	var b bytes.Buffer
	_ = sendPlan(&b, &confinePlan{ABI: 6, Rules: []confineRule{{Path: "/a", Access: 3, Follow: true}}, Hidden: []string{"/h"}, Late: true})
	f.Add(b.Bytes())
	f.Add([]byte(`{"ABI":4}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := recvPlan(bufio.NewReader(bytes.NewReader(data)))
		if err != nil {
			return
		}
		var again bytes.Buffer
		require.NoError(t, sendPlan(&again, &p))
		q, err := recvPlan(bufio.NewReader(&again))
		require.NoError(t, err)
		require.Equal(t, p, q)
	})
}
