package sandbox

// Config describes a sandbox. The zero value is valid and fails closed: with
// no roots every path is outside, and with no working directory every
// relative path is invalid.
type Config struct {
	// Roots are the directories inside which paths are allowed (for an
	// agent: its working directory, library and skills directories, and any
	// additional directories from the settings). Each must exist and be a
	// directory; [New] resolves each one, symbolic links included, once.
	// A relative root is taken against WorkDir.
	Roots []string

	// WorkDir is the directory relative paths resolve against; the
	// process's own working directory is never used. It must be absolute
	// and exist. It is not a root by itself: list it in Roots as well to
	// allow paths beneath it. Empty means relative paths are invalid.
	WorkDir string

	// Protected lists the patterns of paths inside the roots that a write
	// never auto-allows (see [Pattern syntax] in the package
	// documentation). Nil means [DefaultProtected]; an empty, non-nil slice
	// protects nothing. An entry beginning with "!" is an exception: a
	// path it matches is not protected by the list; an entry "dir/!rest"
	// lifts the entry "dir/" alone from the paths beneath it that rest
	// matches.
	Protected []string

	// Secret lists the patterns of paths inside the roots that a read does
	// not auto-allow. Nil means [DefaultSecret]; an empty, non-nil slice
	// marks nothing secret. An entry beginning with "!" is an exception,
	// as in Protected.
	Secret []string

	// Home is the user's home directory, or empty. Patterns beginning
	// with "~/" are anchored to it, and the start-up and credential files
	// beneath it are protected by identity: a file of the roots that one
	// of them is (through a symbolic link, a second name or a hard link)
	// is judged as that file, whether or not Home is among the roots.
	// It must be absolute.
	Home string

	// FactsFile, when set, is a file in which the sandbox keeps what it
	// found of the protected and secret locations (a walk of the roots)
	// between processes: a host that runs once per call, as a hook does,
	// then revalidates the last search with a stat of each directory it
	// read instead of walking the roots again. It must be absolute and lie
	// where the agent cannot write: a file that is a link, is not owned by
	// this user, or that anyone else may write (or whose directory anyone
	// else may write) is ignored. Empty keeps the search in memory only.
	FactsFile string

	// StateDirs are directories where the host keeps files of its own
	// beside FactsFile (a hook's session snapshots), often protected ones.
	// The search still lists them for the identities of their files, but a
	// file the host adds there since does not call for a new search, as a
	// facts file written into its own directory does not: the agent cannot
	// write there, and a name linked to such a file later is caught by the
	// change time the link gives it (the judge searches again before
	// judging a file with a second name younger than the search). Each
	// must be absolute; one inside the roots is not taken, since the
	// agent may change what is there.
	StateDirs []string
}
