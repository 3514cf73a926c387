package bashguard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A tool's own configuration in the workspace can make it run programs:
// yt-dlp reads the yt-dlp.conf of the working directory as options
// (--exec), Mercurial the .hg/hgrc of the repository around it, whose
// hooks run before and after any command, whose extensions load code,
// and whose aliases run shell commands. netTool.runsConf names the
// files; a line of the tool asks, past any allow rule, when one is there
// (runs nil) or says what runs.

// confFile is a configuration file a tool reads from the workspace.
type confFile struct {
	name string // the file, relative to the directory below
	// up, when set, is an entry the tool looks for in the working
	// directory and each one above it: the file is in the first that
	// holds it (Mercurial's .hg). Without it, the working directory.
	up string
	// runs reads the file's text and says how it runs a program, or
	// "" for none; nil: being there is enough.
	runs func(text string) string
}

// maxConfFile bounds the configuration file read: one larger asks.
const maxConfFile = 256 << 10

// confRuns says why the configuration file f of the working directory
// can make its tool run a program, or "" where it cannot (or is not
// there). What it reads is kept on the workspace cache, stamped by the
// file.
func (m *cmdCall) confRuns(f confFile) string {
	if m.dir == "" {
		return ""
	}
	dir := filepath.Clean(m.dir)
	if f.up != "" {
		if dir = m.ws.nearest(dir, f.up); dir == "" {
			return ""
		}
	}
	p := filepath.Join(dir, f.name)
	if f.runs == nil {
		if m.ws.lexists(p) {
			return "is there: configuration, or another's named, that can run programs"
		}
		return ""
	}
	return m.ws.get(factKey{kind: "conf", a: p}, func(r *stampRec) any {
		text, err := r.readSmall(p, maxConfFile)
		switch {
		case os.IsNotExist(err):
			return ""
		case err != nil:
			return "cannot be read here (" + err.Error() + "), and may run programs"
		}
		return f.runs(text)
	}).(string)
}

// hgrcHarmless are the sections of a Mercurial config whose keys run no
// program, each with the keys that do not where only some do (nil: any
// key). Hooks, extensions, aliases, merge tools, pagers, editors, the
// ssh command and %include are not here (hg help config).
var hgrcHarmless = map[string][]string{
	"paths": nil, "phases": nil, "color": nil, "templates": nil, "templatealias": nil, "revsetalias": nil,
	"format": nil, "diff": nil, "annotate": nil, "progress": nil, "web": nil, "storage": nil, "subpaths": nil,
	"ui": {"username", "verbose", "quiet", "debug", "traceback", "color", "paginate", "tweakdefaults", "relative-paths",
		"logtemplate", "style", "report_untrusted", "interactive", "askusername", "statuscopies", "mergemarkers",
		"portablefilenames", "slash", "timeout", "textwidth"},
}

// hgrcRuns says which key of the Mercurial config text can run a
// program (hgrcHarmless), or "" for none.
func hgrcRuns(text string) string {
	section := ""
	for line := range strings.Lines(text) {
		t := strings.TrimSpace(line)
		switch {
		case t == "" || t[0] == '#' || t[0] == ';':
			continue
		case t[0] == '%':
			return "has " + strings.Fields(t)[0] + ", which reads or changes configuration not read here"
		case t[0] == '[':
			section = strings.TrimSpace(strings.Trim(t, "[]"))
			continue
		case line[0] == ' ' || line[0] == '\t':
			continue // the value of the key above, on more lines
		}
		key, _, _ := strings.Cut(t, "=")
		key = strings.TrimSpace(key)
		keys, known := hgrcHarmless[section]
		if !known || keys != nil && !slices.Contains(keys, key) {
			return "sets " + section + "." + key + ", which can run programs"
		}
	}
	return ""
}
