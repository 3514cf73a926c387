#!/usr/bin/env bash
# Installs @google/gemini-cli-core at bench.GeminiVersion (gemini.go), once,
# into $TOOLGATE_BENCH_CACHE (default ~/.cache/toolgate-bench), and prints
# the installed package's directory, for TOOLGATE_BENCH_GEMINI. Progress
# goes to standard error.
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^const GeminiVersion = "\(.*\)"$/\1/p' gemini.go)
[ -n "$version" ] || { echo "gemini/install.sh: no GeminiVersion in gemini.go" >&2; exit 1; }
cache=${TOOLGATE_BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/toolgate-bench}
dir="$cache/gemini-cli-core-$version"
pkg="$dir/node_modules/@google/gemini-cli-core"
if [ "$(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$pkg/package.json" 2>/dev/null)" != "$version" ]; then
	echo "installing @google/gemini-cli-core@$version into $dir" >&2
	mkdir -p "$dir"
	npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error "@google/gemini-cli-core@$version" >&2
fi
echo "$pkg"
