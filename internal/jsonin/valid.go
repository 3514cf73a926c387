package jsonin

// maxJSONDepth is encoding/json's bound on nesting: more open objects and
// arrays than this make the input invalid.
const maxJSONDepth = 10000

// validJSON reports whether data is one valid JSON value with optional
// white space around it, exactly as json.Valid does (strings may hold any
// bytes at or above 0x20, invalid UTF-8 included; nesting is bounded as
// encoding/json bounds it), in one pass without a state machine.
func validJSON(data []byte) bool {
	s := jsonScan{max: maxJSONDepth}
	return s.valid(data)
}

// jsonScan checks that data is valid JSON nested at most max levels deep,
// in one pass whose recursion is bounded by max. With record set it also
// notes where each nested object and array (below the top level) opens
// and closes, so that the canonical scanner can step over a value without
// reading it again.
type jsonScan struct {
	max     int
	tooDeep bool // the scan stopped at a value nested deeper than max
	record  bool
	// opens holds the offsets of the nested containers' opening brackets,
	// in increasing order; closes the offsets of their closing ones.
	opens, closes []int
}

func (s *jsonScan) valid(data []byte) bool {
	i, ok := s.value(data, skipWS(data, 0), 1)
	return ok && skipWS(data, i) == len(data)
}

// closeOf returns the offset of the bracket that closes the nested
// container opened at data[open].
func (s *jsonScan) closeOf(open int) int {
	lo, hi := 0, len(s.opens)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if s.opens[m] < open {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return s.closes[lo]
}

// open records a container opened at i, unless it is the top level, and
// returns its slot (or -1).
func (s *jsonScan) open(i, depth int) int {
	if !s.record || depth == 1 {
		return -1
	}
	s.opens = append(s.opens, i)
	s.closes = append(s.closes, -1)
	return len(s.opens) - 1
}

func (s *jsonScan) close(slot, i int) {
	if slot >= 0 {
		s.closes[slot] = i
	}
}

func skipWS(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// value checks the value at d[i], which would be the depth'th open
// object or array if it is one, and returns the index after it.
func (s *jsonScan) value(d []byte, i, depth int) (int, bool) {
	if i >= len(d) {
		return i, false
	}
	switch c := d[i]; {
	case c == '{':
		if depth > s.max {
			s.tooDeep = true
			return i, false
		}
		slot := s.open(i, depth)
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == '}' {
			s.close(slot, i)
			return i + 1, true
		}
		for {
			if i >= len(d) || d[i] != '"' {
				return i, false
			}
			var ok bool
			if i, ok = validString(d, i); !ok {
				return i, false
			}
			if i = skipWS(d, i); i >= len(d) || d[i] != ':' {
				return i, false
			}
			if i, ok = s.value(d, skipWS(d, i+1), depth+1); !ok {
				return i, false
			}
			switch i = skipWS(d, i); {
			case i >= len(d):
				return i, false
			case d[i] == '}':
				s.close(slot, i)
				return i + 1, true
			case d[i] != ',':
				return i, false
			}
			i = skipWS(d, i+1)
		}
	case c == '[':
		if depth > s.max {
			s.tooDeep = true
			return i, false
		}
		slot := s.open(i, depth)
		i = skipWS(d, i+1)
		if i < len(d) && d[i] == ']' {
			s.close(slot, i)
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = s.value(d, i, depth+1); !ok {
				return i, false
			}
			switch i = skipWS(d, i); {
			case i >= len(d):
				return i, false
			case d[i] == ']':
				s.close(slot, i)
				return i + 1, true
			case d[i] != ',':
				return i, false
			}
			i = skipWS(d, i+1)
		}
	case c == '"':
		return validString(d, i)
	case c == '-' || isDigit(c):
		return validNumber(d, i)
	case c == 't':
		return validLiteral(d, i, "true")
	case c == 'f':
		return validLiteral(d, i, "false")
	case c == 'n':
		return validLiteral(d, i, "null")
	}
	return i, false
}

func validLiteral(d []byte, i int, lit string) (int, bool) {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// validString checks the string whose opening quote is at d[i].
func validString(d []byte, i int) (int, bool) {
	for i++; i < len(d); {
		switch c := d[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			if i+1 >= len(d) {
				return i, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if len(d)-i < 6 {
					return i, false
				}
				for _, h := range d[i+2 : i+6] {
					if !isDigit(h) && !('a' <= h && h <= 'f') && !('A' <= h && h <= 'F') {
						return i, false
					}
				}
				i += 6
			default:
				return i, false
			}
		default:
			i++
		}
	}
	return i, false
}

// validNumber checks the number beginning at d[i]:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(d []byte, i int) (int, bool) {
	if d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d) || !isDigit(d[i]):
		return i, false
	case d[i] == '0':
		i++
	default:
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || !isDigit(d[i]) {
			return i, false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || !isDigit(d[i]) {
			return i, false
		}
		for i < len(d) && isDigit(d[i]) {
			i++
		}
	}
	return i, true
}
