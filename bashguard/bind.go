package bashguard

import (
	"encoding/csv"
	"strings"
)

// bindSource reads the path of this machine that a container option
// binds, from its value: docker -v's SRC:DST[:OPTS], where SRC is a path
// when it begins with "/", "." or "~" (else it names a volume), and
// --mount's comma-separated key=value list (CSV, as docker reads it),
// whose source (src) is a path when type is bind (the default is a
// volume); for a list that does not read as CSV, ok is true and src
// "": it may bind any path. readOnly says that the
// container cannot write it (ro, readonly). ok is false when the value
// binds no path of this machine.
func bindSource(opt, val string) (src string, readOnly, ok bool) {
	if opt == "--mount" {
		// docker reads the list as one line of CSV: a field may be
		// quoted ("src=/etc"). One that does not read binds a path not
		// known here: ok, with the source "".
		fields, err := csv.NewReader(strings.NewReader(val)).Read()
		if err != nil {
			return "", false, true
		}
		typ := "volume"
		for _, kv := range fields {
			k, v, _ := strings.Cut(kv, "=")
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "type":
				typ = strings.ToLower(v)
			case "source", "src":
				src = v
			case "readonly", "ro":
				readOnly = v == "" || v == "1" || strings.EqualFold(v, "true")
			}
		}
		return src, readOnly, typ == "bind" && src != ""
	}
	parts := strings.Split(val, ":")
	src = parts[0]
	if len(parts) < 2 || src == "" || !strings.ContainsAny(src[:1], "/.~") {
		return "", false, false // an anonymous or a named volume
	}
	if len(parts) > 2 {
		for o := range strings.SplitSeq(parts[len(parts)-1], ",") {
			if o == "ro" || o == "readonly" {
				readOnly = true
			}
		}
	}
	return src, readOnly, true
}
