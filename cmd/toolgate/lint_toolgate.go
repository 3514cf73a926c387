package main

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
)

// lintToolgate checks the "toolgate" key of a settings file as the check
// reads it (loadOptions): an unknown key or a value of the wrong type
// makes every call of the check deny, so lint reports it as an error,
// with the key meant where one is close.
func lintToolgate(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var o options
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(&o)
	if err == nil {
		return ""
	}
	msg := `"toolgate": ` + err.Error() + "; toolgate check denies every call until it is fixed"
	const unknown = `json: unknown field "`
	if key, ok := strings.CutPrefix(err.Error(), unknown); ok {
		key = strings.TrimSuffix(key, `"`)
		if near := nearestKey(key, optionKeys()); near != "" {
			msg += ` (did you mean "` + near + `"?)`
		}
	}
	return msg
}

// optionKeys are the keys of the "toolgate" settings, from options' tags.
func optionKeys() []string {
	t := reflect.TypeOf(options{})
	keys := make([]string, 0, t.NumField())
	for i := range t.NumField() {
		if k, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ","); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	return keys
}

// nearestKey returns the key of keys closest to s (letter case aside), if
// it is within two edits, or "".
func nearestKey(s string, keys []string) string {
	best, bestD := "", 3
	for _, k := range keys {
		if d := editDistance(strings.ToLower(s), strings.ToLower(k)); d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// editDistance is the Damerau-Levenshtein distance of a and b, transposed
// neighbours counting one edit ("netwrok" is one edit from "network").
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}
