#!/usr/bin/env bash
# Runs every benchmark of the bench module COUNT (6) times, then prints the
# machine, benchstat tables, and how many times faster toolgate decides
# than casbin, cedar-go and OPA, with the targets met or missed.
#
#   bench/run.sh                 # results in bench/results.txt
#   COUNT=1 BENCHTIME=0.1s bench/run.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")"
count=${COUNT:-6}
benchtime=${BENCHTIME:-0.5s}
out=${OUT:-results.txt}

echo "== equivalence: every engine gives the same decisions"
go test -count=1 -run Equivalence .

echo "== benchmarks (-count=$count -benchtime=$benchtime), raw results in $out"
go test -run '^$' -bench . -benchmem -count="$count" -benchtime="$benchtime" -timeout 60m . >"$out"

echo
echo "== machine"
echo "cpus: $(nproc)"
echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
go version
echo
echo "== one decision, by policy size and engine"
go tool benchstat -filter '.name:Decision' -row /rules -col /engine "$out"
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
echo "== ratios"
go run ./cmd/ratios "$out"
