package bashguard

// The command index: every name that a per-name table of the dispatcher
// holds, with the entry the class lists give it and which of the tables
// hold it, as data the compiler lays down (cmdindex_gen.go). It is written
// from the tables themselves by TestCmdIndexCurrent, which fails when a
// table and the index disagree. A process that judges one command line
// (toolgate check, one per tool call) classifies each name, and learns
// whether a per-name table holds it, without building the tables that do
// not: building them all cost about a tenth of a hook call
// (BenchmarkHookProcess). A warm process reads the index as cheaply.

// cmdTables names the per-name tables the dispatcher consults for every
// command before its class.
type cmdTables uint8

// The per-name tables.
const (
	inSys      cmdTables = 1 << iota // sysSpecs (sysTools)
	inTools                          // toolSpecs (moreTools)
	inNetTools                       // netTools (hosts)
	inNetSpecs                       // netSpecs (hosts)
)

// cmdIndexRow is one name of the index.
type cmdIndexRow struct {
	name string
	// listed says that a class list names it: class and state are then
	// its entry (classify); else the dispatcher takes the class of its
	// prefix, as for a name the index does not hold.
	listed bool
	class  cmdClass
	state  string // for clsState: why the builtin needs a person
	in     cmdTables
}

// indexed returns the row of name, from the sorted index. The search is
// written out: slices.BinarySearchFunc copies a row into its comparison
// at each step (6% of a Check of the for loop of BenchmarkToolgateCommands
// in bench).
func indexed(name string) (*cmdIndexRow, bool) {
	lo, hi := 0, len(cmdIndex)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if cmdIndex[m].name < name {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(cmdIndex) && cmdIndex[lo].name == name {
		return &cmdIndex[lo], true
	}
	return nil, false
}

// cmdIn reports whether one of the tables t holds name.
func cmdIn(name string, t cmdTables) bool {
	r, ok := indexed(name)
	return ok && r.in&t != 0
}

// cmdRowMemo is the row of the name a call looked up last: the
// dispatcher and the models look a command's name up several times (its
// class, then each per-name table), and the index is searched once.
type cmdRowMemo struct {
	name string
	row  *cmdIndexRow
	ok   bool
	set  bool
}

// indexed is the package's indexed, through the call's memo.
func (m *cmdCall) indexed(name string) (*cmdIndexRow, bool) {
	if !m.row.set || m.row.name != name {
		r, ok := indexed(name)
		m.row = cmdRowMemo{name: name, row: r, ok: ok, set: true}
	}
	return m.row.row, m.row.ok
}

// cmdIn is the package's cmdIn, through the call's memo.
func (m *cmdCall) cmdIn(name string, t cmdTables) bool {
	r, ok := m.indexed(name)
	return ok && r.in&t != 0
}
