package bashguard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Commands other than find print lists of paths too, and their output
// feeds xargs and loops as find's does: git ls-files, git grep -l, git
// diff --name-only, rg -l and rg --files, grep -rl, fd and ls. Each is
// modelled by what it can print, a set of paths below its starting
// points, and that set is walked and judged as find's is (findexec.go):
//
//   - git ls-files, git grep -l and git diff --name-only print names the
//     repository holds (in its index, its commits or its work tree),
//     relative to the working directory or to the repository's top
//     level. Without ".." or a magic pathspec they never lead above the
//     working directory, and they never pass through an entry named
//     .git, so every file a consumer may open with one of them is an
//     entry below the working directory, outside .git directories: the
//     walk covers that tree, following links to directories (an old name
//     may pass through what is a link today). A name that git would
//     quote (control characters, bytes above 0x7e, '"', '\') is asked:
//     git prints another text for it.
//   - rg and fd skip names that start with "." unless told otherwise
//     (--hidden, -uu); grep -r lists everything; ls lists the entries of
//     the working directory, without those that start with "." unless
//     -A. The other filters (patterns, types, ignore files) only narrow
//     what they print, and are not relied upon: every entry counts.
//   - Below ".", names are printed without "./", so one that starts with
//     "-" would be read as an option: it is asked.
//
// Only options known to keep the output plain names qualify: git
// ls-files -s/--stage/-t/--format, rg and grep without -l (which print
// "file:line"), ls -l/-F/--quoting-style, fd -l/--format, and fd -x/-X
// (which run a command themselves) are not listings, and what reads them
// stays asked. The command itself is judged as it stands, elsewhere.

// lister returns what the simple command of s prints, when it is one of
// the listing commands above with words known before run time, and nil
// otherwise. find is not among them: it records its own (scanFind).
func (a *analyzer) lister(s *syntax.Stmt) *findInfo {
	args, ok := a.listerArgs(s)
	if !ok {
		return nil
	}
	var fi *findInfo
	switch args[0] {
	case "git":
		fi = a.gitLister(args[1:])
	case "rg":
		fi = rgLister(args[1:])
	case "grep":
		fi = grepLister(args[1:])
	case "fd", "fdfind":
		fi = fdLister(args[1:])
	case "ls":
		fi = lsLister(args[1:])
	}
	if fi == nil {
		return nil
	}
	fi.paths = true
	if len(fi.starts) == 0 {
		fi.starts, fi.bare = []string{"."}, true
	}
	return fi
}

// listerArgs gives the words of the simple command of s when each is
// known before run time, free of globs, braces and tildes bash expands, and
// the command is not a shell function.
func (a *analyzer) listerArgs(s *syntax.Stmt) ([]string, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || s.Negated || s.Background || s.Coprocess || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return nil, false
	}
	args := make([]string, 0, len(ce.Args))
	for _, w := range ce.Args {
		for k, p := range w.Parts {
			if l, ok := p.(*syntax.Lit); ok && (strings.ContainsAny(l.Value, "*?[{") ||
				k == 0 && strings.HasPrefix(l.Value, "~") || strings.Contains(l.Value, "=~") || strings.Contains(l.Value, ":~")) {
				return nil, false
			}
		}
		t, ok := literalText(w)
		if !ok {
			return nil, false
		}
		args = append(args, t)
	}
	if _, shadowed := a.funcs[args[0]]; shadowed {
		return nil, false
	}
	return args, true
}

// newListing is the listing of a command other than find.
func newListing(who string) *findInfo {
	return &findInfo{who: who, filter: findFilter{maxDepth: -1}, linkStart: true}
}

// optWords walks the options of a listing command: short clusters whose
// letters are in flags, or one letter of vals (which takes the rest of
// the word or the next one), and long options that fn accepts (it is
// given the name, and reports whether the option takes a value and
// whether it is known). It returns the operands, or false at an option
// it does not know.
func optWords(args []string, flags, vals string, short func(ch byte, val string), long func(name, val string, has bool) (takes, ok bool)) ([]string, bool) {
	var ops []string
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "--":
			return append(ops, args[i+1:]...), true
		case strings.HasPrefix(s, "--"):
			name, val, has := strings.Cut(s, "=")
			takes, ok := long(name, val, has)
			if !ok {
				return nil, false
			}
			if takes && !has {
				if i++; i >= len(args) {
					return nil, false
				}
				if _, ok := long(name, args[i], true); !ok {
					return nil, false
				}
			}
		case len(s) > 1 && s[0] == '-':
			for j := 1; j < len(s); j++ {
				ch := s[j]
				if strings.IndexByte(vals, ch) >= 0 {
					val := s[j+1:]
					if val == "" {
						if i++; i >= len(args) {
							return nil, false
						}
						val = args[i]
					}
					short(ch, val)
					break
				}
				if strings.IndexByte(flags, ch) < 0 {
					return nil, false
				}
				short(ch, "")
			}
		default:
			ops = append(ops, s)
		}
	}
	return ops, true
}

