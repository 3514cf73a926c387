// Package gemini is toolgate's end-to-end suite against the real Gemini
// CLI, version 0.61.0 (the Version constant), installed from npm.
//
// Each scenario runs "gemini -p --yolo" with toolgate-check installed as
// its BeforeTool and AfterTool hooks the way README says, against a
// scripted Gemini API (streamGenerateContent) on 127.0.0.1 that Gemini
// reaches through GOOGLE_GEMINI_BASE_URL, with an invented API key, inside
// bubblewrap: / read-only, a private /tmp, a throwaway home and workspace
// as the only writable places, no network but the sandbox's own loopback
// (the scripted API runs inside the sandbox too), and an unprivileged
// user. A scenario asserts what really happened: files on disk, and the
// functionResponse the model received in the next API request.
//
// Run it with
//
//	go test ./e2e/gemini
//
// It needs what .ci/setup prepares (the pinned CLI, bubblewrap) and Linux;
// it installs nothing itself: without them it skips, saying to run
// .ci/setup, and fails instead when TOOLGATE_E2E_REQUIRE=1 (as in CI).
// .ci/setup installs Gemini CLI into $TOOLGATE_E2E_CACHE (default the
// user's cache directory, toolgate-e2e). TOOLGATE_E2E_KEEP=dir keeps each
// scenario's directory there.
package gemini
