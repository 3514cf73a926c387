// Package approval is how toolgate asks a person to approve one tool call:
// the [Request] a pipeline sends, the [Answer] that comes back, and the
// [Asker] that carries one to the other.
//
// An Asker is whatever the host has: [TerminalAsker] for a command line,
// [ChanAsker] to park requests by id for an HTTP or SSE front end,
// [StoreAsker] to record them in an approval store that any replica's
// approval page can answer, or an [AskerFunc].
//
// [AskWithTimeout] bounds the wait and fails closed: no asker, an error, a
// panic, an expired wait or an unknown choice is a Deny whose reason says
// so. The zero [Answer] and the zero [Choice] are a Deny.
//
// A pipeline (package runtime) builds the Request, asks through
// AskWithTimeout and applies the answer; an [AllowAlways] answer records
// the exact per-command rules of [permission.AllowAlwaysRules]. Asks the
// host answers later, by ticket, stay on the pipeline (Pipeline.Resume).
package approval
