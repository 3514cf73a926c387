package content

import (
	"errors"
	"strings"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
	"github.com/toolgate/toolgate/sandbox"
)

// errConfigCredential is the cause of the path judge's Ask for a read of
// a git config file whose keys hold a credential: a secret by what it
// holds, not by its name, so a probe of its metadata is not asked.
var errConfigCredential = errors.New("a git config file that holds a credential")

// pathVerdict is what the path judge finds for one path a tool reaches.
type pathVerdict struct {
	// real is the resolved path, or "" when the sandbox refused the path.
	real string
	// sandbox is the sandbox's answer: a Deny (refused), an Ask (a secret
	// path, or a write to a protected one), or an Allow with no reason.
	sandbox permission.Result
	// err is the sandbox's refusal, when it refused.
	err error
	// rules is the strictest answer of the rules of every source for the
	// real path (or, for a path outside the roots, where it leads) and the
	// path as written; unset (hasRules false) for a path refused for
	// another reason when the caller asked for rules only on paths the
	// sandbox takes.
	rules    permission.Result
	hasRules bool
	// outside says the path lies outside the roots, and a file tool may
	// read it all the same (liftRead).
	outside bool
}

// judgePath is the one path judge: the sandbox (containment, protected and
// secret paths) and the rules of every source (configuration, session)
// for req's tool, group and kind, on the real path and on the path as
// written. File tools' path fields and every path a shell command reaches
// go through it. command says the path is a shell command's: another
// process opens it (see sandbox.Commands), and the rules are asked about a
// path the sandbox refused, too (a command's read outside the roots is
// only asked).
//
// For a file tool (not command), lists says the tool lists the names
// below a directory it is given rather than reading the files there
// (Glob): a read outside the roots that sysread's rule lifts (liftRead)
// is then an Allow of the sandbox's, judged by the rules like any other.
func (j *Judges) judgePath(req permission.Request, p string, write, command, lists bool) pathVerdict {
	sb := j.Sandbox
	var v pathVerdict
	// One walk resolves the path and judges it: protected and secret
	// classes are matched against the real path, the path as written and
	// every link followed on the way.
	judge := sb.Judge
	if command {
		judge = sb.Commands().Judge
	}
	real, d, why, err := judge(p, write)
	switch {
	case d == permission.Deny || real == "":
		if err == nil {
			err = errors.New(why)
		}
		v.err = err
		v.sandbox = permission.Result{Decision: permission.Deny, Layer: permission.LayerSandbox,
			Source: permission.SourceToolDeny, Rule: sandbox.RuleOf(err), Reason: why, Cause: err}
		var pe *sandbox.PathError
		outside := errors.As(err, &pe) && errors.Is(err, sandbox.ErrOutsideRoots)
		if !command {
			if !outside || write {
				return v
			}
			lifted, ok := j.liftRead(p, pe.Resolved, lists)
			if !ok {
				return v
			}
			real, v.real, v.err, v.sandbox, v.outside = pe.Resolved, pe.Resolved, nil, lifted, true
			break
		}
		if outside {
			real = pe.Resolved
		}
	case d == permission.Ask:
		// The class travels as a value: the Ask's *PathError wraps
		// sandbox.ErrSecret or sandbox.ErrProtected.
		rule := sandbox.RuleSecret
		if errors.Is(err, sandbox.ErrProtected) {
			rule = sandbox.RuleProtected
		}
		v.real = real
		v.sandbox = permission.Result{Decision: permission.Ask, Layer: permission.LayerSandbox,
			Source: permission.SourceToolAsk, Rule: rule, Reason: why, Firm: rule == sandbox.RuleProtected, Cause: err}
	default:
		v.real = real
		v.sandbox = permission.Result{Decision: permission.Allow, Layer: permission.LayerSandbox, Source: permission.SourceAllow}
		if write || lists {
			break
		}
		// A repository's config whose keys hold a credential is read as
		// a secret path is: git config --list would ask for the same
		// values (see bashguard.Guard.ConfigCredential).
		if why, found := j.Guard.ConfigCredential(real); found {
			v.sandbox = permission.Result{Decision: permission.Ask, Layer: permission.LayerSandbox, Source: permission.SourceToolAsk,
				Rule: sandbox.RuleSecret, Reason: "read " + real + ": " + why, Cause: errConfigCredential}
		}
	}
	// Rules see the real path and the path as written (made absolute),
	// so that a link cannot slip a path past a deny rule.
	if real != "" {
		req.Path = real
		v.rules, v.hasRules = j.rulesFor(&req), true
	}
	if strings.HasPrefix(p, "~") {
		return v // not a path the rules can name: the sandbox refused it
	}
	if lexical := lexicalPath(sb.WorkDir(), p, real); lexical != real {
		req.Path = lexical
		r2 := j.rulesFor(&req)
		if !v.hasRules {
			v.rules, v.hasRules = r2, true
		} else if r := v.rules; r2.Decision < r.Decision {
			r2.Conflicts.Add(permission.Conflict{Decision: r.Decision, Layer: r.Layer, Source: r.Source, Rule: r.Rule, Reason: r.Reason})
			v.rules = r2
		}
	}
	return v
}

// shellPaths is the path judge a shell command's paths go through: the
// one path judge, with the rules of Claude Code's Read family for what a
// command reads and of its Edit family (and the Write tool's) for what it
// writes, and the
// answers a shell command gets:
//
//   - a path a Deny rule names is denied, whichever way it is reached;
//   - a path through another process's magic link (/proc/<pid>/root, and
//     /proc/self, which in a command is the command) is denied;
//   - a read of a secret path is denied, inside the roots or outside
//     them: a command can send what it reads anywhere (a probe of one,
//     which reads only its metadata, is asked);
//   - a read outside the roots is asked, unless an Allow rule for the
//     path answers for the person;
//   - a path an Ask rule names is asked;
//   - a write outside the roots is denied, one to a protected or secret
//     path asked; any other write is allowed here, and the guard still
//     asks for it.
//
// Only rules that name a path speak for a path: a rule for a whole tool
// ("Read", "Edit") and the per-kind defaults say what the file tools
// may do, not what a shell command may read.
type shellPaths struct {
	j Judges
}

