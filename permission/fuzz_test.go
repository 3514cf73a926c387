package permission

import (
	"strings"
	"testing"
)

// shellQuote quotes a word for a rule specifier so that splitting gives it
// back: single quotes, with embedded single quotes closed and escaped.
func shellQuote(w string) string {
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// FuzzShellPattern: a rule written from an argv matches exactly that argv
// and nothing longer or shorter; the same words with ":*" match any
// extension of it; and matching never panics.
func FuzzShellPattern(f *testing.F) {
	for _, s := range []string{"git status", "npm run test", "echo 'a b'", "ls", "x\x1fy", "a  b"} {
		f.Add(s, "extra")
	}
	f.Fuzz(func(t *testing.T, cmd, extra string) {
		argv := strings.Fields(cmd)
		if len(argv) == 0 || len(argv) > 8 || strings.ContainsAny(cmd, "*\x00\r\n") || strings.ContainsAny(extra, "\x00") {
			return
		}
		quoted := make([]string, len(argv))
		for i, w := range argv {
			quoted[i] = shellQuote(w)
		}
		spec := strings.Join(quoted, " ")
		exact, err := New(Config{Allow: []string{"Bash(" + spec + ")"}, Default: Deny})
		if err != nil {
			return // a specifier the parser refuses (operators) is an error, not a silent rule
		}
		if r := exact.Check(sh(argv...), nil); r.Decision != Allow {
			t.Fatalf("exact rule %q does not match %q: %s", spec, argv, r.Reason)
		}
		longer := append(append([]string(nil), argv...), extra)
		if r := exact.Check(sh(longer...), nil); r.Decision != Deny {
			t.Fatalf("exact rule %q matches the longer %q", spec, longer)
		}
		if len(argv) > 1 {
			if r := exact.Check(sh(argv[:len(argv)-1]...), nil); r.Decision != Deny {
				t.Fatalf("exact rule %q matches the shorter %q", spec, argv[:len(argv)-1])
			}
		}
		prefix, err := New(Config{Allow: []string{"Bash(" + spec + ":*)"}, Default: Deny})
		if err != nil {
			t.Fatalf("prefix rule refused where the exact one was accepted: %v", err)
		}
		for _, a := range [][]string{argv, longer} {
			if r := prefix.Check(sh(a...), nil); r.Decision != Allow {
				t.Fatalf("prefix rule %q:* does not match %q", spec, a)
			}
		}
	})
}

// FuzzParseSettings: parsing never panics; an error always explains
// itself; every rule of a parsed file parses and compiles or is reported.
func FuzzParseSettings(f *testing.F) {
	f.Add([]byte(`{"permissions": {"allow": ["Bash(ls)"], "deny": ["Read(./.env)"], "defaultMode": "plan"}}`))
	f.Add([]byte(`{"permissions": {"ask": ["WebFetch(domain:*.x.com)"], "additionalDirectories": ["../l"]}, "toolgate": {}}`))
	f.Add([]byte(`{"permissions": []}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSettings(data, "/p/.claude/settings.json", ScopeProject)
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Reason == "" {
				t.Fatalf("error without a reason: %v", err)
			}
			return
		}
		for _, list := range [][]string{s.Allow, s.Ask, s.Deny} {
			for _, r := range list {
				if _, err := ParseRule(r); err != nil {
					t.Fatalf("a parsed file holds a rule that does not parse: %q: %v", r, err)
				}
			}
		}
		cfg, _ := Merge(Config{WorkDir: "/p", Home: "/h"}, s)
		if _, err := New(cfg); err != nil && !strings.Contains(err.Error(), "permission: ") {
			t.Fatalf("compile error without the package's form: %v", err)
		}
	})
}
