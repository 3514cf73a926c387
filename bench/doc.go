// Package bench compares toolgate's rule checker with the policy engines a
// Go program would otherwise use — casbin, cedar-go and OPA (Rego) — on the
// same decisions.
//
// # One policy, four languages
//
// [Policy] generates a policy of n rules over tool names and argument
// patterns: shell command prefixes and exact commands, path trees and file
// extensions, domains and subdomains, tool-name patterns and bare tools.
// Each rule is Allow, Ask or Deny; a Deny overrides an Ask, an Ask overrides
// an Allow, and a call no rule matches is an Ask. [Calls] generates calls
// over that policy: calls that a rule matches, near misses, and calls of
// other tools.
//
// Each engine renders the policy in its own language and gets each call in
// its own input form, built before any timing starts, so that a benchmark
// measures the decision alone:
//
//   - toolgate: a [permission.Config] of rules in Claude Code syntax.
//   - casbin: a model with the deny-override effect
//     some(where (p.eft == allow)) && !some(where (p.eft == deny)) and a
//     policy CSV matched with keyMatch and regexMatch. Ask has no effect of
//     its own in casbin: an ask row has the deny effect and a fourth column
//     "ask", and the ask rows come after the deny rows, so the deny-override
//     effect's explanation (EnforceEx) names a deny row whenever one matches
//     and an ask row otherwise.
//   - cedar-go: permit and forbid policies. Ask is a forbid annotated
//     @decision("ask"): a Deny whose determining policies are all such
//     forbids is an Ask.
//   - OPA: a Rego package whose decision is "allow", "ask" or "deny", asked
//     through a prepared query.
//
// [Toolgate], [Casbin], [Cedar] and [Rego] each build an engine for a
// policy and a list of calls; Decide answers for one call by its index.
// The tests assert that every engine gives the same decision for every
// call before the benchmarks time them.
package bench
