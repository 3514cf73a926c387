package content

import (
	"encoding/json"
	"fmt"
	"net/url"

	"github.com/toolgate/toolgate/internal/jsonin"
	"github.com/toolgate/toolgate/permission"
)

func (c *stage) checkURL(field, raw string) {
	u, err := url.Parse(raw)
	if err != nil {
		c.guardDeny(permission.LayerTraits, RuleURL, fmt.Sprintf("%s %q is not a URL", field, raw))
		return
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		c.guardDeny(permission.LayerTraits, RuleURLScheme, fmt.Sprintf("%s %q: only http and https URLs are allowed", field, raw))
		return
	}
	if u.Hostname() == "" {
		c.guardDeny(permission.LayerTraits, RuleURL, fmt.Sprintf("%s %q has no host", field, raw))
		return
	}
	host, err := canonicalHost(u.Hostname())
	if err != nil {
		c.guardDeny(permission.LayerTraits, RuleURLHost, fmt.Sprintf("%s %q: %v", field, raw, err))
		return
	}
	c.checkDomain(host)
	if why := internalHost(host); why != "" && !c.namesHost(host) {
		// The floor: a fetch inside the machine or its network asks,
		// firmly (no mode lifts it), unless a rule names the host.
		c.guardAsk(permission.LayerTraits, RuleNetworkInternal, fmt.Sprintf("%s %q reaches %s, %s; allow it with a rule naming the host (%s(domain:%s))", field, raw, host, why, c.call.Tool, host), true)
	}
}

func (c *stage) checkDomains(fields []jsonin.Member, f string) {
	raw, ok := jsonin.Field(fields, f)
	if !ok || string(raw) == "null" {
		return
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		if one != "" {
			c.checkDomainEntry(f, one)
		}
		return
	}
	var many []string
	if err := json.Unmarshal(raw, &many); err != nil {
		c.guardDeny(permission.LayerTraits, RuleFieldType, fmt.Sprintf("input field %q must be a host name or a list of them", f))
		return
	}
	for _, d := range many {
		c.checkDomainEntry(f, d)
	}
}

// checkDomainEntry brings one domain entry to the form domain rules are
// held against, as a URL's host is (see domainEntry), and checks it.
func (c *stage) checkDomainEntry(f, entry string) {
	host, err := domainEntry(entry)
	if err != nil {
		c.guardDeny(permission.LayerTraits, RuleDomain, fmt.Sprintf("%s entry %+q: %v", f, entry, err))
		return
	}
	if host != "" {
		c.checkDomain(host)
	}
}

func (c *stage) checkDomain(host string) {
	c.Domains = append(c.Domains, host)
	c.addRules(c.j.rulesFor(&permission.Request{Tool: c.call.Tool, Kind: c.call.Kind, Domain: host}))
}

// namesHost reports whether an allow rule naming the host (domain:host,
// or a wildcard over it), not only a rule for the whole tool, allows it.
func (c *stage) namesHost(host string) bool {
	r := c.j.rulesFor(&permission.Request{Tool: c.call.Tool, Kind: c.call.Kind, Domain: host, Specific: true})
	return r.Decision == permission.Allow && r.Source == permission.SourceAllow
}
