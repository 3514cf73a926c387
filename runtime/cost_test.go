package runtime

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolgate/toolgate/internal/costtest"
	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
)

// costShapes are the adversarial inputs of a call: each builds an input of
// about n bytes for the tool it names.
var costShapes = []struct {
	name, tool string
	make       func(n int) string
}{
	{"long-string", "Read", func(n int) string {
		return costtest.Fill(`{"file_path":"src/main.go","x":"`, "a", "", `"}`, n)
	}},
	{"escapes", "Read", func(n int) string {
		return costtest.Fill(`{"file_path":"src/main.go","x":"`, `\u00e9\n`, "", `"}`, n)
	}},
	{"many-keys", "Read", func(n int) string {
		return costtest.FillN(`{"file_path":"src/main.go",`, func(i int) string { return `"k` + itoa(i) + `":0` }, ",", `}`, n)
	}},
	{"deep-nesting", "Read", func(n int) string {
		unit := strings.Repeat("[", jsonin.MaxDepth-2) + strings.Repeat("]", jsonin.MaxDepth-2)
		return costtest.Fill(`{"file_path":"src/main.go","x":[`, unit, ",", `]}`, n)
	}},
	{"nested-objects", "Read", func(n int) string {
		unit := strings.Repeat(`{"b":`, 60) + "1" + strings.Repeat("}", 60)
		return costtest.Fill(`{"file_path":"src/main.go","x":[`, unit, ",", `]}`, n)
	}},
	{"numbers", "Read", func(n int) string {
		return costtest.Fill(`{"file_path":"src/main.go","x":[`, "1.50e3", ",", `]}`, n)
	}},
	{"many-commands", "Bash", func(n int) string {
		return costtest.Fill(`{"command":"`, "ls", "; ", `"}`, n)
	}},
	{"long-word", "Bash", func(n int) string {
		return costtest.Fill(`{"command":"echo `, "a", "", `"}`, n)
	}},
	{"many-paths", "Bash", func(n int) string {
		return costtest.Fill(`{"command":"cat`, " src/main.go", "", `"}`, n)
	}},
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// BenchmarkCheckCost: Pipeline.Check over adversarial inputs of 1 KiB,
// 64 KiB and 1 MiB; ns/KiB stays about the same as the input grows (an
// input over the 1 MiB bound is refused before it is parsed).
func BenchmarkCheckCost(b *testing.B) {
	w := newWorld(b, permission.Config{Default: permission.Allow}, nil)
	for _, s := range costShapes {
		costtest.Run(b, s.name, func(n int) (string, bool) { return s.make(n), true }, func(b *testing.B, input string) {
			sess := "cost-" + s.name + "-" + itoa(len(input))
			w.start(b, sess, permission.ModeDefault)
			for i := 0; b.Loop(); i++ {
				v := w.p.Check(context.Background(), Call{Session: sess, ID: "c", Tool: s.tool, Input: json.RawMessage(input)})
				if v.Reason == "" && v.Decision != permission.Allow {
					b.Fatal("no reason")
				}
				// A small call of its own in between, so that layer 7's
				// repeat detector never stops the big one early.
				w.p.Check(context.Background(), Call{Session: sess, ID: "s", Tool: "Read", Input: in("file_path", "src/"+itoa(i))})
			}
		})
	}
}

// FuzzCheckTimePerKiB: whatever the input, Check decides within a fixed
// time per KiB of it (1 s plus 10 ms a KiB: generous for a loaded machine,
// far below the seconds a quadratic path took on a few hundred KiB).
func FuzzCheckTimePerKiB(f *testing.F) {
	for _, s := range costShapes {
		f.Add(s.tool, []byte(s.make(4<<10)))
	}
	f.Add("Read", []byte(strings.Repeat(`{"a":`, 20000)))
	f.Add("Bash", []byte(`{"command":"`+strings.Repeat("$(", 500)+`"}`))
	w := newWorld(f, permission.Config{Default: permission.Allow}, nil)
	n := 0
	f.Fuzz(func(t *testing.T, tool string, input []byte) {
		n++
		sess := "fuzz-" + itoa(n)
		w.start(t, sess, permission.ModeDefault)
		start := time.Now()
		v := w.p.Check(context.Background(), Call{Session: sess, ID: "c", Tool: tool, Input: input})
		took := time.Since(start)
		if v.Reason == "" && v.Decision != permission.Allow {
			t.Fatalf("a %s without a reason", v.Decision)
		}
		limit := time.Second + time.Duration(len(input))*10*time.Millisecond/1024
		if took > limit {
			t.Fatalf("Check of %d bytes took %v, over %v (1 s + 10 ms/KiB)", len(input), took, limit)
		}
	})
}
