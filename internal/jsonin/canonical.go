// Package jsonin is the one parse of a tool call's input: its canonical
// form (the form layer 7 compares calls by) and its top-level members (the
// fields the content checks read), in one pass over the bytes, with the
// nesting bounded so that any input costs a pass over its bytes.
//
// Hand-written: jsontext's RFC 8785 form costs 1.5–2.2 µs, 22–32% of a Check (runtime's BenchmarkPipelineRead), over the 10% allowed.
package jsonin

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MaxDepth bounds how deep an input nests objects and arrays (the
// outermost value is the first level). Tool inputs nest a few levels; a
// deeper one is refused with its reason, so that no input costs more than
// a pass over its bytes to judge.
const MaxDepth = 128

// ErrDuplicateKey is returned by [Canonical] and [Object] for an object that holds the
// same key twice. Such input means different things to different parsers
// (first wins or last wins), so it is refused rather than guessed.
var ErrDuplicateKey = errors.New("jsonin: duplicate object key")

// ErrTooDeep is returned by [Canonical] and [Object] for a value that nests objects and
// arrays more than 128 levels deep (the outermost value is the first
// level). Tool inputs nest a few levels; the bound keeps the cost of
// reading any input to one pass over its bytes.
var ErrTooDeep = fmt.Errorf("jsonin: JSON nested deeper than %d levels", MaxDepth)

// Canonical returns a canonical form of the JSON value in data: object keys
// sorted by their bytes, no white space, strings re-escaped in one way, and
// numbers written in one form per value (1, 1.0 and 10e-1 all become 1, 0.0012e3 becomes 1.2;
// -0 becomes 0). Two inputs that mean the same JSON value have the same
// canonical form, and Canonical(Canonical(x)) equals Canonical(x).
//
// Invalid JSON, trailing data, an object with a duplicate key
// ([ErrDuplicateKey]), nesting deeper than 128 levels ([ErrTooDeep]) or a
// number whose exponent exceeds 10⁹ in size is an error. Invalid UTF-8 in
// strings is replaced by U+FFFD, as encoding/json does. The cost is one
// pass over data to check it and one to write the result (plus sorting
// each object's keys).
func Canonical(data []byte) ([]byte, error) {
	tab, err := scanJSON(data)
	if err != nil {
		return nil, err
	}
	c := canonScanner{data: data, tab: tab}
	var buf bytes.Buffer
	buf.Grow(len(data))
	if err := c.value(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// scanJSON checks data, nested at most MaxDepth levels deep, and
// returns where its nested containers open and close. Its error says why
// data is refused: too deep, or what encoding/json says is wrong with it
// (at that depth encoding/json's own check is linear too).
func scanJSON(data []byte) (*jsonScan, error) {
	tab := &jsonScan{max: MaxDepth, record: true}
	if tab.valid(data) {
		return tab, nil
	}
	if tab.tooDeep {
		return nil, ErrTooDeep
	}
	var raw json.RawMessage
	err := json.Unmarshal(data, &raw)
	if err == nil {
		err = errors.New("invalid")
	}
	return nil, fmt.Errorf("jsonin: canonical JSON: %w", err)
}

// Member is one top-level member of an object read by [Object].
type Member struct {
	// Key is the member's name, decoded; Val its value in canonical form.
	Key []byte
	Val []byte
	// Str is the value's text when it is a string the scan decoded
	// (escapes or non-ASCII bytes); Decoded tells it is set. Other
	// strings are read from Val when needed.
	Str     string
	Decoded bool
}

// canonScanner canonicalises input already checked by scanJSON (so
// nesting is bounded by MaxDepth), without the decoder's per-token
// allocations. It writes every value once, in place in the output: an
// object's members are found first (a nested object or array is stepped
// over by its recorded end, not read), sorted, and then written each from
// where it stands in the input.
type canonScanner struct {
	data []byte
	pos  int
	tab  *jsonScan
	// str is the text of the last string value decoded, and decoded that
	// it is set: the top-level members keep it.
	str     string
	decoded bool
}

func (c *canonScanner) ws() {
	for c.pos < len(c.data) {
		switch c.data[c.pos] {
		case ' ', '\t', '\n', '\r':
			c.pos++
		default:
			return
		}
	}
}

func (c *canonScanner) value(buf *bytes.Buffer) error {
	c.ws()
	switch b := c.data[c.pos]; {
	case b == '{':
		_, err := c.object(buf, false)
		return err
	case b == '[':
		c.pos++
		buf.WriteByte('[')
		c.ws()
		for i := 0; c.data[c.pos] != ']'; i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := c.value(buf); err != nil {
				return err
			}
			c.ws()
			if c.data[c.pos] == ',' {
				c.pos++
				c.ws()
			}
		}
		c.pos++
		buf.WriteByte(']')
	case b == '"':
		start := c.pos
		switch plain := c.skipStr(); {
		case plain && plainString(c.data[start+1:c.pos-1]):
			// Written as it stands: what writeString would write.
			buf.Write(c.data[start:c.pos])
		case plain:
			// Its value is the text between the quotes.
			writeString(buf, c.data[start+1:c.pos-1])
		default:
			c.str, c.decoded = DecodeString(c.data[start:c.pos]), true
			writeString(buf, c.str)
		}
	case b == 't':
		c.pos += 4
		buf.WriteString("true")
	case b == 'f':
		c.pos += 5
		buf.WriteString("false")
	case b == 'n':
		c.pos += 4
		buf.WriteString("null")
	default:
		start := c.pos
		c.skipNumber()
		if num := c.data[start:c.pos]; canonicalInt(num) {
			buf.Write(num)
			return nil
		}
		n, err := canonNumber(string(c.data[start:c.pos]))
		if err != nil {
			return err
		}
		buf.WriteString(n)
	}
	return nil
}

func (c *canonScanner) skipNumber() {
	for c.pos < len(c.data) && strings.IndexByte("+-0123456789.eE", c.data[c.pos]) >= 0 {
		c.pos++
	}
}

// skip moves past the value at c.pos without writing it.
func (c *canonScanner) skip() {
	switch c.data[c.pos] {
	case '{', '[':
		c.pos = c.tab.closeOf(c.pos) + 1
	case '"':
		c.skipStr()
	case 't', 'n':
		c.pos += 4
	case 'f':
		c.pos += 5
	default:
		c.skipNumber()
	}
}

// rawMember is a member of an object being read: its decoded key and
// where its value starts in the input.
type rawMember struct {
	key []byte
	at  int
}

// object writes the canonical form of the object at c.pos and, when keep
// is set, returns its members, sorted by key, each with its canonical
// value (which aliases buf's bytes).
func (c *canonScanner) object(buf *bytes.Buffer, keep bool) ([]Member, error) {
	c.pos++
	var small [8]rawMember
	raw := small[:0]
	c.ws()
	for c.data[c.pos] != '}' {
		c.ws()
		start := c.pos
		var key []byte
		if c.skipStr() {
			key = c.data[start+1 : c.pos-1]
		} else {
			key = []byte(DecodeString(c.data[start:c.pos]))
		}
		c.ws()
		c.pos++ // ':'
		c.ws()
		raw = append(raw, rawMember{key: key, at: c.pos})
		c.skip()
		c.ws()
		if c.data[c.pos] == ',' {
			c.pos++
			c.ws()
		}
	}
	end := c.pos + 1
	slices.SortFunc(raw, func(a, b rawMember) int { return bytes.Compare(a.key, b.key) })
	for i := 1; i < len(raw); i++ {
		if bytes.Equal(raw[i-1].key, raw[i].key) {
			return nil, fmt.Errorf("%w %q", ErrDuplicateKey, raw[i].key)
		}
	}
	type span struct {
		start, end int
		str        string
		decoded    bool
	}
	var spans []span
	if keep {
		spans = make([]span, 0, len(raw))
	}
	buf.WriteByte('{')
	for i, m := range raw {
		if i > 0 {
			buf.WriteByte(',')
		}
		if plainString(m.key) {
			buf.WriteByte('"')
			buf.Write(m.key)
			buf.WriteByte('"')
		} else {
			writeString(buf, m.key)
		}
		buf.WriteByte(':')
		vstart := buf.Len()
		c.pos, c.str, c.decoded = m.at, "", false
		if err := c.value(buf); err != nil {
			return nil, err
		}
		if keep {
			// A string value's decoded text, if the scan decoded it and
			// the value was that string (not an array or object holding it).
			s := span{start: vstart, end: buf.Len()}
			if c.decoded && c.data[m.at] == '"' {
				s.str, s.decoded = c.str, true
			}
			spans = append(spans, s)
		}
	}
	buf.WriteByte('}')
	c.pos = end
	if !keep {
		return nil, nil
	}
	all := buf.Bytes()
	members := make([]Member, 0, len(raw))
	for i, m := range raw {
		s := spans[i]
		members = append(members, Member{Key: m.key, Val: all[s.start:s.end:s.end], Str: s.str, Decoded: s.decoded})
	}
	return members, nil
}

// skipStr moves past the string at c.pos and reports whether its text is
// plain: free of escapes and of bytes outside ASCII, so that the bytes
// between the quotes are its value.
func (c *canonScanner) skipStr() bool {
	plain := true
	c.pos++
	for c.data[c.pos] != '"' {
		if b := c.data[c.pos]; b == '\\' {
			plain = false
			c.pos++
		} else if b >= 0x80 {
			plain = false
		}
		c.pos++
	}
	c.pos++
	return plain
}

// DecodeString decodes a valid JSON string, quotes included.
func DecodeString(raw []byte) string {
	if s, ok := UnquoteASCII(raw); ok {
		return s
	}
	var s string
	_ = json.Unmarshal(raw, &s) // valid JSON: cannot fail
	return s
}

// UnquoteASCII decodes a valid JSON string, quotes included, whose text
// and escapes are all ASCII, as json.Unmarshal would; it reports false for
// any other string, which is left to json.Unmarshal.
func UnquoteASCII(raw []byte) (string, bool) {
	raw = raw[1 : len(raw)-1]
	var b strings.Builder
	b.Grow(len(raw))
	start := 0 // of the run of plain bytes not yet written
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c >= 0x80:
			return "", false
		case c != '\\':
			continue
		}
		b.Write(raw[start:i])
		i++
		switch raw[i] {
		case '"', '\\', '/':
			b.WriteByte(raw[i])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			if i+4 >= len(raw) {
				return "", false
			}
			n := 0
			for _, h := range raw[i+1 : i+5] {
				switch {
				case '0' <= h && h <= '9':
					n = n<<4 | int(h-'0')
				case 'a' <= h && h <= 'f':
					n = n<<4 | int(h-'a'+10)
				case 'A' <= h && h <= 'F':
					n = n<<4 | int(h-'A'+10)
				default:
					return "", false
				}
			}
			if n >= 0x80 {
				return "", false
			}
			b.WriteByte(byte(n))
			i += 4
		default:
			return "", false
		}
		start = i + 1
	}
	b.Write(raw[start:])
	return b.String(), true
}

