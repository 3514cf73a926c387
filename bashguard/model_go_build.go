package bashguard

import "strings"

// The models of go's building subcommands (specs_gobuild.go): the files
// their operands name, and the flags they pass on to the compiler and
// the linker.

// goPackages judges the operands of a go build line that name files: a
// package is a word (go reads the Go files of its directory, as a build
// does), but a file ending in ".go" is read, and the compiler's errors
// print what it found there. go run's operands after its files are the
// program's arguments.
func goPackages(m *cmdCall, c *verdictAcc, s *spec, v *argv, f *specFacts) {
	for _, i := range f.ops {
		switch {
		case strings.HasSuffix(v.vals[i], ".go"):
			m.readPath(c, v.vals[i], v.flags[i], "go")
		case !s.grammar.permute:
			return // go run: the program's arguments begin
		}
	}
}

// goToolFlagsWhy says why a value of -gcflags, -asmflags or -ldflags,
// "[pattern=]flags", is not known to be harmless, or "" when every flag
// it passes on is one of goToolFlags. The flags are split as go splits
// them (cmd/internal/quoted: at spaces, a field quoted whole by ' or ").
func goToolFlagsWhy(val string) string {
	v := strings.TrimSpace(val)
	if v != "" && v[0] != '-' {
		pattern, rest, ok := strings.Cut(v, "=")
		if !ok || pattern == "" {
			return "is not [pattern=]flags"
		}
		v = rest
	}
	fields, ok := splitQuoted(v)
	if !ok {
		return "has a quote that does not end"
	}
	for k := 0; k < len(fields); k++ {
		name, _, hasVal := strings.Cut(fields[k], "=")
		if strings.HasPrefix(name, "--") {
			name = name[1:]
		}
		takes, known := goToolFlags[name]
		if !known {
			return "passes " + fields[k] + " on, which is not known to be harmless"
		}
		if takes && !hasVal {
			k++ // its value is the next field: -X main.version=1
		}
	}
	return ""
}

// splitQuoted splits s into fields at spaces, tabs and newlines, a field
// that begins with ' or " running to the next such quote, as Go's tools
// split their flags; ok is false for a quote that does not end.
func splitQuoted(s string) (fields []string, ok bool) {
	for {
		s = strings.TrimLeft(s, " \t\n\r")
		if s == "" {
			return fields, true
		}
		if q := s[0]; q == '\'' || q == '"' {
			j := strings.IndexByte(s[1:], q)
			if j < 0 {
				return nil, false
			}
			fields = append(fields, s[1:j+1])
			s = s[j+2:]
			continue
		}
		j := strings.IndexAny(s, " \t\n\r")
		if j < 0 {
			j = len(s)
		}
		fields = append(fields, s[:j])
		s = s[j:]
	}
}
