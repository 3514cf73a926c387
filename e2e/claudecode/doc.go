// Package claudecode is toolgate's end-to-end suite against the real
// Claude Code CLI, version 2.1.332 (the Version constant), installed from
// npm.
//
// Each scenario runs "claude -p" with toolgate check installed as its
// hooks the way README says, against a scripted Messages API on 127.0.0.1,
// inside bubblewrap: / read-only, a private /tmp, a throwaway home and
// workspace as the only writable places, no network but the sandbox's own
// loopback (the scripted API runs inside the sandbox too, so
// --unshare-net needs no exception), no capabilities, and an unprivileged
// user. A scenario asserts what really happened: files on disk, and the
// tool_result the model received in the next API request.
//
// The suite lives in the library's module so that it builds the very
// toolgate it tests, but in a package of its own so that the library's
// packages stay fast to test; it uses only what go.mod already has. Its MCP
// server, hook helpers and scripted API are the test binary itself, run in
// another role.
//
// Run it with
//
//	go test ./e2e/claudecode
//
// It needs what .ci/setup prepares (the pinned CLI, bubblewrap) and Linux;
// it installs nothing itself: without them it skips, saying to run
// .ci/setup, and fails instead when TOOLGATE_E2E_REQUIRE=1 (as in CI).
// .ci/setup installs Claude Code into $TOOLGATE_E2E_CACHE (default the
// user's cache directory, toolgate-e2e). TOOLGATE_E2E_ONLY=a,b runs only
// the named scenarios; TOOLGATE_E2E_KEEP=dir keeps each scenario's
// directory there.
//
// TestRuleSemantics is the rule-semantics table (rules_test.go): each
// layout of settings runs once through Claude Code without hooks, and each
// row's call is put to toolgate check with the same settings; its layouts
// are the scenarios rules_<layout> for TOOLGATE_E2E_ONLY.
package claudecode
