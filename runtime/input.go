package runtime

import "github.com/toolgate/toolgate/internal/jsonin"

// CanonicalInput returns the canonical form of a tool call's input: the
// form the pipeline compares calls by (the repeat limit, an answer to a
// question). Object keys are sorted by their bytes, white space dropped,
// strings escaped in one way and each number written in one form (1, 1.0
// and 10e-1 all become 1), so two inputs that mean the same JSON object
// have the same canonical form. Adapters use it to tell whether a later
// request carries the same input as an earlier one.
//
// It refuses, with an error that says why, what [Pipeline.Check] refuses
// as an input it cannot read: anything but one JSON object, an object
// that holds a key twice (parsers disagree on which value wins, so a check
// and a tool could read different inputs), and nesting deeper than 128
// levels of objects and arrays. It does not apply Config.MaxInputBytes;
// its cost is linear in the input. Safe for concurrent use.
func CanonicalInput(input []byte) ([]byte, error) {
	canon, _, err := jsonin.Object(input, nil, nil)
	if err != nil {
		return nil, &inputErr{err}
	}
	return canon, nil
}

// inputErr is why an input cannot be read, in the words of the Deny
// [Pipeline.Check] gives it.
type inputErr struct{ err error }

func (e *inputErr) Error() string { return "runtime: " + inputError(e.err) }
func (e *inputErr) Unwrap() error { return e.err }
