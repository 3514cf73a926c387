package content

import (
	"strings"

	"github.com/toolgate/toolgate/bashguard"
	"github.com/toolgate/toolgate/permission"
)

// The hosts a shell command reaches are judged by the same domain rules
// as WebFetch's URLs, once the configuration has any: WebFetch(domain:...)
// rules are the user's list of where the agent may go on the web, and a
// shell command (curl, git clone, pip install, ssh) goes there as well.
// Without such rules nothing changes: network commands are judged by the
// guard's policy and the Bash rules alone.

// webFetch is the tool whose domain rules speak for the hosts of shell
// commands.
const webFetch = "WebFetch"

// JudgeHost implements bashguard.HostJudge. host is as the command writes
// it; "" is a host only known at run time.
//
//   - No WebFetch domain rule in the configuration: Allow (nothing to hold
//     the host against).
//   - A host only known at run time: Ask.
//   - A host that is not ASCII, or no host at all: Deny, as for WebFetch.
//   - A Deny or Ask domain rule for the host: its answer; an Allow rule:
//     Allow.
//   - No domain rule for the host: Ask, saying what an internal host
//     reaches (loopback, a metadata service, a private address).
//
// Only rules with a domain specifier speak (a bare WebFetch rule is about
// the tool), from the configuration and the session.
func (j shellPaths) JudgeHost(host string) permission.Result {
	if !hasDomainRules(j.j.Checker, j.j.Session) {
		return permission.Result{Decision: permission.Allow, Layer: permission.LayerRules, Source: permission.SourceDefault}
	}
	if host == "" {
		return permission.Result{Decision: permission.Ask, Layer: permission.LayerShell, Source: permission.SourceToolAsk,
			Rule: bashguard.RuleNetworkHost, Reason: "domain rules (" + webFetch + "(domain:...)) are set, and a host only known at run time cannot be held against them"}
	}
	h, err := canonicalHost(host)
	if err != nil {
		return permission.Result{Decision: permission.Deny, Layer: permission.LayerTraits, Source: permission.SourceToolDeny,
			Rule: RuleURLHost, Reason: err.Error()}
	}
	r := j.j.rulesFor(&permission.Request{Tool: webFetch, Kind: permission.KindNetwork, Domain: h, Specific: true})
	if r.Source != permission.SourceDefault {
		return r
	}
	why := "no " + webFetch + "(domain:...) rule allows " + h
	if in := internalHost(h); in != "" {
		why += ", " + in
	}
	return permission.Result{Decision: permission.Ask, Layer: permission.LayerShell, Source: permission.SourceToolAsk,
		Rule: bashguard.RuleNetworkHost, Reason: why + "; allow it with " + webFetch + "(domain:" + h + ")"}
}

// hasDomainRules reports whether the configuration or the session (with
// the sessions it derives from) holds a WebFetch rule with a domain
// specifier, in any list: a domain rule granted in a session ("allow
// always" for a WebFetch) switches the judgement on as one in a settings
// file does. It is asked only for the hosts of network commands; a rule
// without "domain:" in it costs a substring search.
func hasDomainRules(c *permission.Checker, s *permission.SessionRules) bool {
	for ; s != nil; s = s.Parent() {
		for _, r := range s.Rules() {
			if domainRule(r.Rule) {
				return true
			}
		}
	}
	if c == nil {
		return false
	}
	cfg := c.Config()
	for _, l := range [][]string{cfg.Deny, cfg.Ask, cfg.Allow} {
		for _, s := range l {
			if domainRule(s) {
				return true
			}
		}
	}
	for _, s := range cfg.Rules {
		if domainRule(s.Rule) {
			return true
		}
	}
	return false
}

func domainRule(s string) bool {
	if !strings.Contains(s, "domain:") {
		return false
	}
	r, err := permission.ParseRule(s)
	return err == nil && r.CoversTool(webFetch) && strings.HasPrefix(r.Specifier, "domain:")
}
