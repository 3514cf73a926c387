package bashguard

import (
	"slices"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// What a tool whose commands are an API too large to list (aws, gcloud,
// az) reads and writes here is read by class: the operands of the
// commands a table names (leadCommands: aws s3api get-object ...
// OUTFILE), the values that name a file by a prefix (paramFiles: aws's
// file://, az's @FILE) and the options that name one by their name's
// ending (fileSuffixes: gcloud's --key-file).

// leadCommand is a row of spec.leadCommands. Of kind kAsk, with keys,
// it asks only where an operand after its words names one of them (its
// last dotted part: profile.dev.credential_process) or is only known at
// run time.
type leadCommand struct {
	words string
	kind  kind
	why   string
	keys  []string
}

// asks reports whether the row r, of kind kAsk, asks for the operands
// rest of the line v.
func (r *leadCommand) asks(v *argv, rest []int) bool {
	if len(r.keys) == 0 {
		return true
	}
	for _, i := range rest {
		w := strings.ToLower(v.vals[i])
		if !v.literal(i) || slices.Contains(r.keys, w[strings.LastIndexByte(w, '.')+1:]) {
			return true
		}
	}
	return false
}

// leadCommand returns the row of s.leadCommands whose words the first
// operands ops of v are, literally, and the operands after them; nil
// where none is.
func (s *spec) leadCommand(v *argv, ops []int) (*leadCommand, []int) {
	for k := range s.leadCommands {
		r := &s.leadCommands[k]
		words := strings.Fields(r.words)
		if len(ops) < len(words) {
			continue
		}
		match := true
		for j, w := range words {
			if !v.literal(ops[j]) || v.vals[ops[j]] != w {
				match = false
				break
			}
		}
		if match {
			return r, ops[len(words):]
		}
	}
	return nil, nil
}

// paramFiles judges, as reads, the files the words of the line v name
// after one of the prefixes of s.paramFiles (aws --cli-input-json
// file://x.json, --user-data=fileb://y): at a word's start or after an
// "=", whatever the scan of the line took the word for.
func (m *cmdCall) paramFiles(c *verdictAcc, name string, s *spec, v *argv) {
	for i := 1; i < v.len() && len(s.paramFiles) > 0; i++ {
		w := v.vals[i]
		for _, p := range s.paramFiles {
			at := strings.Index(w, p)
			if at < 0 || at > 0 && w[at-1] != '=' {
				continue
			}
			file := w[at+len(p):]
			if s.expandsPaths {
				var why string
				if file, why = expandToolPath(file, m.pol.Home); why != "" {
					c.addf(permission.Ask, ArgsRule(name), "reads the file of ", w, ", whose path "+why, false)
					continue
				}
			}
			m.readPath(c, file, v.flags[i], name)
		}
	}
}

// fileSuffix reports whether the option word w (up to an "=") ends in one
// of s.fileSuffixes.
func (s *spec) fileSuffix(w string) bool {
	name, _, _ := strings.Cut(w, "=")
	return strings.HasPrefix(name, "--") && slices.ContainsFunc(s.fileSuffixes, func(x string) bool { return strings.HasSuffix(name, x) })
}

// suffixFile judges the value of the option e, which names a file by its
// name's ending (spec.fileSuffixes), as a read and as a write: attached
// after "=", or the next word. A value only known at run time asks.
func (m *cmdCall) suffixFile(c *verdictAcc, name string, v *argv, e *scanned) {
	_, val, attached := strings.Cut(e.word, "=")
	at := e.at
	if !attached {
		if at+1 >= v.len() {
			return // no value: the tool refuses it
		}
		at++
		val = v.vals[at]
	}
	m.readPath(c, val, v.flags[at], name)
	m.writePath(c, val, v.flags[at], name)
}