// inside reports a relative path that stays below the directory it is
// taken from: not absolute, no ".." component, no tilde.
func inside(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.HasPrefix(p, "~") {
		return false
	}
	for _, e := range strings.Split(p, "/") {
		if e == ".." {
			return false
		}
	}
	return true
}

// gitLister models git ls-files, git grep -l and git diff --name-only.
func (a *analyzer) gitLister(args []string) *findInfo {
	if len(args) > 0 && args[0] == "--no-pager" {
		args = args[1:]
	}
	if len(args) == 0 || a.dir == "" || !filepath.IsAbs(a.dir) {
		return nil
	}
	top, why := a.repoTop()
	if top == "" || why != "" {
		return nil // outside a repository git diff compares any two paths
	}
	fi := newListing("git " + args[0])
	fi.noGit, fi.follow, fi.quoted = true, true, true
	var ops []string
	ok := false
	switch args[0] {
	case "ls-files":
		ops, ok = optWords(args[1:], "cdmoikz", "xX", func(ch byte, _ string) {
			fi.print0 = fi.print0 || ch == 'z'
		}, func(name, _ string, _ bool) (bool, bool) {
			switch name {
			case "--cached", "--deleted", "--modified", "--others", "--ignored", "--killed", "--directory",
				"--no-empty-directory", "--exclude-standard", "--full-name", "--deduplicate", "--error-unmatch",
				"--recurse-submodules", "--sparse":
				return false, true
			case "--exclude", "--exclude-from", "--exclude-per-directory":
				return true, true
			}
			return false, false
		})
		for _, p := range ops {
			ok = ok && inside(p) && !strings.HasPrefix(p, ":")
		}
		if !slices.ContainsFunc(args[1:], lsFilesBeyondIndex) {
			// It prints the index's entries: an untracked .env is not
			// among them.
			fi.index, fi.indexTop = a.trackedScope()
		}
	case "grep":
		names, pattern := false, false
		ops, ok = optWords(args[1:], "ilLwvEFGPzIar", "efm", func(ch byte, _ string) {
			switch ch {
			case 'l', 'L':
				names = true
			case 'z':
				fi.print0 = true
			case 'e', 'f':
				pattern = true
			}
		}, func(name, _ string, _ bool) (bool, bool) {
			switch name {
			case "--files-with-matches", "--files-without-match", "--name-only":
				names = true
				return false, true
			case "--null":
				fi.print0 = true
				return false, true
			case "--ignore-case", "--word-regexp", "--invert-match", "--extended-regexp", "--fixed-strings",
				"--basic-regexp", "--perl-regexp", "--text", "--cached", "--untracked", "--full-name", "--recursive",
				"--no-recursive", "--all-match", "--and", "--or", "--not", "--exclude-standard", "--no-exclude-standard":
				return false, true
			case "--regexp", "--file":
				pattern = true
				return true, true
			case "--max-depth", "--max-count", "--threads":
				return true, true
			}
			return false, false
		})
		ok = ok && names
		if !slices.ContainsFunc(args[1:], func(o string) bool {
			return slices.ContainsFunc([]string{"--untracked", "--no-index", "--recurse-submodules"},
				func(full string) bool { return o == full || len(o) > 4 && strings.HasPrefix(full, o) })
		}) {
			fi.index, fi.indexTop = a.trackedScope() // the tracked files only, as git grep searches
		}
		if ok && !pattern {
			if len(ops) == 0 {
				return nil
			}
			ops = ops[1:]
		}
		// A word after the pattern may be a revision, whose matches git
		// prints as "REV:path": only existing paths qualify (a word that
		// is both is refused by git).
		for _, p := range ops {
			_, err := os.Lstat(filepath.Join(a.dir, p))
			ok = ok && err == nil && inside(p) && !strings.HasPrefix(p, ":")
		}
	case "diff":
		names := false
		ops, ok = optWords(args[1:], "zRaMCB", "", func(ch byte, _ string) {
			fi.print0 = fi.print0 || ch == 'z'
		}, func(name, _ string, has bool) (bool, bool) {
			switch name {
			case "--name-only":
				names = true
				return false, true
			case "--cached", "--staged", "--no-renames", "--no-ext-diff", "--no-color", "--text", "--merge-base",
				"--relative", "--no-relative", "--diff-filter", "--find-renames", "--find-copies", "--ignore-submodules",
				"--minimal", "--patience", "--histogram", "--ignore-all-space", "--ignore-space-change",
				"--ignore-blank-lines", "--ignore-cr-at-eol", "--ignore-space-at-eol":
				return false, true
			}
			return false, false
		})
		ok = ok && names
		// A path outside the work tree makes git diff compare files
		// (--no-index), printing their names as given.
		for _, p := range ops {
			ok = ok && inside(p) && !strings.Contains(p, ":")
			if real, err := filepath.EvalSymlinks(filepath.Join(a.dir, p)); err == nil {
				ok = ok && (real == top || strings.HasPrefix(real, strings.TrimSuffix(top, "/")+"/"))
			}
		}
	}
	if !ok {
		return nil
	}
	fi.quoted = !fi.print0
	return fi
}

