#!/usr/bin/env bash
# Counts heap allocations per operation: runs each operation 1,000 and 2,000 times under
# valgrind's memcheck and divides the difference of the two totals by 1,000, so that start-up and
# set-up cancel out. Needs valgrind. Run from anywhere:
#   bash Benchmarks/count-allocations.sh [kind ...]   (all kinds by default)
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=release-binary.sh
. ./release-binary.sh

allocations() {
    valgrind --tool=memcheck "$binary" --allocations "$1" "$2" 2>&1 |
        sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}

printf '| operation | allocations per operation |\n|---|---:|\n'
# The kinds named on the command line, or else all of them.
kinds=("$@")
if [ ${#kinds[@]} -eq 0 ]; then
    kinds=(singleton seed graph seedgraph injected plaininjected createonly create execute withdependencies request asyncrequest swinjectrequest dependenciesrequest floor floorclosure)
fi
for kind in "${kinds[@]}"; do
    small=$(allocations "$kind" 1000)
    large=$(allocations "$kind" 2000)
    printf '| %s | %s |\n' "$kind" "$(awk -v a="$small" -v b="$large" 'BEGIN { printf "%.2f", (b - a) / 1000 }')"
done
