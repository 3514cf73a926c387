// Package sandbox confines file paths to a set of root directories: the
// fourth layer of toolgate, shared by every tool that reads or writes files
// and by the shell-command guard for redirect targets and path arguments.
//
// It is built so that the ways such checks are usually beaten do not work:
// look-alike prefixes ("/home/u/proj_evil" is not inside "/home/u/proj"),
// symbolic links (a link inside a root that leads outside is outside), and
// the race between a check and a separate open.
//
// # Resolving paths
//
// [New] builds a [Sandbox] from a [Config]; each root is resolved once,
// there, and must exist. [Sandbox.Resolve] then turns a path into its real
// absolute location, or refuses it with a [*PathError] whose kind
// ([ErrOutsideRoots], [ErrInvalidPath], [ErrSymlinkLoop], [ErrHomeRef],
// [ErrUnresolvable]) is tested with [errors.Is]:
//
//	sb, err := sandbox.New(sandbox.Config{Roots: []string{dir}, WorkDir: dir})
//	...
//	real, err := sb.Resolve("src/../notes.txt")
//	if errors.Is(err, sandbox.ErrOutsideRoots) { ... }
//
// Resolution walks the path one component at a time, as the kernel does:
// ".." applies to where the walk really is, so "link/.." is the parent of
// the link's target, not the directory holding the link. Chains of links
// are followed (a loop is an error); a path that does not exist yet is
// resolved through its deepest existing ancestor; a dangling link is judged
// by where its target would be. Magic links such as /proc/self/root,
// /proc/self/cwd, /proc/<pid>/fd/N and /dev/fd/N are read like any link and
// judged by where they lead. Containment compares whole path components.
// Relative paths are taken against [Config.WorkDir], never against the
// process's working directory, and a leading "~" or "~user" is refused.
//
// # Protected and secret paths
//
// Inside the roots some paths deserve a person's confirmation:
// protected paths for writes ([DefaultProtected]: .git/, the agent's own
// settings, editor tasks, CI workflows, shell start-up files, ...) and
// secret paths for reads ([DefaultSecret]: .env but not its templates,
// private keys, cloud and registry credentials, histories, ...).
// [Sandbox.CheckPath] combines containment and these classes into a
// [github.com/toolgate/toolgate/permission.Decision] with a reason: Deny outside the roots, Ask on a
// protected or secret path, Allow otherwise.
//
// The classes hold by identity, not only by name: the protected and
// secret locations under each root and [Config.Home] are resolved (with
// the git directory a ".git" file names and the core.hooksPath
// directories), so that a path reaching one of them through a symbolic
// link or another name is judged as it, and a file with more than one
// hard link is compared by device and inode with the files found. A
// link planted after [New] is seen on the next call: the directories
// inside the roots that name the locations are watched by their change
// time. Where a name cannot tell, the first bytes of the file do (a
// private-key block, a service-account key). [Sandbox.SelectsSecret]
// judges a search's file filter by the secret files it could select.
//
// # Pattern syntax
//
// Protected and secret patterns are "/"-separated components, each matched
// as doublestar matches a component, the glob syntax of the permission
// rules and search filters too ("*", "?", "[...]" with "[!...]" for the
// complement, "{a,b}"; a group may not hold a "/"), with "**" standing
// for any number of components. Case is ignored. A trailing "/" names a directory and
// everything beneath it. A pattern without a leading "/" matches the
// trailing components of a path at any depth (".git/" matches
// /r/.git/config and /r/vendor/x/.git/HEAD; "*.pem" matches /r/a/b.pem); a
// leading "/" anchors it to the whole absolute path, and a leading "~/"
// to [Config.Home]. An entry beginning with "!" is an exception: a path it
// matches is not matched by the list (".env.*" with "!.env.example").
// An entry "dir/!rest" is a lift of the entry "dir/" alone: where "dir/"
// matches a path at some depth, the path is not matched there if rest
// matches what lies beneath that directory (".claude/" with
// ".claude/!worktrees/*/" leaves .claude/worktrees/feat/main.go, while
// .claude/worktrees/feat/.claude/settings.json is still matched, by the
// inner .claude, and .claude/worktrees/feat/.git by ".git/"). A name
// beginning with "!" is written "\!".
//
// # Race-free access
//
// A path that was checked may be swapped for a symbolic link before it is
// opened. [FS], opened with [Sandbox.OpenFS], does the I/O itself through
// one [os.Root] per root, so that no such swap can lead outside: hosts give
// their file tools an FS rather than calling package os. Opened with
// [ReadOutside] (runtime's Pipeline.OpenFS does), its read-only operations
// also read outside the roots what the pipeline's read rule allows there,
// opened without following a link and with the mode bits checked again.
//
// # Globs
//
// [Sandbox.GlobBase] checks a glob pattern's fixed base directory, and
// [FS.Glob] walks it through the root, resolving every match again.
//
// # Platforms
//
// Resolution speaks POSIX paths; on other systems [New] returns an error.
package sandbox