// rgLister models rg -l, rg --files-without-match and rg --files.
func rgLister(args []string) *findInfo {
	fi := newListing("rg")
	names, files, pattern, unrestricted, hidden := false, false, false, 0, false
	ops, ok := optWords(args, "iSswxFv.uL0lUPHa", "jmdtTgef", func(ch byte, _ string) {
		switch ch {
		case 'l':
			names = true
		case '.':
			hidden = true
		case 'u':
			unrestricted++
		case 'L':
			fi.follow = true
		case '0':
			fi.print0 = true
		case 'e', 'f':
			pattern = true
		}
	}, func(name, val string, has bool) (bool, bool) {
		switch name {
		case "--files-with-matches", "--files-without-match":
			names = true
		case "--files":
			files = true
		case "--hidden":
			hidden = true
		case "--unrestricted":
			unrestricted++
		case "--follow":
			fi.follow = true
		case "--null":
			fi.print0 = true
		case "--regexp", "--file":
			pattern = true
			return true, true
		case "--max-depth", "--type", "--type-not", "--glob", "--iglob", "--max-count", "--threads", "--sort",
			"--sortr", "--max-filesize", "--ignore-file", "--type-add":
			return true, true
		case "--color":
			return true, !has || val == "never"
		case "--ignore-case", "--smart-case", "--case-sensitive", "--word-regexp", "--line-regexp", "--fixed-strings",
			"--invert-match", "--multiline", "--pcre2", "--text", "--no-ignore", "--no-ignore-vcs", "--no-ignore-dot",
			"--no-ignore-parent", "--no-ignore-global", "--no-ignore-exclude", "--no-messages", "--no-config",
			"--one-file-system", "--no-require-git", "--binary", "--with-filename":
		default:
			return false, false
		}
		return false, true
	})
	if !ok || names == files {
		return nil
	}
	if names && !pattern {
		if len(ops) == 0 {
			return nil
		}
		ops = ops[1:]
	}
	fi.noHidden = !hidden && unrestricted < 2
	fi.starts = ops
	return fi
}

// grepLister models grep -rl and grep -rL.
func grepLister(args []string) *findInfo {
	fi := newListing("grep")
	names, recursive, pattern := false, false, false
	ops, ok := optWords(args, "rRlLiywxFEGPvsIaZH", "efm", func(ch byte, _ string) {
		switch ch {
		case 'r':
			recursive = true
		case 'R':
			recursive, fi.follow = true, true
		case 'l', 'L':
			names = true
		case 'Z':
			fi.print0 = true
		case 'e', 'f':
			pattern = true
		}
	}, func(name, val string, has bool) (bool, bool) {
		switch name {
		case "--recursive":
			recursive = true
		case "--dereference-recursive":
			recursive, fi.follow = true, true
		case "--files-with-matches", "--files-without-match":
			names = true
		case "--null":
			fi.print0 = true
		case "--regexp", "--file":
			pattern = true
			return true, true
		case "--include", "--exclude", "--exclude-dir", "--exclude-from", "--max-count", "--binary-files":
			return true, true
		case "--color", "--colour":
			return true, !has || val == "never"
		case "--ignore-case", "--no-ignore-case", "--word-regexp", "--line-regexp", "--fixed-strings", "--extended-regexp",
			"--basic-regexp", "--perl-regexp", "--invert-match", "--no-messages", "--text", "--with-filename":
		default:
			return false, false
		}
		return false, true
	})
	if !ok || !names || !recursive {
		return nil
	}
	if !pattern {
		if len(ops) == 0 {
			return nil
		}
		ops = ops[1:]
	}
	fi.starts = ops
	return fi
}

