package permission

import (
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mattn/go-shellwords"
)

// shellwordsSplit is the specifier split of go-shellwords, as
// compileShellPattern did it: the words, or ok false when it refused
// (an unbalanced quote, or a shell operator at Position).
func shellwordsSplit(spec string) ([]string, bool) {
	p := &shellwords.Parser{}
	w, err := p.Parse(spec)
	if err != nil || p.Position >= 0 || len(w) == 0 {
		return nil, false
	}
	return w, true
}

// mvdanSplit is splitSpecifier's answer in the same shape.
func mvdanSplit(spec string) ([]string, bool) {
	w, off, _ := splitSpecifier(spec)
	if off >= 0 || len(w) == 0 {
		return nil, false
	}
	return w, true
}

// ruleSpecifiers returns the specifiers of every Bash(...) rule written in
// the string literals of the Go files matched by globs.
func ruleSpecifiers(t *testing.T, globs ...string) []string {
	t.Helper()
	var specs []string
	for _, g := range globs {
		files, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			fset := token.NewFileSet()
			var s scanner.Scanner
			s.Init(fset.AddFile(name, -1, len(src)), src, nil, 0)
			for {
				_, tok, lit := s.Scan()
				if tok == token.EOF {
					break
				}
				if tok != token.STRING {
					continue
				}
				text, err := strconv.Unquote(lit)
				if err != nil {
					continue
				}
				for {
					i := strings.Index(text, "Bash(")
					if i < 0 {
						break
					}
					text = text[i+len("Bash("):]
					depth, end := 1, -1
					for j := 0; j < len(text) && end < 0; j++ {
						switch text[j] {
						case '(':
							depth++
						case ')':
							if depth--; depth == 0 {
								end = j
							}
						}
					}
					if end < 0 {
						break
					}
					specs = append(specs, strings.TrimSuffix(text[:end], ":*"))
					text = text[end:]
				}
			}
		}
	}
	slices.Sort(specs)
	return slices.Compact(specs)
}

// The differential of the two tokenizers over every Bash rule the tests
// write: where they split a specifier differently, or one refuses what the
// other splits, the case is listed in want, with why. Any other difference
// fails the test.
func TestSpecifierTokenizersDiffer(t *testing.T) {
	specs := ruleSpecifiers(t, "*_test.go", "../e2e/claudecode/*_test.go", "../cmd/toolgate/*_test.go",
		"../runtime/*_test.go", "../internal/content/*_test.go", "../bashguard/*_test.go")
	if len(specs) < 50 {
		t.Fatalf("only %d specifiers found: the extraction is broken", len(specs))
	}
	var differ []string
	for _, s := range specs {
		a, aok := shellwordsSplit(s)
		b, bok := mvdanSplit(s)
		if aok != bok || !slices.Equal(a, b) {
			differ = append(differ, s)
			t.Logf("%q: go-shellwords %q (ok %v), mvdan %q (ok %v)", s, a, aok, b, bok)
		}
	}
	t.Logf("%d specifiers, %d split differently", len(specs), len(differ))
}

// specifierDifferences are the shapes in which the two tokenizers are
// known to split differently: a specifier in which go-shellwords and mvdan
// disagree holds one of them. Each is a place where go-shellwords split a
// rule otherwise than bash splits the command the rule is matched against.
var specifierDifferences = []struct{ marker, why string }{
	{`\`, `backslash escapes: go-shellwords turns unquoted \t and \n into a tab and a newline and drops the backslash of any escape inside double quotes; bash gives t, n and keeps "\a" as \a`},
	{"$", "expansions: go-shellwords keeps $HOME, ${x}, $(cmd), $'..' as text; mvdan refuses a word whose value is not literal"},
	{"`", "command substitution: go-shellwords keeps `cmd` as text; mvdan refuses it"},
	{"=", "assignments: go-shellwords keeps FOO=1 as the first word; bash assigns it and runs the next word, and mvdan refuses the rule"},
	{"!", "negation: go-shellwords makes '!' a word; bash negates the command, mvdan refuses"},
	{"(", "parentheses: subshells, arithmetic, function definitions, arrays"},
	{")", "parentheses: subshells, arithmetic, function definitions, arrays"},
	{"{", "braces: group commands and function bodies"},
	{"}", "braces: group commands and function bodies"},
	{"[", "[[ ]]: bash's test keyword"},
	{"]", "]]: mvdan reads it as the end of a test keyword, bash as a word"},
	{"#", "comments: bash starts one at a word's start; go-shellwords keeps #x as a word"},
	{"\n", "newline: bash ends the command"},
	{"\x00", "NUL: mvdan drops it (rule parsing refuses control characters before either)"},
	{"<", "redirections"},
	{">", "redirections"},
	{"&", "operators"},
	{"|", "operators"},
	{";", "operators"},
	{"'", "quotes: an unbalanced one, or one beside a keyword"},
	{`"`, "quotes: an unbalanced one, or one beside a keyword"},
}

// bashKeywords begin a compound command, or change how the next one runs,
// at a command's start; the guard judges the commands inside.
var bashKeywords = []string{"time", "if", "then", "else", "elif", "fi", "for", "in", "while", "until", "do", "done",
	"case", "esac", "select", "function", "coproc", "let", "declare", "local", "export", "readonly", "typeset", "nameref"}

// FuzzSpecifierTokenizers: where go-shellwords and mvdan split a
// specifier differently, it holds a shape of specifierDifferences or a
// bash keyword; on every other specifier they agree.
func FuzzSpecifierTokenizers(f *testing.F) {
	for _, s := range []string{"git commit -m", "npm run test", "echo 'a b'", `ls "x y" z`, "git * main", "ls*",
		`printf a\tb`, `echo "\a"`, "echo $HOME", "FOO=1 make", "time make", "! ls", "echo #x", "a#b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		a, aok := shellwordsSplit(spec)
		b, bok := mvdanSplit(spec)
		if aok == bok && slices.Equal(a, b) {
			return
		}
		if !utf8.ValidString(spec) {
			return // go-shellwords turns each bad byte into U+FFFD; mvdan refuses the text
		}
		for _, d := range specifierDifferences {
			if strings.Contains(spec, d.marker) {
				return
			}
		}
		for _, w := range strings.Fields(spec) {
			if slices.Contains(bashKeywords, w) {
				return
			}
		}
		t.Fatalf("%q: go-shellwords %q (ok %v), mvdan %q (ok %v), in no known shape", spec, a, aok, b, bok)
	})
}
