package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/toolgate/toolgate/internal/safefile"
	"github.com/toolgate/toolgate/permission"
)

// maxSettingsBytes bounds a settings file lint reads, as the check does.
const maxSettingsBytes = 1 << 20

// readError says why a file could not be read, without repeating its path.
func readError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Op + ": " + pe.Err.Error()
	}
	return err.Error()
}

// finding is one problem "toolgate lint" reports.
type finding struct {
	Error   bool
	File    string
	Line    int // 0 when the whole file is meant
	Col     int
	Message string
}

func (f finding) String() string {
	sev := "warning"
	if f.Error {
		sev = "error"
	}
	if f.Line == 0 {
		return fmt.Sprintf("%s: %s: %s", f.File, sev, f.Message)
	}
	return fmt.Sprintf("%s:%d:%d: %s: %s", f.File, f.Line, f.Col, sev, f.Message)
}

// lintRule is one rule as written in a settings file.
type lintRule struct {
	file      string
	list      string // allow, ask or deny
	index     int
	text      string
	line, col int
	rule      permission.Rule
	ok        bool
}

func (r lintRule) where() string {
	return fmt.Sprintf("permissions.%s[%d] %q", r.list, r.index, r.text)
}

// runLint is "toolgate lint": it checks the settings files a check in the
// project would read. Exit status 1 when there are errors.
func runLint(args []string, e env) int {
	fs := flag.NewFlagSet("lint", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var settings multiFlag
	fs.Var(&settings, "settings", "a further settings `file`, in command-line scope (repeatable)")
	managed := fs.String("managed", defaultManagedSettings(), "the managed settings `file`")
	cwd := fs.String("cwd", "", "the project `directory` (default: the current directory)")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		if helpRequested(fs, err, e) {
			return 0
		}
		fmt.Fprintf(e.stderr, "toolgate lint: %v\nusage: %s\n", err, synopses["lint"])
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(e.stderr, "toolgate lint: unexpected arguments %q\n%s", fs.Args(), usage)
		return 2
	}
	dir := *cwd
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(e.stderr, "toolgate lint: %v\n", err)
			return 1
		}
		dir = wd
	}
	src := source{cwd: dir, home: e.getenv("HOME"), managed: *managed, extra: settings}
	found, checked := lint(src)
	errs := 0
	for _, f := range found {
		if f.Error {
			errs++
		}
		fmt.Fprintln(e.stdout, f)
	}
	fmt.Fprintf(e.stdout, "%d settings file(s) checked: %d error(s), %d warning(s)\n", checked, errs, len(found)-errs)
	if errs > 0 {
		return 1
	}
	return 0
}

