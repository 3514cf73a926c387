package tool_test

import (
	"fmt"

	"github.com/toolgate/toolgate/runtime/tool"
)

func ExampleRegistry_Restrict() {
	tools := tool.ClaudeCodeTools()
	readOnly, err := tools.Restrict("Read", "Grep", "Glob")
	if err != nil {
		panic(err)
	}
	fmt.Println(readOnly.Names())
	_, err = tools.Restrict("Read", "Bsh")
	fmt.Println(err)
	// Output:
	// [Read Glob Grep]
	// tool: restrict: unknown tool(s) "Bsh"
}
