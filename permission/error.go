package permission

import "strconv"

// Error is a configuration error: a malformed rule, settings file, mode or
// environment variable. It names the input, where it was found and why it
// was refused.
type Error struct {
	// Source names where the input came from: a file name, an environment
	// variable, or empty for Go construction.
	Source string
	// Index is the position of a rule within its list (0-based), or -1.
	Index int
	// Offset is the byte offset within Input where the problem is, or -1.
	Offset int
	// Input is the text that was refused: a rule, a mode, a variable's
	// value. It is empty for a settings file, whose content is never
	// quoted.
	Input string
	// Reason says what is wrong.
	Reason string
}

func (e *Error) Error() string {
	s := "permission: "
	if e.Source != "" {
		s += e.Source + ": "
	}
	if e.Index >= 0 && e.Source != "" {
		s += "rule " + strconv.Itoa(e.Index) + ": "
	}
	switch {
	case e.Input != "":
		s += strconv.Quote(e.Input)
		if e.Offset > 0 {
			s += " at offset " + strconv.Itoa(e.Offset)
		}
		s += ": "
	case e.Offset >= 0 && e.Source != "":
		// A settings file: where, never what (the content may be a
		// secret behind a link).
		s += "at offset " + strconv.Itoa(e.Offset) + ": "
	}
	return s + e.Reason
}
