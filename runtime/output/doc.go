// Package output shapes a tool's output for the model: a [Shaper] cuts a
// long result to its head and tail around a marker that says how much was
// left out ([Truncate]), and writes a very long one in full to a file the
// model can read later, through an [FS] such as *os.Root, so no write
// leaves the root it was given.
//
// Package runtime's Pipeline.After shapes every result with the Shaper of
// its Config.Output, after the PostToolUse hooks; a host that runs its
// tools another way may use a Shaper on its own.
package output
