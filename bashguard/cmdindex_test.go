package bashguard

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"maps"
	"os"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// updateIndex rewrites cmdindex_gen.go from the tables.
var updateIndex = flag.Bool("update-index", false, "write cmdindex_gen.go from the tables")

// The command index is written from the class lists and the per-name
// tables by the functions below; the dispatcher reads only the index
// (cmdindex.go). The class of a name is the first class, in the
// dispatcher's order, whose list names it.

// buildCmdTable maps every name that a list of the default policy names to
// its entry (classify), from the lists themselves: the listed rows of the
// command index (cmdindex.go), which the dispatcher reads.
func buildCmdTable() map[string]cmdEntry {
	var names []string
	for _, m := range []map[string]bool{privileged(), diskCmds(), powerCmds(), interactive(), networkCmds(), shells(),
		writers(), safeNoPaths()} {
		for n := range m {
			names = append(names, n)
		}
	}
	for n := range interpSpecs() {
		names = append(names, n)
	}
	for n := range stateBuiltins() {
		names = append(names, n)
	}
	for n := range readerSpecs() {
		names = append(names, n)
	}
	for n := range cmdNamed() {
		names = append(names, n)
	}
	for n := range assigners() {
		names = append(names, n)
	}
	t := make(map[string]cmdEntry, len(names))
	for _, n := range names {
		t[n] = classify(n)
	}
	return t
}

// cmdListed says, for each class that a list holds, whether the list
// names a command.
var cmdListed = sync.OnceValue(func() map[cmdClass]func(name string) bool {
	return map[cmdClass]func(name string) bool{
		clsPrivileged:  func(n string) bool { return privileged()[n] },
		clsDisk:        func(n string) bool { return prefixClass(n) == clsDisk || diskCmds()[n] },
		clsPower:       func(n string) bool { return powerCmds()[n] },
		clsInteractive: func(n string) bool { return interactive()[n] },
		clsNetwork:     func(n string) bool { return networkCmds()[n] },
		clsShell:       func(n string) bool { return shells()[n] },
		clsInterpreter: isInterpreter,
		clsWriter:      func(n string) bool { return writers()[n] },
		clsAssigner:    func(n string) bool { return assigners()[n] != assignerRow{} },
		clsState:       func(n string) bool { return stateBuiltins()[n] != "" },
		clsSafe:        func(n string) bool { return safeNoPaths()[n] },
		clsReader:      func(n string) bool { return readerSpecs()[n] != nil },
	}
})

// classify gives the entry of name: the first class, in the dispatcher's
// order, that names it by cmdNamed or by its list.
func classify(name string) cmdEntry {
	named, isNamed := cmdNamed()[name]
	for cls := clsPrivileged; cls <= clsReader; cls++ {
		listed := cmdListed()[cls]
		if !(isNamed && named == cls || listed != nil && listed(name)) {
			continue
		}
		e := cmdEntry{class: cls}
		switch cls {
		case clsReader:
			e.reader = readerSpecs()[name]
		case clsState:
			e.state = stateBuiltins()[name]
		}
		return e
	}
	return cmdEntry{}
}

// clsIdents are the identifiers of the classes, in their order, for the
// generated file.
var clsIdents = [...]string{"clsUnlisted", "clsPrivileged", "clsRm", "clsDisk", "clsDd", "clsShred", "clsPower",
	"clsInit", "clsSystemctl", "clsKill", "clsMount", "clsInteractive", "clsNetwork", "clsRsync", "clsShell",
	"clsEval", "clsSource", "clsInterpreter", "clsAwk", "clsSed", "clsFind", "clsGit", "clsXargs", "clsEnv",
	"clsWrapper", "clsWriter", "clsState", "clsEnvPrint", "clsAssigner", "clsSafe", "clsReader"}

// tableIdents name the per-name tables, by their bit.
var tableIdents = []struct {
	bit   cmdTables
	ident string
	names func() []string
}{
	{inSys, "inSys", func() []string { return held(sysSpecs()) }},
	{inTools, "inTools", func() []string { return held(toolSpecs()) }},
	{inNetTools, "inNetTools", func() []string { return held(netTools()) }},
	{inNetSpecs, "inNetSpecs", func() []string { return held(netSpecs()) }},
}

