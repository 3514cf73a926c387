package bashguard

import (
	"errors"

	"mvdan.cc/sh/v3/syntax"
)

// ParseError is the Cause of a Deny for shell text that does not parse:
// the script given to [Guard.Judge], or shell code inside it (the text of
// bash -c or eval). Use [errors.As] to get it from a [Verdict]'s or a
// [Command]'s Cause; Unwrap gives the parser's own error.
type ParseError struct {
	// Pos is where the parser stopped, in the text it parsed: the script,
	// or, for shell code inside it, that code (the [Command] running it
	// says where it starts in the script). It is zero when the parser did
	// not say.
	Pos Pos
	// Err is the parser's error: a syntax.ParseError, or a
	// syntax.LangError for a construct its bash dialect does not know.
	Err error
}

// Error returns the parser's message, "line:col: what went wrong".
func (e *ParseError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *ParseError) Unwrap() error { return e.Err }

// parseError wraps the parser's error err.
func parseError(err error) *ParseError {
	pe := &ParseError{Err: err}
	var p syntax.Pos
	var se syntax.ParseError
	var le syntax.LangError
	switch {
	case errors.As(err, &se):
		p = se.Pos
	case errors.As(err, &le):
		p = le.Pos
	}
	if p.IsValid() {
		pe.Pos = Pos{Offset: int(p.Offset()), Line: int(p.Line()), Col: int(p.Col())}
	}
	return pe
}
