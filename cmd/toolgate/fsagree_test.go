package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/internal/sysread"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/runtime"
	"github.com/toolgate/toolgate/sandbox"
)

// fsDisagrees does a Read or Glob call again through the pipeline's own
// FS (Pipeline.OpenFS), as a host would after the pipeline's decision v,
// and says how the FS disagrees with v, or "": a read the pipeline
// allowed outside the roots (sandbox:system-read, sandbox:go-module-cache)
// or inside them must succeed; one it refused as outside the roots must
// fail with the sandbox's *PathError, whose reason is in v's. Other tools
// and other refusals (protected, secret: judged before the FS, which
// enforces containment only) are not the FS's to agree with.
func fsDisagrees(pl *runtime.Pipeline, tool string, input json.RawMessage, v runtime.Verdict) string {
	var in struct {
		FilePath string `json:"file_path"`
		Pattern  string `json:"pattern"`
		Path     string `json:"path"`
	}
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	outside := v.Rule == sandbox.RuleOutsideRoots
	lifted := v.Rule == sysread.RuleSystem || v.Rule == sysread.RuleModCache
	if !outside && !lifted && v.Decision != permission.Allow {
		return ""
	}
	fsys, err := pl.OpenFS()
	if err != nil {
		return "OpenFS: " + err.Error()
	}
	defer fsys.Close()
	switch {
	case tool == "Read" && in.FilePath != "":
		_, err = fsys.ReadFile(in.FilePath)
	case tool == "Glob" && in.Pattern != "":
		pat := in.Pattern
		if in.Path != "" && !filepath.IsAbs(pat) {
			pat = filepath.Join(in.Path, pat)
		}
		_, err = fsys.Glob(pat)
	default:
		return ""
	}
	var pe *sandbox.PathError
	switch {
	case outside && v.Decision == permission.Deny && err == nil:
		return fmt.Sprintf("the pipeline refused %s outside the roots (%s), the FS read it", tool, v.Reason)
	case outside && v.Decision == permission.Deny && (!errors.As(err, &pe) || !errors.Is(err, sandbox.ErrOutsideRoots)):
		return fmt.Sprintf("the FS refused %s with %v, not the sandbox's outside-roots error", tool, err)
	case outside && v.Decision == permission.Deny && !strings.Contains(v.Reason, pe.Reason):
		return fmt.Sprintf("the FS's reason %q is not in the pipeline's %q", pe.Reason, v.Reason)
	case v.Decision == permission.Allow && err != nil:
		return fmt.Sprintf("the pipeline allowed %s (%s), the FS refused it: %v", tool, v.Reason, err)
	}
	return ""
}
