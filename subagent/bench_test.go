package subagent_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/subagent"
)

// BenchmarkSpawnEnd: starting and ending a subagent (validation, child
// session, hooks).
func BenchmarkSpawnEnd(b *testing.B) {
	w := newWorld(b, permission.Config{Default: permission.Allow})
	w.start(b, "lead", permission.ModeDefault)
	spec := subagent.Spec{Name: "explorer", Tools: []string{"Read", "Grep", "Glob"}, Deny: []string{"Read(./.env)"}, Ask: []string{"Grep"}}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c, err := subagent.Spawn(ctx, w.p, "lead", spec, subagent.Task{ID: "c" + strconv.Itoa(i)})
		if err != nil {
			b.Fatal(err)
		}
		c.End("done")
	}
}

// BenchmarkCheck: the same call checked in the parent and in a child, side
// by side; the child's session rules sit on top of the parent's.
func BenchmarkCheck(b *testing.B) {
	w := newWorld(b, permission.Config{Default: permission.Allow})
	w.start(b, "lead", permission.ModeDefault)
	c, err := subagent.Spawn(context.Background(), w.p, "lead", subagent.Spec{Name: "explorer", Deny: []string{"Read(./.env)"}}, subagent.Task{})
	if err != nil {
		b.Fatal(err)
	}
	defer c.End("done")
	// Eleven inputs in turn: no repeat or short cycle for layer 7 to deny.
	var inputs [11][]byte
	for i := range inputs {
		inputs[i] = in("file_path", "src/file"+strconv.Itoa(i)+".go")
	}
	for _, sess := range []string{"lead", c.ID()} {
		name := "parent"
		if sess != "lead" {
			name = "child"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if v := w.check(sess, "Read", inputs[i%len(inputs)]); v.Decision != permission.Allow {
					b.Fatal(v.Reason)
				}
			}
		})
	}
}
