package approvalpage

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgate/toolgate/runtime/store"
)

// Segment is a piece of the call's command as the page shows it: Marked
// pieces are what made the call ask.
type Segment struct {
	Text   string `json:"text"`
	Marked bool   `json:"marked,omitempty"`
}

// Asking is one part of the call that made it ask, and why.
type Asking struct {
	// Part is the simple command (its argv joined by spaces) or the
	// input member ("file_path: /w/.env").
	Part   string `json:"part"`
	Reason string `json:"reason,omitempty"`
}

// Field is one top-level member of a call's input whose value is a
// string, a number or a boolean: what a call of a tool other than a shell
// is, at a glance. Marked fields are named by the call's reason.
type Field struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Marked bool   `json:"marked,omitempty"`
}

// maxFieldBytes bounds a field's value on the page: the whole input is
// one click away.
const maxFieldBytes = 300

// scriptSegments splits a shell call's script into pieces, marking each
// command that asks: from where it starts (its "line:col") to where the
// next command starts or its line ends, less the operators and blanks
// that end it. A command whose position is outside the script is not
// marked (it is still listed with its reason).
func scriptSegments(script string, cmds []store.ApprovalCommand) []Segment {
	if script == "" {
		return nil
	}
	starts := make([]int, 0, len(cmds))
	for _, c := range cmds {
		starts = append(starts, offsetOf(script, c.Pos))
	}
	type span struct{ from, to int }
	var spans []span
	for i, c := range cmds {
		from := starts[i]
		if !c.Asks || from < 0 {
			continue
		}
		to := len(script)
		if nl := strings.IndexByte(script[from:], '\n'); nl >= 0 {
			to = from + nl
		}
		for _, s := range starts {
			if s > from && s < to {
				to = s
			}
		}
		to = from + len(strings.TrimRight(script[from:to], " \t;&|()"))
		if to <= from {
			continue
		}
		if n := len(spans); n > 0 && from < spans[n-1].to {
			from = spans[n-1].to // a command inside another's span
			if to <= from {
				continue
			}
		}
		spans = append(spans, span{from, to})
	}
	out := make([]Segment, 0, 2*len(spans)+1)
	at := 0
	for _, s := range spans {
		if s.from > at {
			out = append(out, Segment{Text: script[at:s.from]})
		}
		out = append(out, Segment{Text: script[s.from:s.to], Marked: true})
		at = s.to
	}
	if at < len(script) {
		out = append(out, Segment{Text: script[at:]})
	}
	return out
}

// offsetOf is the byte offset of "line:col" (both from 1, col in bytes)
// in s, or -1.
func offsetOf(s, pos string) int {
	l, c, ok := strings.Cut(pos, ":")
	line, err1 := strconv.Atoi(l)
	col, err2 := strconv.Atoi(c)
	if !ok || err1 != nil || err2 != nil || line < 1 || col < 1 {
		return -1
	}
	start := 0 // of the line
	for ; line > 1; line-- {
		nl := strings.IndexByte(s[start:], '\n')
		if nl < 0 {
			return -1
		}
		start += nl + 1
	}
	end := len(s)
	if nl := strings.IndexByte(s[start:], '\n'); nl >= 0 {
		end = start + nl
	}
	off := start + col - 1
	if off >= end || !utf8.RuneStart(s[off]) {
		return -1
	}
	return off
}

// inputFields lists the scalar top-level members of input, in order; a
// member whose value the reason quotes is marked.
func inputFields(input json.RawMessage, reason string) []Field {
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []Field
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		name, _ := t.(string)
		var v any
		if err := dec.Decode(&v); err != nil {
			return out
		}
		var s string
		switch v := v.(type) {
		case string:
			s = v
		case json.Number:
			s = v.String()
		case bool:
			s = strconv.FormatBool(v)
		default:
			continue
		}
		f := Field{Name: name, Value: s}
		if len(s) > maxFieldBytes {
			cut := maxFieldBytes
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
			f.Value = s[:cut] + "…"
		}
		f.Marked = len(s) >= 3 && strings.Contains(reason, s)
		out = append(out, f)
	}
	return out
}
