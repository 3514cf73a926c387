package content

import (
	"errors"
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
	v := c.j.judgePath(req, p, write, false, len(c.call.GlobFields) > 0)
	switch v.sandbox.Decision {
	case permission.Deny:
		c.InsideRoots = false
		c.add(v.sandbox)
		return ""
	case permission.Ask:
		c.add(v.sandbox)
	}
	if v.outside {
		// Read all the same (liftRead), but not inside the roots.
		c.InsideRoots = false
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
	if err != nil && errors.Is(err, sandbox.ErrOutsideRoots) && len(c.call.GlobFields) > 0 && !strings.ContainsRune(pattern, '\\') {
		// A base directory outside the roots: judged as the path it is,
		// which the file tools' read rule may lift (liftRead).
		if i := strings.IndexAny(pattern, "*?[{"); i > 0 {
			if j := strings.LastIndexByte(pattern[:i], '/'); j > 0 {
				if _, ok := c.j.liftRead(pattern[:j], errResolved(err), true); ok {
					c.checkPath(field, pattern[:j], false)
					return
				}
			}
		}
	}
	if err != nil {
		c.InsideRoots = false
		c.add(permission.Result{Decision: permission.Deny, Layer: permission.LayerSandbox, Source: permission.SourceToolDeny,
			Rule: sandbox.RuleOf(err), Reason: err.Error(), Cause: err})
		return
	}
	c.checkPath(field, base, false)
}

// errResolved is where a sandbox refusal's walk led, or "".
func errResolved(err error) string {
	var pe *sandbox.PathError
	if errors.As(err, &pe) {
		return pe.Resolved
	}
	return ""
}
