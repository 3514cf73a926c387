package content

import (
	"fmt"
	"strings"

	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// checkFilters judges the fields that select by name which files a search
// reads (Call.FilterFields, Call.FileTypeFields): a filter or type
// that could select a secret file beneath base (the call's resolved path,
// or the working directory) is an Ask, as reading the file would be.
func (c *stage) checkFilters(fields []jsonin.Member, base string) {
	t := &c.call
	if len(t.FilterFields)+len(t.FileTypeFields) == 0 {
		return
	}
	sb := c.j.Sandbox
	if sb == nil {
		return // every path is denied without a sandbox
	}
	if base == "" {
		base = sb.WorkDir()
	}
	if loc, ok := sb.SecretBeneath(base); ok {
		c.guardAsk(permission.LayerSandbox, sandbox.RuleSecret, fmt.Sprintf(
			"a search of %s reads a secret under another name: %s", base, loc), false)
	}
	if mp, ok := sb.MountBeneath(base); ok {
		c.guardAsk(permission.LayerSandbox, sandbox.RuleOtherMount, fmt.Sprintf(
			"a search of %s descends into the mount at %s, which is not a root: its files are judged as outside every root", base, mp), false)
	}
	for _, f := range t.FilterFields {
		s, ok := c.stringField(fields, f)
		if !ok || s == "" || !c.pathText(f, s) {
			continue
		}
		if pat, ok := sb.SelectsSecret(base, s); ok {
			c.guardAsk(permission.LayerSandbox, sandbox.RuleSecret, fmt.Sprintf(
				"%s %q could select a secret file (%s): an explicit filter reads files .gitignore and hidden-file skipping leave out", f, s, pat), false)
		}
	}
	for _, f := range t.FileTypeFields {
		s, ok := c.stringField(fields, f)
		if !ok || s == "" {
			continue
		}
		globs, known := ripgrepType(s)
		if !known {
			c.guardAsk(permission.LayerSandbox, sandbox.RuleSecret, fmt.Sprintf(
				"%s %q is not a file type ripgrep defines by default, so which files it selects is not known", f, s), false)
			continue
		}
		// A name the type selects as it is (.env) says more than a
		// wildcard that could also meet a secret (*.bash and .env.*):
		// literal globs are judged first.
		literalFirst := make([]string, 0, len(globs))
		for pass := range 2 {
			for _, g := range globs {
				if strings.ContainsAny(g, "*?[{") == (pass == 1) {
					literalFirst = append(literalFirst, g)
				}
			}
		}
		for _, g := range literalFirst {
			if pat, ok := sb.SelectsSecret(base, g); ok {
				c.guardAsk(permission.LayerSandbox, sandbox.RuleSecret, fmt.Sprintf(
					"%s %q selects %q, which could be a secret file (%s)", f, s, g, pat), false)
				break
			}
		}
	}
}