// fdLister models fd and fdfind without -x, -X, -l or --format.
func fdLister(args []string) *findInfo {
	fi := newListing("fd")
	hidden := false
	var search []string
	ops, ok := optWords(args, "HIusigFLpa01", "dEteSoj", func(ch byte, _ string) {
		switch ch {
		case 'H', 'u':
			hidden = true
		case 'L':
			fi.follow = true
		case '0':
			fi.print0 = true
		}
	}, func(name, val string, has bool) (bool, bool) {
		switch name {
		case "--hidden", "--unrestricted":
			hidden = true
		case "--follow":
			fi.follow = true
		case "--print0":
			fi.print0 = true
		case "--search-path":
			if has {
				search = append(search, val)
			}
			return true, true
		case "--max-depth", "--min-depth", "--exact-depth", "--type", "--extension", "--exclude", "--size",
			"--changed-within", "--changed-before", "--owner", "--max-results", "--ignore-file", "--threads":
			return true, true
		case "--color":
			return true, !has || val == "never" || val == "auto"
		case "--no-ignore", "--no-ignore-vcs", "--no-ignore-parent", "--case-sensitive", "--ignore-case", "--glob",
			"--regex", "--fixed-strings", "--absolute-path", "--full-path", "--prune", "--show-errors",
			"--one-file-system", "--strip-cwd-prefix":
		default:
			return false, false
		}
		return false, true
	})
	if !ok {
		return nil
	}
	if len(ops) > 0 {
		ops = ops[1:] // the pattern
	}
	fi.starts = append(ops, search...)
	fi.noHidden = !hidden
	return fi
}

// lsLister models ls of the working directory, one name a line.
func lsLister(args []string) *findInfo {
	fi := newListing("ls")
	fi.noHidden, fi.filter.maxDepth = true, 1
	ops, ok := optWords(args, "1ArtSUXvcu", "", func(ch byte, _ string) {
		if ch == 'A' {
			fi.noHidden = false
		}
	}, func(name, val string, has bool) (bool, bool) {
		switch name {
		case "--almost-all":
			fi.noHidden = false
		case "--reverse", "--group-directories-first":
		case "--color":
			return false, has && val == "never"
		case "--sort":
			return true, val != "" && strings.Contains("none size time version extension name width", val)
		default:
			return false, false
		}
		return false, true
	})
	if !ok || len(ops) > 1 || len(ops) == 1 && ops[0] != "." {
		return nil
	}
	return fi
}

// gitNamesOnly reports a git ls-files (the subcommand at i) that prints
// names only, with options and pathspecs gitLister takes: it reads no
// file, so its pathspecs are probes, and a pattern that matches a secret
// file only prints its name.
func (a *analyzer) gitNamesOnly(v *argv, i int) bool {
	for k := i; k < v.len(); k++ {
		if !v.literal(k) || v.flags[k]&wGlob != 0 {
			return false
		}
	}
	return a.gitLister(v.vals[i:]) != nil
}

// lsFilesBeyondIndex reports an option of git ls-files that prints names
// the index does not track: untracked (-o), ignored (-i), killed (-k)
// files, directories, or the entries of submodules.
func lsFilesBeyondIndex(o string) bool {
	if strings.HasPrefix(o, "-") && !strings.HasPrefix(o, "--") {
		return strings.ContainsAny(o[1:], "oik")
	}
	return slices.ContainsFunc([]string{"--others", "--ignored", "--killed", "--directory", "--recurse-submodules"},
		func(full string) bool { return o == full || len(o) > 2 && strings.HasPrefix(full, o) })
}
