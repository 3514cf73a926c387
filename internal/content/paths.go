package content

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// checkPath resolves one path through the sandbox and checks the rules
// against it. It returns the real path, or "" when refused.
func (c *stage) checkPath(field, p string, write bool) string {
	return c.checkPathRules(field, p, write, true)
}

// checkPathRules is checkPath; rules says whether path rules apply (not to
// a shell command's working directory: its commands are checked instead).
func (c *stage) checkPathRules(field, p string, write, rules bool) string {
	sb := c.j.Sandbox
	if sb == nil {
		c.InsideRoots = false
		c.guardDeny(permission.LayerSandbox, sandbox.RuleNone, fmt.Sprintf("%s %q: no sandbox is configured, so no path is allowed", field, p))
		return ""
	}
	req := permission.Request{Tool: c.call.Tool, Group: c.group(), Kind: c.call.Kind}
	v := c.j.judgePath(req, p, write, false)
	switch v.sandbox.Decision {
	case permission.Deny:
		c.InsideRoots = false
		c.add(v.sandbox)
		return ""
	case permission.Ask:
		c.add(v.sandbox)
	}
	if !rules {
		return v.real
	}
	c.paths = append(c.paths, v.real)
	c.addRules(v.rules)
	return v.real
}

// lexicalPath returns p made absolute against wd and cleaned. When that is
// real, clean and absolute, as for most paths, it is found without
// building it.
func lexicalPath(wd, p, real string) string {
	if filepath.IsAbs(p) {
		if p == real {
			return real
		}
	} else if wd != "" && len(real) == len(wd)+1+len(p) && real[len(wd)] == '/' &&
		strings.HasPrefix(real, wd) && strings.HasSuffix(real, p) {
		return real
	} else {
		p = filepath.Join(wd, p)
	}
	return filepath.Clean(p)
}

func (c *stage) checkGlob(field, pattern string) {
	sb := c.j.Sandbox
	if sb == nil {
		c.InsideRoots = false
		c.guardDeny(permission.LayerSandbox, sandbox.RuleNone, fmt.Sprintf("%s %q: no sandbox is configured", field, pattern))
		return
	}
	base, _, err := sb.GlobBase(pattern)
	if err != nil {
		c.InsideRoots = false
		c.add(permission.Result{Decision: permission.Deny, Layer: permission.LayerSandbox, Source: permission.SourceToolDeny,
			Rule: sandbox.RuleOf(err), Reason: err.Error(), Cause: err})
		return
	}
	c.checkPath(field, base, false)
}
