// The Gemini CLI side of the bench module's comparison: Gemini CLI's own
// PolicyEngine (from @google/gemini-cli-core, installed by bench/run.sh)
// with Gemini CLI's default policies in the default approval mode,
// interactive, over a trusted workspace.
//
//   node driver.mjs PKGDIR WORKSPACE
//
// PKGDIR is the installed package (…/node_modules/@google/gemini-cli-core);
// WORKSPACE is the directory the engine takes commands to run in. The
// driver reads one JSON request a line on standard input and answers each
// with one JSON line on standard output:
//
//   {"command": "git status", "n": 0}   -> {"decision": "allow", "rss": 301989888}
//   {"command": "git status", "n": 500} -> {"decision": "allow", "ns": 123456789, "rss": 301989888}
//
// With n > 0 it checks the command n times in a loop and answers with the
// loop's time in nanoseconds (process.hrtime.bigint around the loop alone:
// no start, no reading or writing of the pipe). rss is the process's
// resident memory after the check: the engine's memory outside the JS heap
// grows with every shell command it checks (about 12 KB a check in
// 0.61.0), so that the Go side starts a fresh driver between benchmark
// runs before it grows large. An error is answered as {"error": "..."} and
// the driver goes on.
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [pkgDir, workspace] = process.argv.slice(2);
if (!pkgDir || !workspace) {
  process.stderr.write('usage: node driver.mjs PKGDIR WORKSPACE\n');
  process.exit(2);
}
// Gemini CLI routes its core's debug output through a console patcher that
// drops it unless the CLI runs in debug mode; the engine logs through
// console.debug on every check. Dropped here too, so that the answers alone
// reach standard output.
console.debug = () => {};
console.log = () => {};
console.info = () => {};

const load = (rel) => import(pathToFileURL(path.join(pkgDir, 'dist', 'src', rel)).href);
const { PolicyEngine } = await load('policy/policy-engine.js');
const { createPolicyEngineConfig, DEFAULT_CORE_POLICIES_DIR } = await load('policy/config.js');
const { ApprovalMode } = await load('policy/types.js');
const { NoopSandboxManager } = await load('services/sandboxManager.js');

// The same configuration Gemini CLI builds with no settings of the user's:
// its default policies (policy/policies/*.toml), the default approval mode.
const config = await createPolicyEngineConfig({}, ApprovalMode.DEFAULT, DEFAULT_CORE_POLICIES_DIR, true);
const engine = new PolicyEngine({
  ...config,
  sandboxManager: new NoopSandboxManager({ workspace }),
  isTrustedFolder: () => true,
});

const call = (command) => ({ name: 'run_shell_command', args: { command } });

async function answer(req) {
  const tc = call(req.command);
  const first = await engine.check(tc);
  const n = req.n | 0;
  if (n <= 0) return { decision: first.decision, rss: process.memoryUsage.rss() };
  const t0 = process.hrtime.bigint();
  let d;
  for (let i = 0; i < n; i++) {
    d = (await engine.check(tc)).decision;
  }
  const ns = process.hrtime.bigint() - t0;
  if (d !== first.decision) return { error: `decision changed from ${first.decision} to ${d}` };
  return { decision: d, ns: Number(ns), rss: process.memoryUsage.rss() };
}

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let out;
  try {
    out = await answer(JSON.parse(line));
  } catch (e) {
    out = { error: String(e?.stack ?? e) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}
