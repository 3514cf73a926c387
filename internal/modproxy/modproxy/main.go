// Command modproxy writes modules of a source tree into a file-system
// module proxy under one version, for the go command to resolve them from
// (GOPROXY=file://DIR) before that version is published:
//
//	go run ./internal/modproxy/modproxy -o DIR -version v0.3.0 . contrib/gosdk
//
// Each argument is a directory holding a go.mod. .ci/run uses it to check
// the contrib modules' go.mod and go.sum against the working tree's
// library under the version they require.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/toolgate/toolgate/internal/modproxy"
)

func main() {
	out := flag.String("o", "", "the proxy directory (created when missing); required")
	version := flag.String("version", "", "the version every module is written as, such as v0.3.0; required")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: modproxy -o DIR -version VERSION MODULEDIR...")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *out == "" || *version == "" || flag.NArg() == 0 {
		flag.Usage()
		os.Exit(2)
	}
	// A fixed time: the same tree gives the same proxy.
	published := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, dir := range flag.Args() {
		mod, err := modproxy.Add(*out, dir, *version, published)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Printf("%s %s\n", mod, *version)
	}
}
