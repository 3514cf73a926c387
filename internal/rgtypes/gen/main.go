// Command gen writes internal/content's table of ripgrep's file types: it
// runs each rg given with -rg (the one on PATH by default), keeps what its
// --type-list prints as DIR/VERSION.txt, and writes the union of every
// listing in DIR as the Go file -o.
//
//	go run ../rgtypes/gen -o ripgrep_types_table.go testdata/ripgrep
//	go run ../rgtypes/gen -rg /path/to/another/rg -o ripgrep_types_table.go testdata/ripgrep
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/internal/rgtypes"
)

type rgs []string

func (r *rgs) String() string     { return strings.Join(*r, ",") }
func (r *rgs) Set(s string) error { *r = append(*r, s); return nil }

func main() {
	var bins rgs
	flag.Var(&bins, "rg", "an rg to run for its --type-list (repeatable; default rg on PATH; \"\" runs none)")
	out := flag.String("o", "", "the Go file to write")
	pkg := flag.String("pkg", "content", "the package of the Go file")
	flag.Parse()
	if *out == "" || flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: gen [-rg PATH]... -o FILE.go DIR")
		os.Exit(2)
	}
	dir := flag.Arg(0)
	if len(bins) == 0 {
		bins = rgs{"rg"}
	}
	for _, bin := range bins {
		if bin == "" {
			continue
		}
		v, listing, err := run(bin)
		if err != nil {
			fail(err)
		}
		if err := os.WriteFile(filepath.Join(dir, v+".txt"), listing, 0o644); err != nil {
			fail(err)
		}
	}
	ls, err := rgtypes.ReadDir(dir)
	if err != nil {
		fail(err)
	}
	src, err := rgtypes.Source(*pkg, ls)
	if err != nil {
		fail(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		fail(err)
	}
}

// run returns rg's release and what its --type-list prints, checked.
func run(bin string) (string, []byte, error) {
	vout, err := exec.Command(bin, "--version").Output()
	if err != nil {
		return "", nil, fmt.Errorf("%s --version: %w", bin, err)
	}
	v, err := rgtypes.Version(vout)
	if err != nil {
		return "", nil, err
	}
	listing, err := exec.Command(bin, "--type-list").Output()
	if err != nil {
		return "", nil, fmt.Errorf("%s --type-list: %w", bin, err)
	}
	if _, err := rgtypes.Parse(v, listing); err != nil {
		return "", nil, err
	}
	return v, listing, nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(1)
}
