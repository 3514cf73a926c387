package truncate

import "testing"

func TestMarker(t *testing.T) {
	if got, want := Marker(9924), "\n[... 9924 characters cut ...]\n"; got != want {
		t.Fatalf("Marker(9924) = %q, want %q", got, want)
	}
}
