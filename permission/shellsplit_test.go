package permission

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A specifier is split as bash splits the command: the cases where
// go-shellwords, the tokenizer rules had before, split otherwise (the
// differential that chose mvdan) and what each now gives: words, or a
// refusal with its offset and reason.
func TestSplitSpecifier(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		words []string
		off   int
		why   string
	}{
		{"git commit -m", []string{"git", "commit", "-m"}, -1, ""},
		{`echo 'a b' "c d" e\ f`, []string{"echo", "a b", "c d", "e f"}, -1, ""},
		{"git * main", []string{"git", "*", "main"}, -1, ""},
		{"ls*", []string{"ls*"}, -1, ""},
		{`printf a\tb`, []string{"printf", "atb"}, -1, ""},      // go-shellwords: a tab
		{`echo "\a" "\$"`, []string{"echo", `\a`, "$"}, -1, ""}, // go-shellwords: a, $
		{"echo #x", []string{"echo"}, -1, ""},                   // go-shellwords: #x
		{"a#b", []string{"a#b"}, -1, ""},
		{"export A=1 B", []string{"export", "A=1", "B"}, -1, ""},
		{"echo $HOME", nil, 5, "expansion in specifier"},   // go-shellwords: $HOME as text
		{"echo `id`", nil, 5, "expansion in specifier"},    // go-shellwords: `id` as text
		{"echo $(id)", nil, 5, "expansion in specifier"},   // go-shellwords: an error
		{"FOO=1 make", nil, 0, "assignment in specifier"},  // go-shellwords: FOO=1 as the command
		{"! ls", nil, 0, "'!' in specifier"},               // go-shellwords: ! as the command
		{"time make", nil, 0, "bash keyword in specifier"}, // go-shellwords: time as the command
		{"ls | wc", nil, 3, "shell operator in specifier"},
		{"ls; rm x", nil, 2, "shell operator in specifier"},
		{"ls &", nil, 3, "shell operator in specifier"},
		{"ls > x", nil, 3, "redirection in specifier"},
		{"echo 'x", nil, 5, "unbalanced quote"},
		{"]]", nil, 0, "cannot split specifier into words"}, // go-shellwords: ]] as the command
		{"  ", nil, 0, "specifier has no words"},
		{"# only a comment", nil, 0, "specifier has no words"},
	} {
		words, off, why := splitSpecifier(tc.spec)
		assert.Equal(t, tc.words, words, "%q", tc.spec)
		assert.Equal(t, tc.off, off, "%q: offset", tc.spec)
		if tc.why == "" {
			assert.Empty(t, why, "%q", tc.spec)
		} else {
			assert.Contains(t, why, tc.why, "%q", tc.spec)
		}
	}
}