// lint checks every settings file of src and returns the findings, errors
// and warnings in file order, and how many files it read.
func lint(src source) ([]finding, int) {
	var found []finding
	var rules []lintRule
	checked := 0
	trusted, _ := workspaceTrusted(claudeJSONPath(src.home, src.getenv), src.projectDir())
	for _, f := range src.settingsFiles() {
		data, err := safefile.Read(f.path, maxSettingsBytes)
		if errors.Is(err, fs.ErrNotExist) && !f.required {
			continue
		}
		if err != nil {
			found = append(found, finding{Error: true, File: f.path, Message: "cannot read: " + readError(err)})
			continue
		}
		checked++
		rs, err := rulesOf(f.path, data)
		if err != nil {
			found = append(found, finding{Error: true, File: f.path, Message: err.Error()})
			continue
		}
		// Everything but the rules themselves, which are checked one by
		// one below so that every malformed rule is reported.
		s, err := permission.ParseSettings(data, f.path, f.scope)
		var pe *permission.Error
		if err != nil && !(errors.As(err, &pe) && pe.Index >= 0) {
			found = append(found, finding{Error: true, File: f.path, Message: err.Error()})
		}
		if s != nil && s.Workspace() {
			// What the check sets aside until the workspace is trusted.
			s.Trusted = trusted
			_, ws := permission.Merge(permission.Config{}, s)
			for _, w := range ws {
				if strings.HasPrefix(w, "ignoring ") {
					found = append(found, finding{File: f.path, Message: w})
				}
			}
		}
		if s != nil {
			for _, w := range s.Warnings {
				found = append(found, finding{File: f.path, Message: w})
			}
			if msg := lintToolgate(s.Toolgate); msg != "" {
				found = append(found, finding{Error: true, File: f.path, Message: msg})
			}
		}
		rules = append(rules, rs...)
	}
	for _, r := range rules {
		if !r.ok {
			continue
		}
		if why := neverMatches(r.text); why != "" {
			// An error in every list: a deny or ask rule that never
			// matches is a hole (the check refuses to run with one), an
			// allow rule that never matches a mistake.
			found = append(found, finding{Error: true, File: r.file, Line: r.line, Col: r.col,
				Message: fmt.Sprintf("%s can never match: %s", r.where(), why)})
			continue
		}
		if !knownTool(r.rule.Tool) {
			found = append(found, finding{Error: true, File: r.file, Line: r.line, Col: r.col,
				Message: fmt.Sprintf("%s names tool %q, which does not exist (Claude Code's tools, and MCP tools named mcp__server__tool)", r.where(), r.rule.Tool)})
		}
		if r.list != "allow" {
			continue
		}
		if r.rule.Tool == "Write" && r.rule.Specifier != "" {
			// Claude Code consults no Write(path) rule (its edit tools
			// answer to Edit(path)), and toolgate reads such an allow
			// rule as Claude Code does: it lets nothing through.
			found = append(found, finding{File: r.file, Line: r.line, Col: r.col,
				Message: fmt.Sprintf("%s allows nothing: Claude Code reads no Write(path) rule, and neither does toolgate in allow (write Edit(%s) for the edit tools)", r.where(), r.rule.Specifier)})
			continue
		}
		if why := tooBroad(r.rule); why != "" {
			found = append(found, finding{File: r.file, Line: r.line, Col: r.col, Message: fmt.Sprintf("%s is too broad to be safe: %s", r.where(), why)})
		}
		for _, d := range rules {
			if !d.ok || d.list == "allow" {
				continue
			}
			if shadows(d, r) {
				found = append(found, finding{File: r.file, Line: r.line, Col: r.col,
					Message: fmt.Sprintf("%s never takes effect: every call it matches is %sed by %s rule %q (%s:%d:%d)",
						r.where(), map[string]string{"deny": "deni", "ask": "ask"}[d.list], d.list, d.text, d.file, d.line, d.col)})
				break
			}
		}
	}
	// Malformed rules first, in file order, then the rest.
	var bad []finding
	for _, r := range rules {
		if !r.ok {
			_, err := permission.ParseRule(r.text)
			msg := err.Error()
			var pe *permission.Error
			if errors.As(err, &pe) {
				msg = pe.Reason
			}
			bad = append(bad, finding{Error: true, File: r.file, Line: r.line, Col: r.col,
				Message: fmt.Sprintf("%s is malformed: %s", r.where(), msg)})
		}
	}
	return append(bad, found...), checked
}

// rulesOf walks a settings file's JSON for its permission rules, keeping
// the line and column of each.
func rulesOf(file string, data []byte) ([]lintRule, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var rules []lintRule
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("invalid JSON: %v", err)
		}
		if k != "permissions" {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("invalid JSON: %v", err)
			}
			continue
		}
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return nil, errors.New("permissions is not a JSON object")
		}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, fmt.Errorf("invalid JSON: %v", err)
			}
			list, _ := k.(string)
			if list != "allow" && list != "ask" && list != "deny" {
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return nil, fmt.Errorf("invalid JSON: %v", err)
				}
				continue
			}
			if t, err := dec.Token(); err != nil || t != json.Delim('[') {
				return nil, fmt.Errorf("permissions.%s is not an array", list)
			}
			for i := 0; dec.More(); i++ {
				before := int(dec.InputOffset())
				t, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("invalid JSON: %v", err)
				}
				text, ok := t.(string)
				if !ok {
					return nil, fmt.Errorf("permissions.%s[%d] is not a string", list, i)
				}
				start := before + max(bytes.IndexByte(data[before:], '"'), 0)
				r := lintRule{file: file, list: list, index: i, text: text}
				off := start
				if rule, err := permission.ParseRule(text); err == nil {
					r.rule, r.ok = rule, true
				} else if pe := (*permission.Error)(nil); errors.As(err, &pe) && pe.Offset > 0 {
					off = start + 1 + pe.Offset
				}
				r.line, r.col = lineCol(data, off)
				rules = append(rules, r)
			}
			if _, err := dec.Token(); err != nil {
				return nil, fmt.Errorf("invalid JSON: %v", err)
			}
		}
		if _, err := dec.Token(); err != nil {
			return nil, fmt.Errorf("invalid JSON: %v", err)
		}
	}
	return rules, nil
}