// plainString reports whether json.Marshal writes s between quotes as it
// stands.
func plainString[T string | []byte](s T) bool {
	for i := 0; i < len(s); i++ {
		if b := s[i]; b < 0x20 || b >= 0x7f || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&' {
			return false
		}
	}
	return true
}

// writeString writes s quoted exactly as json.Marshal writes a string
// (HTML characters escaped, invalid UTF-8 replaced by U+FFFD, U+2028 and
// U+2029 escaped), without its reflection and allocations.
func writeString[T string | []byte](buf *bytes.Buffer, s T) {
	buf.Grow(len(s) + 2 + 16) // room for the quotes and a few escapes
	buf.Write(appendString(buf.AvailableBuffer(), s))
}

func appendString[T string | []byte](dst []byte, s T) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(string(s[i:min(i+utf8.UTFMax, len(s))]))
		switch {
		case c == utf8.RuneError && size == 1:
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
		case c == '\u2028' || c == '\u2029':
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[c&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// canonNumber rewrites a JSON number in one form per value, as JavaScript
// prints numbers but exactly: the significant digits, with a decimal point
// where the magnitude is between 1e-6 and 1e21 and an exponent otherwise.
func canonNumber(s string) (string, error) {
	orig := s
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, exps, hasExp := strings.Cut(strings.ToLower(s), "e")
	exp := int64(0)
	if hasExp {
		var err error
		exp, err = strconv.ParseInt(strings.TrimPrefix(exps, "+"), 10, 64)
		if err != nil || exp > maxExp || exp < -maxExp {
			return "", fmt.Errorf("jsonin: canonical JSON: number %q: exponent out of range", orig)
		}
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	exp -= int64(len(frac))
	if digits == "" {
		return "0", nil
	}
	trimmed := strings.TrimRight(digits, "0")
	exp += int64(len(digits) - len(trimmed))
	digits = trimmed
	k := int64(len(digits))
	n := k + exp // the decimal point's position relative to the digits
	if n > maxExp || n < -maxExp {
		return "", fmt.Errorf("jsonin: canonical JSON: number %q: exponent out of range", orig)
	}
	var out strings.Builder
	if neg {
		out.WriteByte('-')
	}
	switch {
	case exp >= 0 && n <= 21:
		out.WriteString(digits)
		out.WriteString(strings.Repeat("0", int(exp)))
	case n > 0 && n <= 21:
		out.WriteString(digits[:n])
		out.WriteByte('.')
		out.WriteString(digits[n:])
	case n > -6 && n <= 0:
		out.WriteString("0.")
		out.WriteString(strings.Repeat("0", int(-n)))
		out.WriteString(digits)
	default:
		out.WriteString(digits[:1])
		if k > 1 {
			out.WriteByte('.')
			out.WriteString(digits[1:])
		}
		out.WriteByte('e')
		out.WriteString(strconv.FormatInt(n-1, 10))
	}
	return out.String(), nil
}

// canonicalInt reports whether num is an integer canonNumber leaves as it
// is: "0", or up to 21 digits without a leading zero, negative or not.
func canonicalInt(num []byte) bool {
	if len(num) == 1 && num[0] == '0' {
		return true
	}
	if len(num) > 0 && num[0] == '-' {
		num = num[1:]
	}
	if len(num) == 0 || len(num) > 21 || num[0] == '0' {
		return false
	}
	for _, b := range num {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// maxExp bounds exponents so that every canonical form parses again.
const maxExp = 1_000_000_000

// Object is [Canonical] for a JSON object: it appends the
// canonical form of data to canon and its top-level members (sorted by
// key, values in canonical form, aliasing data or a canonical form of
// their own, never canon's room) to members, so that callers read fields
// without decoding the input a second time. With room enough in both, the
// usual tool input (see flatObject) costs no allocation, and neither
// buffer escapes: both may be the caller's scratch on its stack. Input
// that is not a JSON object is an error.
func Object(data, canon []byte, members []Member) ([]byte, []Member, error) {
	if c, m, ok := flatObject(data, canon, members); ok {
		return c, m, nil // valid, as flatObject checked
	}
	return scanObject(data, canon, members)
}

// scanObject is Object for any input.
func scanObject(data, canon []byte, members []Member) ([]byte, []Member, error) {
	tab, err := scanJSON(data)
	if err != nil {
		return nil, nil, err
	}
	c := canonScanner{data: data, tab: tab}
	c.ws()
	if c.pos >= len(data) || data[c.pos] != '{' {
		return nil, nil, errors.New("jsonin: not a JSON object")
	}
	// The scan writes into a buffer of its own (its members alias it), so
	// that canon, often the caller's scratch, is only appended to.
	buf := bytes.NewBuffer(make([]byte, 0, len(data)))
	got, err := c.object(buf, true)
	if err != nil {
		return nil, nil, err
	}
	if cap(canon) == 0 {
		return buf.Bytes(), append(members, got...), nil
	}
	return append(canon, buf.Bytes()...), append(members, got...), nil
}

// flatObject is Object for the usual shape of a tool's input,
// and checks as it goes that data is valid JSON: an object of at most 8 members whose keys are plain
// and whose values are strings written as the canonical form writes them
// (see canonStrEnd), canonical integers, true, false or null. Such values are their own canonical form, so the work is sorting
// the members and writing them out once; the members' keys and values
// alias data. It reports false for any other input (nested values,
// escapes, numbers to rewrite, duplicate keys, not an object), which the
// general scanner handles.
func flatObject(data, canon []byte, members []Member) ([]byte, []Member, bool) {
	type span struct{ k0, k1, v0, v1 int } // key and value, quotes excluded from the key
	var arr [8]span
	sp := arr[:0]
	i := skipWS(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, nil, false
	}
	i = skipWS(data, i+1)
	for i < len(data) && data[i] != '}' {
		if len(sp) == len(arr) || data[i] != '"' {
			return nil, nil, false
		}
		k1 := plainEnd(data, i+1)
		if k1 < 0 {
			return nil, nil, false
		}
		k0 := i + 1
		if i = skipWS(data, k1+1); i >= len(data) || data[i] != ':' {
			return nil, nil, false
		}
		if i = skipWS(data, i+1); i >= len(data) {
			return nil, nil, false
		}
		v0 := i
		switch rest := data[i:]; data[i] {
		case '"':
			e := canonStrEnd(data, i+1)
			if e < 0 {
				return nil, nil, false
			}
			i = e + 1
		case 't':
			if !bytes.HasPrefix(rest, []byte("true")) {
				return nil, nil, false
			}
			i += 4
		case 'n':
			if !bytes.HasPrefix(rest, []byte("null")) {
				return nil, nil, false
			}
			i += 4
		case 'f':
			if !bytes.HasPrefix(rest, []byte("false")) {
				return nil, nil, false
			}
			i += 5
		default:
			for i < len(data) && (data[i] == '-' || '0' <= data[i] && data[i] <= '9') {
				i++
			}
			if !canonicalInt(data[v0:i]) {
				return nil, nil, false
			}
		}
		sp = append(sp, span{k0, k1, v0, i})
		switch i = skipWS(data, i); {
		case i < len(data) && data[i] == ',':
			// Another member must follow.
			if i = skipWS(data, i+1); i >= len(data) || data[i] != '"' {
				return nil, nil, false
			}
		case i >= len(data) || data[i] != '}':
			return nil, nil, false
		}
	}
	if i >= len(data) || skipWS(data, i+1) != len(data) {
		return nil, nil, false // unclosed, or something after the object
	}
	key := func(s span) []byte { return data[s.k0:s.k1] }
	for a := 1; a < len(sp); a++ {
		for b := a; b > 0 && bytes.Compare(key(sp[b-1]), key(sp[b])) > 0; b-- {
			sp[b-1], sp[b] = sp[b], sp[b-1]
		}
	}
	for j := 1; j < len(sp); j++ {
		if bytes.Equal(key(sp[j-1]), key(sp[j])) {
			return nil, nil, false
		}
	}
	// The canonical form is data without its white space: one allocation
	// at most for each of the outputs.
	canon = slices.Grow(canon, len(data))
	members = slices.Grow(members, len(sp))
	canon = append(canon, '{')
	for j, s := range sp {
		if j > 0 {
			canon = append(canon, ',')
		}
		canon = append(canon, '"')
		canon = append(canon, data[s.k0:s.k1]...)
		canon = append(canon, '"', ':')
		canon = append(canon, data[s.v0:s.v1]...)
		members = append(members, Member{Key: data[s.k0:s.k1:s.k1], Val: data[s.v0:s.v1:s.v1]})
	}
	canon = append(canon, '}')
	return canon, members, true
}

// canonStrEnd returns the index of the quote that closes the string whose
// text starts at data[i], if that text is written exactly as writeString
// writes its value (so that the string is its own canonical form), or -1.
// json.Marshal writes strings this way, so inputs a Go program encodes
// take the fast path, escapes and all.
func canonStrEnd(data []byte, i int) int {
	for i < len(data) {
		switch b := data[i]; {
		case b == '"':
			return i
		case b == '\\':
			if i+1 >= len(data) {
				return -1
			}
			switch data[i+1] {
			case '"', '\\', 'b', 'f', 'n', 'r', 't':
				i += 2
				continue
			case 'u':
			default:
				return -1
			}
			if i+6 > len(data) {
				return -1
			}
			var r rune
			for _, h := range data[i+2 : i+6] {
				switch {
				case '0' <= h && h <= '9':
					r = r<<4 | rune(h-'0')
				case 'a' <= h && h <= 'f':
					r = r<<4 | rune(h-'a'+10)
				default:
					return -1 // writeString writes lower-case hex digits
				}
			}
			switch {
			case r < 0x20 && r != '\b' && r != '\f' && r != '\n' && r != '\r' && r != '\t':
			case r == '<' || r == '>' || r == '&' || r == '\u2028' || r == '\u2029':
			default:
				return -1 // writeString writes this one otherwise
			}
			i += 6
		case b < 0x20 || b == '<' || b == '>' || b == '&':
			return -1
		case b < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size == 1 || r == '\u2028' || r == '\u2029' {
				return -1
			}
			i += size
		}
	}
	return -1
}

// plainEnd returns the index of the quote that closes the string whose
// text starts at data[i], if that text is plain (see plainString), or -1.
func plainEnd(data []byte, i int) int {
	for ; i < len(data); i++ {
		switch b := data[i]; {
		case b == '"':
			return i
		case b < 0x20 || b >= 0x7f || b == '\\' || b == '<' || b == '>' || b == '&':
			return -1
		}
	}
	return -1
}

// MemberOf returns the member key, or nil.
func MemberOf(members []Member, key string) *Member {
	for i := range members {
		if string(members[i].Key) == key {
			return &members[i]
		}
	}
	return nil
}

// Field returns the canonical value of the member key, or false.
func Field(members []Member, key string) (json.RawMessage, bool) {
	for _, m := range members {
		if string(m.Key) == key {
			return m.Val, true
		}
	}
	return nil, false
}
