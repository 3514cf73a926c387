package bashguard

import (
	"strings"
	"testing"
)

// FuzzScanSpec: on any command line, the scanner reads every word once:
// as an option, an option's value or an operand, never two of these, in
// order, within the line; a word that takes no part (the "--") is the
// only exception.
func FuzzScanSpec(f *testing.F) {
	for _, seed := range []string{"-iOcat x", "--unset-a x.y", "-S .env a.txt", "--no-open x -- y", "-n5 -e -x --", "--open-f=less", "-3 -- -x",
		"-gC /tmp x", "-Cg /tmp", "--scri=x build", "--no-no-prefix y", "--- -C x", "-s=x", "--exec=x ./... -update -args -test.v",
		"--o x -toolexec y", "-f - all V=$(x)", "--config=a -Zx -rq", "--config.script-shell=x t", "-c=/tmp/x --setup-files a b",
		"--OUTDIR /tmp -P x", "--coverage.reports-directory=/tmp -u x", "-oN x -sV -script=y -de -iLf -p- -vv"} {
		f.Add(seed)
	}
	specs := []*spec{gitSpec().subs["grep"], gitSpec().subs["config"], gitSpec().subs["log"], readerSpecs()["grep"], readerSpecs()["sort"], gitSpec(),
		sysSpecs()["npm"].subs["test"], sysSpecs()["go"].subs["test"], sysSpecs()["go"].subs["run"], sysSpecs()["make"],
		sysSpecs()["cargo"].subs["build"], sysSpecs()["cargo"].subs["run"], sysSpecs()["pytest"],
		sysSpecs()["pnpm"].subs["run"], sysSpecs()["bun"].subs["test"], sysSpecs()["jest"], sysSpecs()["vitest"], sysSpecs()["tsc"],
		sysSpecs()["eslint"], wrapperSpecs()["npx"], nmapSpec()}
	f.Fuzz(func(t *testing.T, line string) {
		words := append([]string{"cmd"}, strings.Fields(line)...)
		if len(words) > 64 {
			return
		}
		v := argv{vals: words, flags: make([]wordFlags, len(words))}
		for _, s := range specs {
			scanReadsOnce(t, s, line, words, &v)
		}
	})
}

// scanReadsOnce scans words with s and fails unless every word but "--"
// is read once, in order, as an option, an option's value or an operand.
func scanReadsOnce(t *testing.T, s *spec, line string, words []string, v *argv) {
	seen := map[int]string{}
	last := 0
	scanSpec(s, v, 1, false, func(e *scanned) {
		if e.at < 1 || e.at >= len(words) {
			t.Fatalf("%s: %q: an event at %d, outside the line", s.name, line, e.at)
		}
		if e.at < last {
			t.Fatalf("%s: %q: events out of order (%d after %d)", s.name, line, e.at, last)
		}
		last = e.at
		role := scannedRole(e)
		if role == "value" {
			// The value is the next word; the option is the word before it.
			if p, ok := seen[e.at-1]; ok && p != "option" {
				t.Fatalf("%s: %q: word %d read as %s and as an option", s.name, line, e.at-1, p)
			}
			seen[e.at-1] = "option"
		}
		if prev, ok := seen[e.at]; ok && prev != role && !(prev == "option" && role == "option") {
			t.Fatalf("%s: %q: word %d read as %s and as %s", s.name, line, e.at, prev, role)
		}
		seen[e.at] = role
	})
	for i := 1; i < len(words); i++ {
		if _, ok := seen[i]; !ok && words[i] != "--" {
			t.Fatalf("%s: %q: word %d (%q) was not read", s.name, line, i, words[i])
		}
	}
}

// scannedRole is the part the scanner read a word as: "operand",
// "value" (an option's value in the next word) or "option".
func scannedRole(e *scanned) string {
	switch {
	case e.opt == nil && e.problem == "":
		return "operand"
	case e.hasVal && e.next:
		return "value"
	}
	return "option"
}

// FuzzGitConfigKeys: what the config reader accepts is a list of keys git
// could set: a lower-case section name, a subsection as written, a
// lower-case key name, each non-empty.
func FuzzGitConfigKeys(f *testing.F) {
	for _, seed := range []string{"[core]\n\tfsmonitor = x\n", "[Core \"A b\"]\nK=\"v\\\n w\"\n", "[a.B]\nc\n", "[x]\ny = \"unterminated\n", "k = v\n"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 4096 {
			return
		}
		keys, why := parseGitConfigKeys(text)
		if why != "" {
			return // refused: the command asks
		}
		for _, k := range keys {
			first, rest, ok := strings.Cut(k.name, ".")
			j := strings.LastIndexByte(k.name, '.')
			if !ok || first == "" || j == len(k.name)-1 || rest == "" {
				t.Fatalf("%q: a malformed key %q", text, k.name)
			}
			if first != strings.ToLower(first) || k.name[j+1:] != strings.ToLower(k.name[j+1:]) {
				t.Fatalf("%q: section or key not lower-cased in %q", text, k.name)
			}
		}
	})
}
