package bashguard

import (
	"context"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/toolgate/toolgate/permission"
)

// fuzzValues are the values FuzzAssignedValues assigns.
var fuzzValues = []string{"README.md", ".env", "private.txt", "/etc/shadow", "src", "a b", "*.go", "-rf", "--pre=sh", "",
	"$(id)", "../x", "/work/project", "~/.ssh/id_rsa", ".", "-", "a\nb", "locked.txt", "/tmp/scratch/x", "-exec"}

// FuzzAssignedValues checks the values the guard follows against the
// same script with the value written in: a script S that uses the
// variable vq only as "$vq", run after vq=VALUE, is allowed only if S
// with 'VALUE' in place of every "$vq" is allowed. A variable the guard
// follows may make a script stricter (where it cannot tell the value),
// never laxer.
func FuzzAssignedValues(f *testing.F) {
	for _, s := range []string{`cat "$vq"`, `ls "$vq" && echo "$vq"`, `(cd src; cat "$vq"); cat "$vq"`,
		`echo "$vq" | grep "$vq"`, `if test -f a; then cat "$vq"; fi`, `for f in a b; do cat "$f" "$vq"; done`,
		`cat "$vq" > "$vq"`, `find "$vq" -name x`, `rg -n x "$vq"`, `rm -rf "$vq"`, `f() { cat "$vq"; }; f`,
		`echo "$(cat "$vq")"`, `cd "$vq" && cat a`, `grep x <<< "$vq"`, `[ -f "$vq" ] && cat "$vq"`, `bash -c "$vq"`,
		`printf '%s' "$vq"`, `eval "$vq"`, `git -C "$vq" status`, `x="$vq"; cat "$x"`, `cat "$vq" &`, `sed -n 1p "$vq"`,
		`xargs cat "$vq"`, `env "$vq"`, `command "$vq"`, `"$vq"`, `cat <(cat "$vq")`, `[[ -e "$vq" ]]`, `case "$vq" in a) cat "$vq";; esac`} {
		for i := range fuzzValues {
			f.Add(s, uint8(i))
		}
	}
	pol, paths := casePolicy("")
	g := New(pol)
	f.Fuzz(func(t *testing.T, script string, vi uint8) {
		if len(script) > 2000 {
			return
		}
		val := fuzzValues[int(vi)%len(fuzzValues)]
		spans, ok := quotedUses(script, "vq")
		if !ok || len(spans) == 0 {
			return
		}
		slices.SortFunc(spans, func(x, y [2]int) int { return x[0] - y[0] })
		q := "'" + val + "'"
		var b strings.Builder
		last := 0
		for _, sp := range spans {
			b.WriteString(script[last:sp[0]])
			b.WriteString(q)
			last = sp[1]
		}
		b.WriteString(script[last:])
		written := b.String()
		withVar := "vq=" + q + "\n" + script
		va := g.Judge(context.Background(), testWork, paths, withVar)
		vb := g.Judge(context.Background(), testWork, paths, written)
		if vb.Rule == RuleEmpty {
			return // nothing to judge without the assignment
		}
		if va.Decision == permission.Allow && vb.Decision != permission.Allow {
			t.Fatalf("allowed %q, but with the value written in, %q is %v: %s", withVar, written, vb.Decision, vb.Reason)
		}
	})
}

// quotedUses returns the byte spans of the words "$name" in script; ok is
// false when the script names name in any other way (an assignment, a
// read, $name unquoted or inside a longer word, text that holds it).
func quotedUses(script, name string) (spans [][2]int, ok bool) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(script), "")
	if err != nil {
		return nil, false
	}
	ok = true
	exact := map[*syntax.ParamExp]bool{}
	names := map[*syntax.Lit]bool{} // the name of a parameter expansion
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.DblQuoted:
			if len(n.Parts) == 1 && !n.Dollar {
				if p, isP := n.Parts[0].(*syntax.ParamExp); isP && p.Param != nil && p.Param.Value == name && plainParam(p) {
					exact[p] = true
					spans = append(spans, [2]int{int(n.Pos().Offset()), int(n.End().Offset())})
				}
			}
		case *syntax.ParamExp:
			if n.Param != nil && n.Param.Value == name && !exact[n] {
				ok = false
			}
			if n.Param != nil {
				names[n.Param] = true
			}
		case *syntax.Lit:
			ok = ok && (names[n] || !strings.Contains(n.Value, name))
		case *syntax.SglQuoted:
			ok = ok && !strings.Contains(n.Value, name)
		case *syntax.Assign:
			ok = ok && (n.Name == nil || n.Name.Value != name)
		}
		return ok
	})
	return spans, ok
}
