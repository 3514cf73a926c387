package hooks

import (
	"errors"
	"fmt"
	"strconv"
)

// ErrTimeout is wrapped by the [Error] of a callback that ran past its
// timeout.
var ErrTimeout = errors.New("hooks: callback timed out")

// ErrGoexit is wrapped by the [Error] of a callback that ended its
// goroutine with runtime.Goexit (as t.Fatal does) while running on a
// worker. A callback declared [NoTimeout] runs on the caller's goroutine,
// and a Goexit there ends the caller's goroutine, as it would in any
// function the caller calls.
var ErrGoexit = errors.New("hooks: callback called runtime.Goexit")

// Error reports a failed callback: it panicked, returned an error, ran
// past its timeout, or called runtime.Goexit. Use [errors.Is] with
// [ErrTimeout] or [ErrGoexit] and [errors.As] with *[PanicError] to tell
// them apart.
type Error struct {
	// Hook is the hook's name.
	Hook string
	// Event is the event whose callback failed.
	Event Event
	// Err is what went wrong.
	Err error
}

func (e *Error) Error() string {
	return "hooks: hook " + strconv.Quote(e.Hook) + " " + e.Event.String() + ": " + e.Err.Error()
}

// Unwrap returns e.Err.
func (e *Error) Unwrap() error { return e.Err }

// reason is the human-readable reason given when the failure blocks a call.
func (e *Error) reason() string {
	var pe *PanicError
	switch {
	case errors.Is(e.Err, ErrGoexit):
		return "hook " + strconv.Quote(e.Hook) + " called runtime.Goexit; call blocked (hooks fail closed)"
	case errors.Is(e.Err, ErrTimeout):
		return "hook " + strconv.Quote(e.Hook) + " " + e.Err.Error() + "; call blocked (hooks fail closed)"
	case errors.As(e.Err, &pe):
		return "hook " + strconv.Quote(e.Hook) + " panicked: " + fmt.Sprint(pe.Value) + "; call blocked (hooks fail closed)"
	}
	return "hook " + strconv.Quote(e.Hook) + " failed: " + e.Err.Error() + "; call blocked (hooks fail closed)"
}

// PanicError is the error of a callback that panicked.
type PanicError struct {
	// Value is the value passed to panic.
	Value any
	// Stack is the goroutine's stack at the panic.
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

type timeoutError struct{ after string }

func (e timeoutError) Error() string { return "timed out after " + e.after }
func (e timeoutError) Is(target error) bool {
	return target == ErrTimeout
}
