package jsonin

import "testing"

// BenchmarkObject measures the one parse of a call's input: a flat input
// (the fast path) and one with escapes and a nested value (the scanner).
func BenchmarkObject(b *testing.B) {
	for _, in := range []struct{ name, data string }{
		{"flat", `{"file_path":"src/main.go","limit":20,"offset":null}`},
		{"nested", `{"command":"git status \u0026\u0026 ls -la","description":"list","env":{"A":"1"},"timeout":1.0e3}`},
	} {
		b.Run(in.name, func(b *testing.B) {
			data := []byte(in.data)
			var canonBuf [256]byte
			var memberBuf [8]Member
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Object(data, canonBuf[:0], memberBuf[:0]); err != nil {
					b.Fatal(err)
				}
			}
		})
		// Without room given, as a Check calls it.
		b.Run(in.name+"-alloc", func(b *testing.B) {
			data := []byte(in.data)
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := Object(data, nil, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
