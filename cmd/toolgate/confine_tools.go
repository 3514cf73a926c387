package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// toolHomes are the directories under HOME where version managers keep
// the programs a PATH entry below them runs (a pyenv shim runs pyenv's own
// libexec), and what of each such a PATH entry grants, read-only: the
// parts that hold programs, never the whole home of a tool that keeps
// credentials there (~/.cargo/credentials.toml). A part that toolInstalls
// names is granted as its installs.
var toolHomes = map[string][]string{
	".pyenv":   {".pyenv/shims", ".pyenv/versions", ".pyenv/libexec", ".pyenv/plugins", ".pyenv/bin", ".pyenv/version"},
	".nvm":     {".nvm/versions", ".nvm/alias", ".nvm/nvm.sh"},
	".rbenv":   {".rbenv/shims", ".rbenv/versions", ".rbenv/libexec", ".rbenv/plugins", ".rbenv/bin", ".rbenv/version"},
	".goenv":   {".goenv/shims", ".goenv/versions", ".goenv/libexec", ".goenv/plugins", ".goenv/bin", ".goenv/version"},
	".nodenv":  {".nodenv/shims", ".nodenv/versions", ".nodenv/libexec", ".nodenv/plugins", ".nodenv/bin", ".nodenv/version"},
	".cargo":   {".cargo/bin", ".rustup/toolchains", ".rustup/settings.toml", ".rustup/update-hashes"},
	".rustup":  {".rustup/toolchains", ".rustup/settings.toml", ".rustup/update-hashes"},
	".sdkman":  {".sdkman/candidates", ".sdkman/bin", ".sdkman/libexec", ".sdkman/etc", ".sdkman/src"},
	".volta":   {".volta/bin", ".volta/tools/image"},
	".asdf":    {".asdf/shims", ".asdf/installs", ".asdf/plugins", ".asdf/bin", ".asdf/lib", ".asdf/asdf.sh"},
	".bun":     {".bun/bin"},
	".deno":    {".deno/bin"},
	"go":       {"go/bin"},
	".juliaup": {".juliaup/bin"},
}

// toolInstalls are the parts of toolHomes where a version manager puts
// the toolchains it installed, each with the depth of one install below
// it (~/.pyenv/versions/3.12.1 is 1 deep, ~/.nvm/versions/node/v20.1.0
// 2); the part itself is not granted (it can be stat'd, not listed). They hold whole Python, Node, Ruby, Go, Rust and Java
// distributions, with the packages installed into them: 100,000 entries
// and more, many named as secrets are (the test certificates of Python's
// own test suite), which walking per command for secret paths cost a
// confined command 130 ms and 9,000 Landlock rules in a home with nine
// Pythons. So of each install the directories that hold its published
// code (toolInstallCode) are granted whole, as the package caches are
// (runner.Confinement.Packages), and its other entries (a global npmrc
// in etc/, a pip.conf) are walked as the other read-only grants are.
var toolInstalls = map[string]int{
	".pyenv/versions": 1, ".rbenv/versions": 1, ".goenv/versions": 1, ".nodenv/versions": 1,
	".rustup/toolchains": 1, ".nvm/versions": 2, ".asdf/installs": 2, ".sdkman/candidates": 2, ".volta/tools/image": 2,
}

// toolInstallCode are the entries of an install that hold its published
// code: programs, libraries with the packages installed into them,
// headers, data, and a Go distribution's sources and tools. Everything
// else of an install is walked for secrets.
var toolInstallCode = map[string]bool{
	"bin": true, "lib": true, "lib64": true, "libexec": true, "include": true, "share": true, "src": true, "pkg": true, "jmods": true,
}

// pathGrants are the locations the programs on PATH need, read-only: each
// PATH entry itself, and for one beneath a tool home under HOME the parts
// of it toolHomes lists. Nothing else under HOME is granted because PATH
// names it. The code of the toolchains installed under a tool home
// (toolInstalls) is in packages, granted without a walk; a PATH entry
// inside it is not walked either.
func pathGrants(path, home string) (readOnly, packages []string) {
	for dir := range strings.SplitSeq(path, ":") {
		if !filepath.IsAbs(dir) {
			continue // a relative entry names the command's own directory, inside the roots or refused
		}
		dir = filepath.Clean(dir)
		readOnly = append(readOnly, dir)
		if home == "" {
			continue
		}
		if rel, err := filepath.Rel(home, dir); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			top, _, _ := strings.Cut(rel, string(filepath.Separator))
			for _, p := range toolHomes[top] {
				q := filepath.Join(home, p)
				if slices.Contains(readOnly, q) {
					continue
				}
				if depth, ok := toolInstalls[p]; ok {
					ro, pkgs := installGrants(q, q, depth)
					readOnly, packages = append(readOnly, ro...), append(packages, pkgs...)
					continue
				}
				readOnly = append(readOnly, q)
			}
		}
	}
	// A PATH entry within a package grant is granted by it.
	readOnly = slices.DeleteFunc(readOnly, func(p string) bool {
		return slices.ContainsFunc(packages, func(pkg string) bool { return p == pkg || strings.HasPrefix(p, pkg+"/") })
	})
	return readOnly, packages
}

// installGrants grants the installs depth directories below dir, all of
// them within top (a toolInstalls directory): of each install (depth 0),
// its code directories (toolInstallCode) in packages, its other entries
// in readOnly. A symbolic link to a place within top (sdkman's current,
// pyenv's 3.12 for 3.12.1) is granted by what it names; any other entry
// that is not a directory of its own (a file, a link elsewhere) is in
// readOnly, judged as before; a directory that cannot be listed is in
// readOnly whole.
func installGrants(top, dir string, depth int) (readOnly, packages []string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return []string{dir}, nil
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0 && linksWithin(p, top):
		case !e.IsDir():
			readOnly = append(readOnly, p) // os.ReadDir's IsDir is false for a symbolic link
		case depth > 0:
			ro, pkgs := installGrants(top, p, depth-1)
			readOnly, packages = append(readOnly, ro...), append(packages, pkgs...)
		case toolInstallCode[e.Name()]:
			packages = append(packages, p)
		default:
			readOnly = append(readOnly, p)
		}
	}
	return readOnly, packages
}

// linksWithin reports whether the symbolic link at p names, resolved, a
// place within top, resolved.
func linksWithin(p, top string) bool {
	target, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	if t, err := filepath.EvalSymlinks(top); err == nil {
		top = t
	}
	return strings.HasPrefix(target, top+string(filepath.Separator))
}
