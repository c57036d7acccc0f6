#!/usr/bin/env bash
# Counts instructions per operation, which do not drift with the machine's load as times do: runs
# each operation 10,000 and 20,000 times under valgrind's callgrind and divides the difference of
# the two totals by 10,000, so that start-up and set-up cancel out. Hashing is made deterministic,
# since the per-process hash seed moves a lookup by 10 to 20 instructions. Needs valgrind.
# Run from anywhere:  bash Benchmarks/count-instructions.sh [kind ...]   (all kinds by default)
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=release-binary.sh
. ./release-binary.sh
export SWIFT_DETERMINISTIC_HASHING=1

instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$binary" --allocations "$1" "$2" 2>&1 |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

printf '| operation | instructions per operation |\n|---|---:|\n'
# The kinds named on the command line, or else all of them.
kinds=("$@")
if [ ${#kinds[@]} -eq 0 ]; then
    kinds=(singleton observed seed graph seedgraph injected plaininjected createonly create execute withdependencies request asyncrequest swinjectrequest dependenciesrequest handwiredrequest floorrequest floor floorclosure)
fi
for kind in "${kinds[@]}"; do
    small=$(instructions "$kind" 10000)
    large=$(instructions "$kind" 20000)
    printf '| %s | %s |\n' "$kind" "$(( (large - small) / 10000 ))"
done
