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
//
// # Against Gemini CLI
//
// BenchmarkGemini compares whole shell-command checks with another
// agent's: Gemini CLI's PolicyEngine (the package @google/gemini-cli-core
// at [GeminiVersion], which bench/run.sh installs from npm) with Gemini
// CLI's default policies in its default approval mode, and toolgate's
// Pipeline.Check behind runtime.Open with the defaults the toolgate
// check hook starts from, over the same git repository on disk. The 40
// commands of testdata/commands.jsonl come in six classes (safe reads, git
// reads, writes in the workspace, network, dangerous commands, compound
// commands and scripts); each row also holds the decision each engine
// gives, which TestGeminiCommands asserts. The engines disagree on many
// rows — Gemini CLI asks about every compound command and never denies —
// and the table records both.
//
// Gemini's engine runs in a node process of its own, gemini/driver.mjs,
// started once and kept alive; [Gemini] asks it over standard input and
// output. Each round of the benchmark has the driver check a command a few
// times in its own loop, timed inside node, and Pipeline.Check do the same
// in Go, timed in Go, the order swapped every round: both sides see the
// same load, and neither process start nor the pipe is counted.
package bench
