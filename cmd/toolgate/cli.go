package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// The conventions every subcommand keeps: -h and --help print its usage on
// standard output and exit 0 (the hook path never passes them), a bad
// command line exits 2 with the usage on standard error.

// synopses are the subcommands' usage lines.
var synopses = map[string]string{
	"check":        "toolgate check [--settings FILE]... [--managed FILE] [--state-dir DIR] < event.json",
	"explain":      "toolgate explain [--settings FILE]... [--managed FILE] [--cwd DIR] [--mode MODE] [--json] [--exit-code] TOOL 'JSON input'",
	"lint":         "toolgate lint [--settings FILE]... [--managed FILE] [--cwd DIR]",
	"import":       "toolgate import codex|gemini FILE...   (another agent's policy files as toolgate rules: a settings fragment on stdout, warnings on stderr)",
	"exec":         "toolgate exec --policy P --script S   (the confining launcher toolgate check's answers run)",
	"shell-prefix": "toolgate shell-prefix SCRIPT   (as CLAUDE_CODE_SHELL_PREFIX, through a link named toolgate-shell-prefix: runs Claude Code's script as toolgate check decided)",
	"version":      "toolgate version",
	"warm":         "toolgate warm DIR KEY   (the warm process toolgate-check starts and calls; not for people)",
}

// helpRequested reports whether err is fs's answer to -h or --help; then
// it has printed the subcommand's usage and options on standard output.
func helpRequested(fs *flag.FlagSet, err error, e env) bool {
	if !errors.Is(err, flag.ErrHelp) {
		return false
	}
	fmt.Fprintf(e.stdout, "usage: %s\n", synopses[fs.Name()])
	fs.SetOutput(e.stdout)
	fs.PrintDefaults()
	return true
}

// wantsHelp reports whether args ask for help before anything else: the
// first word is -h or --help.
func wantsHelp(args []string) bool {
	return len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help")
}

// runVersion is "toolgate version": the module's version and the VCS
// state the binary was built from, as Go's build info records them.
func runVersion(args []string, e env) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if helpRequested(fs, err, e) {
			return 0
		}
		fmt.Fprintf(e.stderr, "toolgate version: %v\nusage: %s\n", err, synopses["version"])
		return 2
	}
	fmt.Fprintln(e.stdout, versionText())
	return 0
}

// versionText is one line: "toolgate v0.3.0 (go1.26.8, revision 1a2b3c4d, 2026-12-01T23:00:00Z, modified)".
func versionText() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "toolgate (no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var parts []string
	parts = append(parts, bi.GoVersion)
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if r := settings["vcs.revision"]; r != "" {
		if len(r) > 12 {
			r = r[:12]
		}
		parts = append(parts, "revision "+r)
	}
	if t := settings["vcs.time"]; t != "" {
		parts = append(parts, t)
	}
	if settings["vcs.modified"] == "true" {
		parts = append(parts, "modified")
	}
	return "toolgate " + v + " (" + strings.Join(parts, ", ") + ")"
}

// checkHint is what toolgate check says on standard error when its input
// is a terminal: a person typed it, not a host.
const checkHint = "toolgate check: reading a Claude Code hook event (JSON) from standard input; to try a call by hand, use toolgate explain TOOL 'JSON input'\n"
