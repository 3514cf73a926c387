package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/toolgate/toolgate/internal/safefile"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// Where the settings come from, as Claude Code reads them.
//
//	source          where
//	managed         the managed file, then managed-settings.d/*.json beside it, in name order
//	user            $CLAUDE_CONFIG_DIR/settings.json, else ~/.claude/settings.json
//	project, local  <project>/.claude/settings.json and settings.local.json
//	candidates      the same two files of every other directory that may be the project (below): their deny and ask rules, never their rights
//	command line    --settings files
//	environment     AGENT_PERMISSIONS_*
//
// The project is CLAUDE_PROJECT_DIR when it contains the event's cwd.
// When it is missing, the project is found from the cwd as Claude Code
// would have been started there: the directory whose name the event's
// transcript_path encodes (~/.claude/projects/<path with every other
// character than a letter or digit written "-">), else the nearest
// directory at or above the cwd, up to the repository's root, that has
// settings, else the repository's root, else the cwd. When in doubt (no
// transcript match, or a CLAUDE_PROJECT_DIR that does not contain the
// cwd) every other directory from the cwd up to the repository's root
// that has settings is a candidate, and so is a drifted
// CLAUDE_PROJECT_DIR: their files are read as an untrusted workspace's,
// which only narrow.
//
// What toolgate reads from its own environment (HOME, CLAUDE_CONFIG_DIR,
// XDG_STATE_HOME, AGENT_PERMISSIONS_*) is what Claude Code gave its hook,
// and a workspace's settings "env" block sets variables of Claude Code's
// process: so a variable any workspace file sets is not read from the
// environment. HOME is then taken from the user database, and the others
// are taken as unset.

