// Package codex is toolgate's end-to-end suite against the real Codex CLI,
// version 0.171.0 (the Version constant), installed from npm.
//
// Each scenario runs "codex exec" with toolgate-check installed as its
// hooks the way README says (examples/codex/hooks.json in CODEX_HOME),
// against a scripted Responses API on 127.0.0.1 (a custom model_provider
// with wire_api "responses" and an invented key), inside bubblewrap: /
// read-only, a private /tmp, a throwaway home and workspace as the only
// writable places, no network but the sandbox's own loopback (the
// scripted API runs inside the sandbox too), an unprivileged user, and a
// timeout per run. Codex runs its commands in its own workspace-write
// sandbox inside that one. A scenario asserts what really happened: files
// on disk, and the function_call_output the model received in the next
// API request. PermissionRequest is not reached: codex exec runs with the
// approval policy never, so Codex asks for no approval (the command's
// tests hold toolgate's answer to it).
//
// Run it with
//
//	go test ./e2e/codex
//
// It needs what .ci/setup prepares (the pinned CLI, bubblewrap) and Linux;
// it installs nothing itself: without them it skips, saying to run
// .ci/setup, and fails instead when TOOLGATE_E2E_REQUIRE=1 (as in CI).
// .ci/setup installs Codex CLI into $TOOLGATE_E2E_CACHE (default the user's
// cache directory, toolgate-e2e). TOOLGATE_E2E_KEEP=dir keeps each
// scenario's directory there.
package codex