// held returns the names of m with a value: what the dispatcher's
// lookups of the table find.
func held[T any](m map[string]*T) []string {
	var out []string
	for n, v := range m {
		if v != nil {
			out = append(out, n)
		}
	}
	return out
}

// buildCmdIndex is the command index the tables make, sorted by name.
func buildCmdIndex() []cmdIndexRow {
	rows := map[string]*cmdIndexRow{}
	row := func(n string) *cmdIndexRow {
		if rows[n] == nil {
			rows[n] = &cmdIndexRow{name: n}
		}
		return rows[n]
	}
	for n, e := range buildCmdTable() {
		r := row(n)
		r.listed, r.class, r.state = true, e.class, e.state
	}
	for _, t := range tableIdents {
		for _, n := range t.names() {
			row(n).in |= t.bit
		}
	}
	out := make([]cmdIndexRow, 0, len(rows))
	for _, n := range slices.Sorted(maps.Keys(rows)) {
		out = append(out, *rows[n])
	}
	return out
}

// writeCmdIndex renders rows as cmdindex_gen.go.
func writeCmdIndex(rows []cmdIndexRow) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by TestCmdIndexCurrent (go test -run TestCmdIndexCurrent -update-index ./bashguard); DO NOT EDIT.\n\n")
	b.WriteString("package bashguard\n\n")
	b.WriteString("// cmdIndex is the command index (cmdindex.go), sorted by name.\n")
	b.WriteString("var cmdIndex = [...]cmdIndexRow{\n")
	for _, r := range rows {
		in := "0"
		var bits []string
		for _, t := range tableIdents {
			if r.in&t.bit != 0 {
				bits = append(bits, t.ident)
			}
		}
		if len(bits) > 0 {
			in = bits[0]
			for _, s := range bits[1:] {
				in += " | " + s
			}
		}
		fmt.Fprintf(&b, "\t{%s, %v, %s, %s, %s},\n", strconv.Quote(r.name), r.listed, clsIdents[r.class], strconv.Quote(r.state), in)
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// TestCmdIndexCurrent holds the command index to the tables: every name of
// a class list or a per-name table, with its entry and tables, and no
// other. With -update-index it writes the index.
func TestCmdIndexCurrent(t *testing.T) {
	require.Len(t, clsIdents, int(clsReader)+1, "an identifier for every class")
	want := buildCmdIndex()
	if *updateIndex {
		src, err := writeCmdIndex(want)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile("cmdindex_gen.go", src, 0o644))
		t.Logf("wrote cmdindex_gen.go: %d names", len(want))
		return
	}
	assert.Equal(t, want, cmdIndex[:], "the command index is not the tables' (go test -run TestCmdIndexCurrent -update-index ./bashguard)")
	for i := 1; i < len(cmdIndex); i++ {
		require.Less(t, cmdIndex[i-1].name, cmdIndex[i].name, "the index is sorted and holds each name once")
	}
}

// TestLookupCmdAgreesWithTheLists checks lookupCmd against the class lists
// themselves, for every name the lists and tables hold and for names they
// do not (a prefix's class, no class).
func TestLookupCmdAgreesWithTheLists(t *testing.T) {
	table := buildCmdTable()
	names := []string{"no-such-command", "mkfs.ext4", "python3.12", "", "a", "zzz"}
	for _, r := range buildCmdIndex() {
		names = append(names, r.name, r.name+"x", r.name[:len(r.name)-1])
	}
	for _, n := range names {
		want, ok := table[n]
		if !ok {
			want = cmdEntry{class: prefixClass(n)}
		}
		assert.Equal(t, want, lookupCmd(n), "entry of %q", n)
		for _, tb := range tableIdents {
			assert.Equal(t, slices.Contains(tb.names(), n), cmdIn(n, tb.bit), "%s holds %q", tb.ident, n)
		}
	}
}
