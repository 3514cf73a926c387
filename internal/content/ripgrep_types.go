package content

import (
	"maps"
	"slices"
)

// The table of ripgrep's file types (ripgrepTypes) is data: generated from
// what real rg releases print for --type-list (kept in testdata/ripgrep),
// and held to the rg on PATH by TestRipgrepTypesAgreeWithRg.
//go:generate go run ../rgtypes/gen -o ripgrep_types_table.go testdata/ripgrep

// ripgrepType returns the globs a ripgrep file type stands for (a type
// given to Grep's "type" field is judged as these filters, as ripgrep
// reads it), and whether ripgrep defines the type by default; "all" is
// every type.
func ripgrepType(name string) (globs []string, known bool) {
	if g, ok := ripgrepTypes()[name]; ok {
		return g, true
	}
	if name == "all" {
		for _, k := range slices.Sorted(maps.Keys(ripgrepTypes())) {
			globs = append(globs, ripgrepTypes()[k]...)
		}
		slices.Sort(globs)
		return slices.Compact(globs), true
	}
	return nil, false
}
