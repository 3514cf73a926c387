// Package browser tests the approval page in a real headless Chromium. It
// is a module of its own so that chromedp stays out of the library's
// go.mod; .ci/run runs it, with the Chromium .ci/setup installs.
package browser
