package mcpgateway

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime/tool"
)

// schema is the part of a tool's input schema the roles are inferred from.
type schema struct {
	Properties map[string]json.RawMessage `json:"properties"`
	Required   []string                   `json:"required"`
}

// descriptor builds the pipeline's description of an upstream tool: the
// roles the configuration gives, or those inferred from the input schema's
// property names (path, file_path, source, destination, paths, ... are
// paths; command, cmd, script are commands; url, uri are URLs). A path
// argument that is an array is declared all the same, so the pipeline
// refuses it ("must be a string") rather than letting it by unjudged.
func descriptor(name string, t *mcp.Tool, override *Roles) *tool.Descriptor {
	var sc schema
	if b, err := json.Marshal(t.InputSchema); err == nil {
		_ = json.Unmarshal(b, &sc)
	}
	var tr tool.Traits
	if override != nil {
		tr.PathFields, tr.CommandFields, tr.URLFields = override.Paths, override.Commands, override.URLs
	} else {
		for _, p := range slices.Sorted(mapKeys(sc.Properties)) {
			switch role(p) {
			case "path":
				tr.PathFields = append(tr.PathFields, p)
			case "command":
				tr.CommandFields = append(tr.CommandFields, p)
			case "url":
				tr.URLFields = append(tr.URLFields, p)
			}
		}
	}
	switch {
	case override != nil && override.Kind != "":
		tr.Kind = kinds[override.Kind]
	case len(tr.CommandFields) > 0:
		tr.Kind = permission.KindExec
	case t.Annotations != nil && t.Annotations.ReadOnlyHint:
		tr.Kind = permission.KindRead
	case len(tr.URLFields) > 0 && len(tr.PathFields) == 0:
		tr.Kind = permission.KindNetwork
	default:
		// Paths of a tool that does not say it only reads are written.
		tr.Kind = permission.KindEdit
	}
	tr.ConcurrencySafe = tr.Kind == permission.KindRead
	for _, f := range slices.Concat(tr.PathFields, tr.CommandFields, tr.URLFields) {
		if slices.Contains(sc.Required, f) {
			tr.RequiredFields = append(tr.RequiredFields, f)
		}
	}
	return &tool.Descriptor{ToolName: name, Base: tr}
}

// role says what an argument name stands for: "path", "command", "url"
// or "".
func role(p string) string {
	n := strings.ToLower(p)
	switch n {
	case "path", "paths", "file", "files", "file_path", "filepath", "filename", "source", "destination",
		"target", "directory", "dir", "folder", "root", "cwd", "workdir":
		return "path"
	case "command", "cmd", "script", "shell":
		return "command"
	case "url", "uri", "href", "endpoint":
		return "url"
	}
	switch {
	case strings.HasSuffix(n, "_path"), strings.HasSuffix(n, "_file"), strings.HasSuffix(n, "_dir"),
		strings.HasSuffix(n, "path") && !strings.HasSuffix(n, "xpath"):
		return "path"
	case strings.HasSuffix(n, "_url"), strings.HasSuffix(n, "url"):
		return "url"
	}
	return ""
}
