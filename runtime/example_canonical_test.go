package runtime_test

import (
	"fmt"

	"github.com/toolgate/toolgate/runtime"
)

// Two requests carry the same input when their canonical forms are equal;
// an input that holds a key twice is refused, as Check refuses it.
func ExampleCanonicalInput() {
	a, _ := runtime.CanonicalInput([]byte(`{"path": "a.go", "limit": 10.0}`))
	b, _ := runtime.CanonicalInput([]byte(`{"limit":1e1,"p\u0061th":"a.go"}`))
	fmt.Println(string(a), string(a) == string(b))
	_, err := runtime.CanonicalInput([]byte(`{"path": "a.go", "path": "b.go"}`))
	fmt.Println(err)
	// Output:
	// {"limit":10,"path":"a.go"} true
	// runtime: input is not a JSON object: duplicate object key "path"
}