// JudgePath implements bashguard.PathJudge.
func (j shellPaths) JudgePath(p string, access bashguard.Access) permission.Result {
	write := access == bashguard.Write
	req := permission.Request{Tool: "Read", Group: "Read", Kind: permission.KindRead}
	if write {
		// As the Write tool: its own rules and the Edit family's.
		req = permission.Request{Tool: "Write", Group: "Edit", Kind: permission.KindEdit}
	}
	if j.j.Sandbox == nil {
		return permission.Result{Decision: permission.Deny, Layer: permission.LayerSandbox, Source: permission.SourceToolDeny,
			Rule: sandbox.RuleNone, Reason: "no sandbox is configured, so no path is allowed"}
	}
	v := j.j.judgePath(req, p, write, true, false)
	rule, ruled := v.rules, v.hasRules && pathRule(&v.rules)
	if ruled && rule.Decision == permission.Deny {
		return rule
	}
	sb := v.sandbox
	switch {
	case sb.Decision == permission.Deny && errors.Is(v.err, sandbox.ErrForeignProcess):
		return sb // another process's view of the file system: not judged, not asked
	case sb.Decision == permission.Deny && write:
		sb.Rule, sb.Reason = "", "outside the allowed roots: "+sb.Reason
		return sb
	case sb.Decision == permission.Deny:
		if pat, ok := j.j.Sandbox.Secret(p); ok && access == bashguard.Read {
			return permission.Result{Decision: permission.Deny, Layer: permission.LayerSandbox, Source: permission.SourceToolDeny,
				Rule: bashguard.RulePathSecret, Reason: "a secret path outside the allowed roots (matches \"" + pat + "\"): " + sb.Reason, Cause: sb.Cause}
		}
		if ruled && rule.Decision == permission.Allow && errors.Is(v.err, sandbox.ErrOutsideRoots) {
			return rule
		}
		return permission.Result{Decision: permission.Ask, Layer: permission.LayerSandbox, Source: permission.SourceToolAsk,
			Reason: "outside the allowed roots: " + sb.Reason, Cause: sb.Cause}
	case sb.Decision == permission.Ask && access == bashguard.Probe && errors.Is(sb.Cause, errConfigCredential):
		// Its metadata holds no key: the probe is the sandbox's Allow.
		return permission.Result{Decision: permission.Allow, Layer: permission.LayerSandbox, Source: permission.SourceAllow}
	case sb.Decision == permission.Ask && access == bashguard.Probe:
		sb.Rule = bashguard.RulePathSecret
		return sb
	case sb.Decision == permission.Ask && !write:
		sb.Decision, sb.Source, sb.Rule, sb.Firm = permission.Deny, permission.SourceToolDeny, bashguard.RulePathSecret, false
		return sb
	case sb.Decision == permission.Ask:
		sb.Rule = ""
		return sb
	case ruled && rule.Decision == permission.Ask:
		return rule
	}
	return sb
}

// pathRule reports whether r is the answer of a rule that names a path,
// not a default or a rule for a whole tool.
func pathRule(r *permission.Result) bool {
	return r.Source != permission.SourceDefault && strings.HasSuffix(string(r.Rule), ")")
}

// liftRead is the sandbox's answer for a file tool's read of p outside the
// roots (resolved leading where the sandbox's walk took it) by the rule
// the shell guard and the sandbox's FS read too ([sysread.Places.Lift]):
// an Allow when the file is a system file every user may read, or lies in
// the Go module cache, and neither name is a secret path; ok is false
// otherwise, and the sandbox's refusal stands. A directory of the system
// roots is lifted only for a tool that lists the names below it (lists),
// not for one that reads every file there (Grep).
func (j *Judges) liftRead(p, resolved string, lists bool) (permission.Result, bool) {
	l, ok := j.Reads.Lift(p, resolved, lists, func(s string) bool {
		_, secret := j.Sandbox.Secret(s)
		return secret
	})
	if !ok {
		return permission.Result{}, false
	}
	return permission.Result{Decision: permission.Allow, Layer: permission.LayerSandbox, Source: permission.SourceAllow,
		Rule: permission.RuleID(l.Rule), Reason: "outside the allowed roots, but " + l.Why}, true
}

// ReadState implements bashguard.KeptJudge: the answers of the one path
// judge for a shell command's reads depend, besides the path and the file
// system, on the rules of the configuration (a Checker does not change),
// the session's rules as they are now, the sandbox (sandbox.ReadState:
// its lists and the protected and secret files found by identity) and the
// guard whose ConfigCredential reads a git config's keys (whose content
// the guard stamps). Nil, keeping nothing, when one of them is missing or
// cannot be named.
func (j shellPaths) ReadState() any {
	if j.j.Sandbox == nil || j.j.Checker == nil {
		return nil
	}
	sb := j.j.Sandbox.ReadState()
	sess := j.j.Session.State()
	if sb == nil || sess == nil {
		return nil
	}
	return shellState{checker: j.j.Checker, session: sess, sandbox: sb, guard: j.j.Guard}
}

// shellState is what shellPaths.ReadState returns.
type shellState struct {
	checker *permission.Checker
	session any
	sandbox any
	guard   *bashguard.Guard
}
