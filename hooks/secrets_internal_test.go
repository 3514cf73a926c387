package hooks

import "testing"

// TestSecretRowsCompile holds every row's expression to compiling (they
// compile on first use) with the group the mask replaces.
func TestSecretRowsCompile(t *testing.T) {
	for _, r := range secretRows {
		re := r.re()
		if re.NumSubexp() < 2 {
			t.Errorf("row %q: %d groups, want at least 2 (kept, masked)", r.name, re.NumSubexp())
		}
	}
}
