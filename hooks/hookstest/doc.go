// Package hookstest helps test hooks written for package hooks, as
// net/http/httptest helps test handlers and testing/slogtest checks
// handlers:
//
//   - event builders ([PreToolUse], [PostToolUse], [SessionStart], …) fill
//     every field with plausible values, so a test states only what matters;
//   - a [Recorder] is a hook that records every event it sees;
//   - [Run] is a conformance suite any [hooks.Hook] should pass: it answers
//     within its timeout, is safe for concurrent calls, does not change the
//     input it was given, honours a cancelled context, and keeps the
//     contract of what its answers mean (a Block carries a reason,
//     MutateInput gives a JSON object, answers are deterministic, a denied
//     call gets no made-up output);
//   - [TestHook] checks the same without a testing framework and returns
//     the violations as an error, as testing/slogtest.TestHandler does.
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
