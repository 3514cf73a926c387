// Package hookstest helps test hooks written for package hooks, as
// net/http/httptest helps test handlers and testing/slogtest checks
// handlers:
//
//   - event builders ([PreToolUse], [PostToolUse], [SessionStart], …) fill
//     every field with plausible values, so a test states only what matters;
//   - a [Recorder] is a hook that records every event it sees;
//   - [Run] is a conformance suite any [hooks.Hook] should pass: it answers
//     within its timeout, is safe for concurrent calls, does not change the
//     input it was given, and honours a cancelled context.
//
// A typical test:
//
//	func TestMyHook(t *testing.T) {
//		hookstest.Run(t, myHook())
//		s := hooks.NewSet(myHook())
//		defer s.Close()
//		o := s.PreToolUse(t.Context(), hookstest.PreToolUse("Bash", `{"command":"rm -rf /"}`))
//		if o.Decision != permission.Deny { … }
//	}
//
// Run the suite under the race detector (go test -race): that is how it
// finds data races in concurrent calls.
package hookstest
