package permission

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
)

// maxSettingsDepth bounds the nesting of a settings file: real settings
// are a few levels deep, and a bound keeps every scan of one linear.
const maxSettingsDepth = 64

// keyFrame is one open object or array of the scan.
type keyFrame struct {
	object  bool
	path    string // dotted keys leading to this container; "" at the top
	cur     string // the member whose value is being read
	keys    map[string]bool
	folded  map[string]bool
	env     bool
	wantKey bool
}

// checkKeys scans data, which json.Valid accepts, for a member name that
// appears twice in one object — exactly (JSON readers keep the last, which
// may erase a deny list) or in another letter case (encoding/json's struct
// decoding reads both as one field) — and for nesting deeper than
// maxSettingsDepth. Objects under "env" may hold names that differ only
// in case (PATH and path are two variables): only exact repeats count
// there. It returns the offset and the reason, or -1. The reason never
// quotes the content: it names a key only when the settings schema
// defines it.
func checkKeys(data []byte) (int64, string) { return scanKeys(data, true) }

// DuplicateKeys reports the first key of the JSON text data that repeats
// another key of its object exactly, or nesting deeper than settings may
// go: its offset and the reason, or -1 and "". It is the check
// [ParseSettings] makes, without the letter-case one, for the other JSON
// files whose members are read by exact name (Claude Code's
// ~/.claude.json, whose keys are paths: /p/App and /p/app are two).
// Invalid JSON is reported too.
func DuplicateKeys(data []byte) (int64, string) { return scanKeys(data, false) }

// scanKeys is checkKeys; fold also refuses keys that differ only in
// letter case (outside env objects).
func scanKeys(data []byte, fold bool) (int64, string) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*keyFrame
	valueDone := func() {
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].wantKey = true
		}
	}
	for {
		off := dec.InputOffset()
		for off < int64(len(data)) && strings.IndexByte(" \t\r\n,:", data[off]) >= 0 {
			off++ // to the token itself
		}
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return -1, ""
		}
		if err != nil {
			return off, "invalid JSON"
		}
		var top *keyFrame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && top.object && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				valueDone()
				continue
			}
			k, _ := tok.(string)
			if top.keys[k] {
				return off, "duplicate key " + describeKey(top.path, k, false) + ": a JSON reader keeps only one of the two"
			}
			f := strings.ToLower(k)
			if !top.env && top.folded[f] {
				return off, "key " + describeKey(top.path, k, false) + " repeats another key of its object in another letter case"
			}
			top.keys[k], top.folded[f] = true, true
			top.cur, top.wantKey = k, false
			continue
		}
		d, ok := tok.(json.Delim)
		if !ok {
			valueDone()
			continue
		}
		switch d {
		case '{', '[':
			if len(stack) >= maxSettingsDepth {
				return off, "nested more than " + strconv.Itoa(maxSettingsDepth) + " levels deep"
			}
			path := ""
			if top != nil {
				if top.object {
					path = joinKey(top.path, top.cur)
				} else {
					path = top.path + "[]"
				}
			}
			fr := &keyFrame{object: d == '{', path: path, wantKey: d == '{'}
			if fr.object {
				fr.keys, fr.folded = map[string]bool{}, map[string]bool{}
				fr.env = !fold || path == "env" || strings.HasSuffix(path, ".env")
			}
			stack = append(stack, fr)
		default: // ']' (a '}' is met where a key is wanted)
			stack = stack[:len(stack)-1]
			valueDone()
		}
	}
}

func joinKey(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

// describeKey names a key for an error or warning: quoted when the
// settings schema defines it or, if loose (an unknown key's warning), it
// looks like a key name (a short word, as a misspelt key is), else by its object only, so that no value of a file
// that is not settings (a credentials file behind a link) reaches a
// reason.
func describeKey(path, k string, loose bool) string {
	full := joinKey(path, k)
	if schemaKey(full) || loose && (schemaKey(path) || path == "") && wordLike(k) {
		return strconv.Quote(full)
	}
	if path == "" {
		return "at the top level"
	}
	if schemaKey(path) || path == "hooks" || strings.HasPrefix(path, "hooks.") {
		return "in " + strconv.Quote(path)
	}
	return "in a nested object"
}

// schemaKey reports whether a dotted key path is one the settings schema
// names.
func schemaKey(full string) bool {
	if slices.Contains(knownTopKeys, full) {
		return true
	}
	if k, ok := strings.CutPrefix(full, "permissions."); ok {
		return slices.Contains(knownPermissionKeys, k)
	}
	if k, ok := strings.CutPrefix(full, "toolgate."); ok {
		return slices.Contains(toolgateKeys, k)
	}
	return false
}

// wordLike reports whether k looks like a key name: up to 32 letters,
// digits, '_', '-' or '$'.
func wordLike(k string) bool {
	if k == "" || len(k) > 32 {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '$') {
			return false
		}
	}
	return true
}