// trustedVars are the variables toolgate reads to find settings, trust
// and state; AGENT_PERMISSIONS_ is a prefix.
var trustedVars = []string{"HOME", "CLAUDE_CONFIG_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "CLAUDE_PROJECT_DIR"}

// maxAncestors bounds the directories looked at above the cwd.
const maxAncestors = 64

// findProject returns the project directory for an event with cwd and
// transcript path, CLAUDE_PROJECT_DIR being envDir (already checked to be
// absolute and a directory, or ""), the other candidates whose deny rules
// apply, and a note for the reason when the project was in doubt.
func findProject(envDir, cwd, transcript, home string) (project string, others []string, note string) {
	cwd = filepath.Clean(cwd)
	if envDir != "" && (cwd == envDir || strings.HasPrefix(cwd, envDir+"/")) {
		return envDir, nil, ""
	}
	ancestors, top := ancestorsOf(cwd, home)
	withSettings := func(d string) bool {
		for _, f := range []string{"settings.json", "settings.local.json"} {
			if fi, err := os.Stat(filepath.Join(d, ".claude", f)); err == nil && fi.Mode().IsRegular() {
				return true
			}
		}
		return false
	}
	var cands []string
	for _, d := range ancestors {
		if withSettings(d) {
			cands = append(cands, d)
		}
	}
	if envDir != "" {
		// Drifted: the project Claude Code names, and every directory that
		// may be the cwd's own project, for their deny rules.
		for _, c := range cands {
			if c != envDir {
				others = append(others, c)
			}
		}
		if len(others) > 0 {
			note = fmt.Sprintf("CLAUDE_PROJECT_DIR %s does not contain the event's cwd %s: the deny and ask rules of %s apply too", envDir, cwd, strings.Join(others, ", "))
		}
		return envDir, others, note
	}
	if name := transcriptProject(transcript); name != "" {
		for _, d := range ancestors {
			if sanitizePath(d) == name {
				return d, nil, ""
			}
		}
	}
	project = cwd
	switch {
	case len(cands) > 0:
		project = cands[0]
	case top != "":
		project = top
	}
	for _, c := range cands {
		if c != project {
			others = append(others, c)
		}
	}
	return project, others, ""
}

// ancestorsOf returns cwd and the directories above it, nearest first,
// up to the repository's root (the first with a .git) and never the home
// directory or above it (whose .claude holds the user's settings); top is
// that repository's root, or "".
func ancestorsOf(cwd, home string) (dirs []string, top string) {
	for d, n := cwd, 0; n < maxAncestors; d, n = filepath.Dir(d), n+1 {
		if home != "" && (d == home || strings.HasPrefix(home, d+"/") || d == "/") {
			break
		}
		dirs = append(dirs, d)
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return dirs, d
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	return dirs, ""
}

// transcriptProject returns the project folder's name a transcript path
// under ~/.claude/projects/ holds, or "".
func transcriptProject(p string) string {
	if p == "" || !filepath.IsAbs(p) {
		return ""
	}
	dir := filepath.Dir(p)
	if filepath.Base(filepath.Dir(dir)) != "projects" {
		return ""
	}
	return filepath.Base(dir)
}

// sanitizePath writes a directory as Claude Code names its folder under
// ~/.claude/projects: every byte other than an ASCII letter or digit
// becomes "-".
func sanitizePath(d string) string {
	b := []byte(d)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// managedDropIns returns the managed-settings.d/*.json files beside the
// managed file, in name order, as Claude Code merges them.
func managedDropIns(managed string) []string {
	if managed == "" {
		return nil
	}
	dir := filepath.Join(filepath.Dir(managed), "managed-settings.d")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".json") && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out
}

// workspaceEnv returns the variables toolgate trusts that any settings
// file of the workspace (the project's and the candidates') sets in its
// "env" block.
func workspaceEnv(dirs []string) map[string]bool {
	set := map[string]bool{}
	for _, d := range dirs {
		for _, f := range []string{"settings.json", "settings.local.json"} {
			data, err := safefile.Read(filepath.Join(d, ".claude", f), 1<<20)
			if err != nil {
				continue
			}
			var top map[string]json.RawMessage
			if json.Unmarshal(data, &top) != nil {
				continue
			}
			var env map[string]json.RawMessage
			if json.Unmarshal(top["env"], &env) != nil {
				continue
			}
			for k := range env {
				if slices.Contains(trustedVars, k) || strings.HasPrefix(k, "AGENT_PERMISSIONS_") {
					set[k] = true
				}
			}
		}
	}
	return set
}

// distrustEnv returns getenv without the variables set (a workspace's
// "env" block set them), and the home directory to use: HOME, or the user
// database's when the workspace set HOME. A note says what was set aside.
func distrustEnv(getenv func(string) string, set map[string]bool) (func(string) string, string, string) {
	home := getenv("HOME")
	if len(set) == 0 {
		return getenv, home, ""
	}
	names := make([]string, 0, len(set))
	for k := range set {
		names = append(names, k)
	}
	sort.Strings(names)
	if set["HOME"] {
		home = userHome()
	}
	anyPerm := false
	for k := range set {
		anyPerm = anyPerm || strings.HasPrefix(k, "AGENT_PERMISSIONS_")
	}
	wrapped := func(k string) string {
		if set[k] || anyPerm && strings.HasPrefix(k, "AGENT_PERMISSIONS_") {
			return ""
		}
		if k == "HOME" {
			return home
		}
		return getenv(k)
	}
	return wrapped, home, "the workspace's settings set " + strings.Join(names, ", ") + " in their env block: toolgate does not read them from its environment"
}

// userConfigDir is where Claude Code keeps the user's settings:
// $CLAUDE_CONFIG_DIR, else ~/.claude; "" when neither can be told.
func userConfigDir(home string, getenv func(string) string) string {
	if getenv != nil {
		if d := getenv("CLAUDE_CONFIG_DIR"); d != "" && filepath.IsAbs(d) {
			return filepath.Clean(d)
		}
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".claude")
}

// candidateSettings are the settings files of the candidates, read as an
// untrusted workspace's (so only their deny and ask rules, narrower
// modes and narrowing options count).
func candidateSettings(dirs []string) []fileRef {
	var out []fileRef
	for _, d := range dirs {
		out = append(out,
			fileRef{filepath.Join(d, ".claude", "settings.json"), permission.ScopeProject, false, true},
			fileRef{filepath.Join(d, ".claude", "settings.local.json"), permission.ScopeLocal, false, true})
	}
	return out
}

// sandboxConfig is the sandbox of p's pipeline: its roots, the event's
// cwd, the home directory, and the default lists with the user's
// configuration directory (CLAUDE_CONFIG_DIR, when it lies elsewhere than
// ~/.claude) and toolgate's own state directory (its hook snapshots)
// protected, and the configuration directory's .credentials.json secret.
func (p *policy) sandboxConfig() sandbox.Config {
	prot, sec := sandbox.DefaultProtected(), sandbox.DefaultSecret()
	for _, d := range []string{userConfigDir(p.src.home, p.src.getenv), p.src.stateDir} {
		if d != "" && filepath.IsAbs(d) && !strings.ContainsAny(d, `*?[\`) {
			prot = append(prot, filepath.Clean(d)+"/")
		}
	}
	if d := userConfigDir(p.src.home, p.src.getenv); d != "" && filepath.IsAbs(d) && !strings.ContainsAny(d, `*?[\`) {
		sec = append(sec, filepath.Join(d, ".credentials.json"))
	}
	// $XDG_CONFIG_HOME, where it is not ~/.config, holds what the lists
	// name under ~/.config (git's config, systemd user units, ...).
	if p.src.getenv != nil {
		if x := filepath.Clean(p.src.getenv("XDG_CONFIG_HOME")); filepath.IsAbs(x) && !strings.ContainsAny(x, `*?[\`) &&
			(p.src.home == "" || x != filepath.Join(p.src.home, ".config")) {
			prot, sec = withConfigHome(prot, x), withConfigHome(sec, x)
		}
	}
	return sandbox.Config{Roots: p.roots, WorkDir: p.src.cwd, Home: p.src.home, Protected: prot, Secret: sec}
}

// withConfigHome adds, for every entry of list under .config/ (or
// ~/.config/), the same entry under the configuration directory x.
func withConfigHome(list []string, x string) []string {
	out := list
	for _, e := range list {
		rest, ok := strings.CutPrefix(strings.TrimPrefix(e, "~/"), ".config/")
		if ok && !strings.HasPrefix(e, "!") {
			out = append(out, x+"/"+rest)
		}
	}
	return out
}

// eventSource is where the settings of one hook event are read: the
// project found for its cwd, the candidates, and the environment without
// what a workspace's "env" block set.
func eventSource(ev event, getenv func(string) string, managed string, extra []string) source {
	envDir, warn := projectFrom(getenv)
	home := getenv("HOME")
	var project, note string
	var others []string
	if filepath.IsAbs(ev.Cwd) {
		project, others, note = findProject(envDir, ev.Cwd, ev.TranscriptPath, home)
	}
	set := workspaceEnv(append([]string{project}, others...))
	getenv, home, envNote := distrustEnv(getenv, set)
	if set["CLAUDE_PROJECT_DIR"] || set["HOME"] {
		if set["CLAUDE_PROJECT_DIR"] {
			envDir = ""
		}
		if filepath.IsAbs(ev.Cwd) {
			project, others, note = findProject(envDir, ev.Cwd, ev.TranscriptPath, home)
		}
	}
	src := source{cwd: ev.Cwd, project: project, others: others, home: home, managed: managed, extra: extra, getenv: getenv,
		session: ev.SessionID, stateDir: defaultStateDir(home, getenv)}
	for _, n := range []string{warn, note, envNote} {
		if n != "" {
			src.notes = append(src.notes, n)
		}
	}
	return src
}