func lineCol(data []byte, off int) (int, int) {
	off = min(off, len(data))
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	col := off - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}

// broadCommands run whatever their arguments say: an allow rule for them
// as a prefix allows anything.
var broadCommands = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true,
	"python": true, "python2": true, "python3": true, "node": true, "deno": true, "bun": true,
	"perl": true, "ruby": true, "php": true, "lua": true, "osascript": true, "pwsh": true,
	"env": true, "sudo": true, "doas": true, "su": true, "xargs": true, "eval": true, "exec": true,
	"command": true, "builtin": true, "nohup": true, "timeout": true, "nice": true, "time": true,
	"setsid": true, "stdbuf": true, "watch": true, "npx": true, "uvx": true, "docker": true, "ssh": true,
}

// tooBroad says why an allow rule allows too much, or returns "".
func tooBroad(r permission.Rule) string {
	spec := strings.TrimSpace(r.Specifier)
	switch {
	case r.Tool == "*":
		return "it allows every tool"
	case r.Tool == "Bash" && spec == "":
		return "it allows every shell command"
	case r.Tool == "WebFetch" && (spec == "" || spec == "domain:*"):
		return "it allows fetching from every domain"
	case r.Tool == "mcp__*" && spec == "":
		return "it allows every tool of every MCP server"
	}
	if r.Tool == "Bash" {
		prefix := strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(spec, ":*"), "*"))
		words := strings.Fields(prefix)
		if len(words) == 0 {
			return "it allows every shell command"
		}
		name := path.Base(words[0])
		flagsOnly := true
		for _, w := range words[1:] {
			flagsOnly = flagsOnly && strings.HasPrefix(w, "-")
		}
		if broadCommands[name] && flagsOnly && prefix != spec {
			return fmt.Sprintf("%s runs whatever its arguments say, so this allows any command", name)
		}
	}
	switch r.Tool {
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit", "Glob", "Grep", "LS":
		switch strings.TrimRight(spec, "/") {
		case "//**", "//*", "/", "", "~", "~/**", "~/*", "**":
			if spec != "" {
				return "it names the whole file system or the whole home directory (with its keys and credentials)"
			}
		}
	}
	return ""
}

// shadows reports whether the deny or ask rule d matches every call the
// allow rule a matches: the same rule, the bare tool, or a wider prefix or
// folder of the same tool.
func shadows(d, a lintRule) bool {
	dr, ar := d.rule, a.rule
	if dr.String() == ar.String() {
		return true
	}
	toolCovers := dr.Tool == ar.Tool || !strings.Contains(ar.Tool, "*") && dr.CoversTool(ar.Tool)
	if !toolCovers {
		return false
	}
	if dr.Specifier == "" {
		return true
	}
	if dr.Tool != ar.Tool || ar.Specifier == "" {
		return false
	}
	if ar.Tool == "Bash" {
		dp, ok := strings.CutSuffix(dr.Specifier, ":*")
		if !ok {
			return false
		}
		ap := strings.TrimSuffix(ar.Specifier, ":*")
		dw, aw := strings.Fields(dp), strings.Fields(ap)
		if len(dw) > len(aw) {
			return false
		}
		for i := range dw {
			if dw[i] != aw[i] {
				return false
			}
		}
		return true
	}
	// Paths: a deny of a folder's "**" covers every path beneath it, when
	// both are anchored the same way.
	dp, ok := strings.CutSuffix(dr.Specifier, "**")
	if !ok || !(strings.HasPrefix(dp, "//") || strings.HasPrefix(dp, "~/") || d.file == a.file) {
		return false
	}
	return strings.HasPrefix(ar.Specifier, dp)
}
