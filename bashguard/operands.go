package bashguard

import (
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/toolgate/toolgate/permission"
)

// A command the guard does not know (tar, zip, make, git clone), or one it
// asks about for what it does (curl, scp, rsync, a script), reads and
// writes what it likes, and the guard asks; an allow rule of the user
// (Bash(tar:*), Bash(curl:*)) may then let it run. What the guard still
// holds is a Deny for a path: every literal operand (for a glob, each
// name it matches), the value of a "--opt=VALUE" and the other forms of
// operandPaths, that names an existing file goes to the path judge, and
// a Deny there (a secret file, a path a Read deny rule names) denies the
// command, so that an allowed "tar czf out.tgz .env" or "curl -d @.env
// URL" cannot carry what "cat .env" may not.
// An Ask for an operand adds nothing: the command is asked already.

// operandDenies judges the operands of a command that is asked, and that
// an allow rule of the user may let run, looking only for a Deny.
func (m *cmdCall) operandDenies(c *verdictAcc, v *argv) {
	if m.paths == nil {
		return
	}
	base := path.Base(v.vals[0])
	sends := copiers()[base]
	dest := v.len() - 1 // their last operand is where the copy goes
	for dest > 0 && strings.HasPrefix(v.vals[dest], "-") {
		dest--
	}
	var cands [4]string
	// The pathspecs of git rm --cached and the like name index entries.
	indexOnly := cmdNamed()[base] == clsGit && gitIndexOnly(v, gitSubIndex(v))
	for i := 1; i < v.len(); i++ {
		if !v.literal(i) || indexOnly && !strings.HasPrefix(v.vals[i], "-") {
			continue
		}
		words := []string{v.vals[i]}
		if v.flags[i]&wGlob != 0 && (m.dir != "" || path.IsAbs(v.vals[i])) {
			// bash gives the command the names the glob matches (".e*"
			// is .env), or the word itself when it matches nothing.
			if m, err := m.ws.glob(m.dir, v.vals[i]); err == nil && len(m) > 0 {
				words = m
			}
		}
		for _, word := range words {
			for _, w := range operandPaths(word, cands[:0]) {
				if m.operandDeny(c, w) || sends && i != dest && m.treeDeny(c, w) {
					return
				}
			}
		}
	}
}

// operandPaths appends to out the paths a word may name for the command
// that takes it: the word itself; the value of "--opt=VALUE" or
// "NAME=VALUE"; the value attached to a short option ("-T.env"); each
// without curl's and wget's "@" and "<" file markers ("-d @.env", "-F
// f=<.env") and without curl's ";type=..." suffix. It errs towards more
// candidates: only one that names an existing file is judged.
func operandPaths(w string, out []string) []string {
	add := func(s string) {
		s = strings.TrimPrefix(s, "file://")
		for i, t := range [2]string{s, strings.TrimLeft(s, "@<")} {
			if i == 1 && t == s {
				break // no marker: the same candidates, each an lstat
			}
			if k := strings.IndexByte(t, ';'); k > 0 {
				out = append(out, t[:k])
			}
			out = append(out, t)
		}
	}
	switch {
	case strings.HasPrefix(w, "--"):
	case strings.HasPrefix(w, "-") && len(w) > 2:
		add(w[2:])
	case !strings.HasPrefix(w, "-"):
		add(w)
	}
	if k := strings.IndexByte(w, '='); k >= 0 {
		add(w[k+1:])
	}
	return out
}

// operandDeny records a Deny for w when it names an existing file that
// the path judge denies, and reports whether it did.
func (m *cmdCall) operandDeny(c *verdictAcc, w string) bool {
	if w == "" || harmlessRead(w) {
		return false
	}
	full := w
	if !path.IsAbs(w) {
		if m.dir == "" {
			return false
		}
		full = strings.TrimSuffix(m.dir, "/") + "/" + w
	}
	if !m.ws.lexists(full) {
		return false // not a file: an option's value, a name, a pattern
	}
	if r := m.judgePath(w, Read); r.Decision == permission.Deny {
		c.addc(permission.Deny, r.Layer, ruleOr(r.Rule, RulePathRead), r.Cause, "reaches ", w, sep(r.Reason), false)
		return true
	}
	return false
}

// treeDeny judges, for rsync and scp, which copy a directory operand
// with everything in it to the other end (rsync -a, scp -r), every entry
// below w when w is a directory: a secret file or a denied path inside
// denies the command as the file named alone would. The walk is bounded
// as the recursive reads are; past the bound the command is asked, past
// any allow rule. It reports whether it recorded a Deny or that Ask.
func (m *cmdCall) treeDeny(c *verdictAcc, w string) bool {
	full := w
	if !path.IsAbs(w) {
		if m.dir == "" {
			return false
		}
		full = strings.TrimSuffix(m.dir, "/") + "/" + w
	}
	if fi, err := os.Stat(full); err != nil || !fi.IsDir() {
		return false
	}
	queue := []string{full}
	for len(queue) > 0 {
		d := queue[0]
		queue = queue[1:]
		entries, err := readDirAtMost(d, maxWalkEntries-m.walked+1)
		if err != nil {
			c.addf(permission.Ask, RulePathWalk, "copies the tree below ", w, ", part of which cannot be listed: "+err.Error(), false)
			return true
		}
		for _, e := range entries {
			if m.walked++; m.walked > maxWalkEntries {
				c.addf(permission.Ask, RulePathWalk, "copies the tree below ", w, ", which holds more than "+
					strconv.Itoa(maxWalkEntries)+" entries, too many to check for secret files", false)
				return true
			}
			p := d + "/" + e.Name()
			if r := m.judgePath(p, Read); r.Decision == permission.Deny {
				c.addc(permission.Deny, r.Layer, ruleOr(r.Rule, RulePathRead), r.Cause, "copies the tree below ", w,
					", which holds "+strings.TrimPrefix(p, full+"/")+sep(r.Reason), false)
				return true
			}
			if e.IsDir() {
				queue = append(queue, p)
			}
		}
	}
	return false
}
