package output_test

import (
	"fmt"
	"os"

	"github.com/toolgate/toolgate/runtime/output"
)

func ExampleTruncate() {
	s, cut := output.Truncate("abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz", 45)
	fmt.Printf("%v %q\n", cut, s)
	// Output:
	// true "abcdefghijk\n[... 46 characters cut ...]\nvwxyz"
}

func ExampleShaper() {
	dir, _ := os.MkdirTemp("", "results")
	defer os.RemoveAll(dir)
	root, _ := os.OpenRoot(dir)
	defer root.Close()
	sh := output.Shaper{MaxChars: 60, PersistOver: 100, FS: root, Dir: ".toolgate", PreviewChars: 20}
	s, err := sh.Shape("Bash", "call-1", "ok")
	fmt.Printf("%q %v %v\n", s.Text, s.Truncated, err)
	s, err = sh.Shape("Bash", "call-2", string(make([]byte, 150)))
	fmt.Println(s.Path, s.Chars, s.Truncated, err)
	// Output:
	// "ok" false <nil>
	// .toolgate/tool-results/call-2.txt 150 true <nil>
}
