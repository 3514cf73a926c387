package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The confinement table has a row for each project, unchanged and
// changed, and the targets are judged on the unchanged ones only.
func TestConfineTable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "confine.txt")
	require.NoError(t, os.WriteFile(path, []byte(`goos: linux
BenchmarkConfinedCommand/small-2         	      15	  21244832 ns/op	        4.00 added-ms	         3.124 bare-ms	        7.12 confined-ms
BenchmarkConfinedCommand/small-changed-2 	      15	  21148758 ns/op	        5.00 added-ms	         2.867 bare-ms	        7.87 confined-ms
BenchmarkConfinedCommand/100k-2          	      15	 131442201 ns/op	        4.40 added-ms	         3.412 bare-ms	        7.81 confined-ms
BenchmarkConfinedCommand/100k-changed-2  	      15	 146756607 ns/op	       100.0 added-ms	         3.394 bare-ms	       103.4 confined-ms
BenchmarkConfinedCommand/small-toolchains-2 	      15	  21244832 ns/op	        6.00 added-ms	         3.000 bare-ms	        9.00 confined-ms
`), 0o644))
	rows := confineRows(readFile(path))
	require.Len(t, rows, 5)
	smallOK, largeOK, lines := confineTargets(rows)
	assert.True(t, smallOK)
	assert.True(t, largeOK, "1.10× the small")
	require.Len(t, lines, 3)
	assert.Contains(t, lines[2], "5.0 ms in a small project and 100.0 ms in a 100,000-entry one (20.00×)")
	var b strings.Builder
	confineTable(&b, rows)
	assert.Contains(t, b.String(), "| small | 3.12 ms | 7.12 ms | 4.00 ms (met) |\n")
	assert.Contains(t, b.String(), "| 100k | 3.41 ms | 7.81 ms | 4.40 ms (1.10× the small, met) |\n")
	assert.Contains(t, b.String(), "| small-changed | 2.87 ms | 7.87 ms | 5.00 ms (changed) |\n")
	assert.Contains(t, b.String(), "| 100k-changed | 3.39 ms | 103.40 ms | 100.00 ms (changed, 20.00× the small) |\n")
	assert.Contains(t, b.String(), "| small-toolchains | 3.00 ms | 9.00 ms | 6.00 ms (a Python install in the home, 1.50× the small) |\n")
}
