package jsonin_test

import (
	"fmt"

	"github.com/toolgate/toolgate/internal/jsonin"
)

func ExampleCanonical() {
	c, _ := jsonin.Canonical([]byte(`{ "limit": 10.0, "file_path": "a.go" }`))
	fmt.Println(string(c))
	// Output:
	// {"file_path":"a.go","limit":10}
}
