#!/usr/bin/env bash
# Runs every benchmark of the bench module COUNT (6) times, and toolgate
# exec against the bare command (BenchmarkConfinedCommand), then prints the
# machine, benchstat tables, and how many times faster toolgate decides
# than casbin, cedar-go and OPA, and than Gemini CLI's PolicyEngine on the
# 40 commands of testdata/commands.jsonl, with the targets met or missed.
#
# Gemini CLI's engine comes from npm (@google/gemini-cli-core at the
# version of bench.GeminiVersion), installed first, once, by
# gemini/install.sh into $TOOLGATE_BENCH_CACHE (default
# ~/.cache/toolgate-bench); nothing is downloaded while the tests and
# benchmarks run.
#
#   bench/run.sh                 # results in bench/results.txt and bench/packages.txt
#   COUNT=1 PKGCOUNT=1 BENCHTIME=0.1s bench/run.sh   # a quick look
#
# It then writes README's performance section (between <!-- bench:begin -->
# and <!-- bench:end -->) from these results, with the machine and the date;
# README=none leaves README alone.
set -euo pipefail
cd "$(dirname "$0")"
count=${COUNT:-6}
benchtime=${BENCHTIME:-0.5s}
out=${OUT:-results.txt}
pkgcount=${PKGCOUNT:-10}
pkgout=${PKGOUT:-packages.txt}
confout=${CONFOUT:-confine.txt}
confbench=${CONFBENCH:-40x}
NPROC=$(nproc)
export NPROC
readme=${README:-../README.md}

TOOLGATE_BENCH_GEMINI=$(gemini/install.sh)
export TOOLGATE_BENCH_GEMINI
echo "gemini-cli-core: $TOOLGATE_BENCH_GEMINI (node $(node --version))"

echo "== equivalence: every engine gives the same decisions; Gemini CLI's and toolgate's decisions on the command table"
go test -count=1 -run 'Equivalence|GeminiCommands' .

echo "== benchmarks (-count=$count -benchtime=$benchtime), raw results in $out"
go test -run '^$' -bench . -benchmem -count="$count" -benchtime="$benchtime" -timeout 60m . >"$out"

echo "== the library packages' side-by-side benchmarks (-count=$pkgcount), raw results in $pkgout"
(cd .. && go test -run '^$' -benchmem -count="$pkgcount" -timeout 60m \
	-bench '^(BenchmarkPipelineRead|BenchmarkPipelineBash|BenchmarkPipelineExecutor)$' ./runtime &&
	go test -run '^$' -benchmem -count="$pkgcount" -bench '^BenchmarkPreToolUseNoop3(Timed|Inline)$' ./hooks &&
	go test -run '^$' -benchmem -count="$pkgcount" -bench '^BenchmarkJudgeVsParse$' ./bashguard) >"$pkgout"

echo "== confinement: ls src bare and through toolgate exec, alternating, raw results in $confout"
# Whole processes, as Claude Code runs them, in a small project and a
# generated one of 100,000 entries; cmd/ratios holds the targets (at most
# 5 ms added in the small one, and at most 1.2 times that in the large
# one) and writes the table into README.
(cd .. && go test -run '^$' -bench '^BenchmarkConfinedCommand$' -benchtime="$confbench" -count=1 -timeout 30m ./cmd/toolgate) >"$confout"
grep '^BenchmarkConfinedCommand/' "$confout" || echo "confinement: no figures (skipped?)"

echo
echo "== machine"
echo "cpus: $(nproc)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
go version
echo
echo "== one decision, by policy size and engine"
go tool benchstat -filter '.name:Decision' -row /rules -col /engine "$out"
echo
echo "== toolgate at 50 and at 10,000 rules, alternating in one loop"
go tool benchstat -filter '.name:DecisionRatio' "$out"
echo
echo "== Pipeline.Check, every layer in order"
go tool benchstat -filter '.name:Pipeline' "$out"
echo
echo "== bashguard.Judge against the bare parse"
go tool benchstat -filter '.name:Shell' -row /script -col /impl "$out"
echo
echo "== sandbox.Resolve against EvalSymlinks+Lstat"
go tool benchstat -filter '.name:Resolve' -col /impl "$out"
echo
echo "== Gemini CLI's PolicyEngine against Pipeline.Check, side by side"
go tool benchstat -filter '.name:Gemini' -row /cmd "$out"
echo
echo "== ratios"
if [ "$readme" = none ]; then
	go run ./cmd/ratios -confine "$confout" "$out"
else
	go run ./cmd/ratios -readme "$readme" -packages "$pkgout" -confine "$confout" "$out"
	echo "README's performance section written to $readme"
fi
