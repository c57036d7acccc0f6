#!/usr/bin/env bash
# Row 14's request (a store of its own over the app's, two registrations, `execute`, a handler with
# four `@Injected` properties read once), phase by phase. The phases are the functions of
# Sources/Benchmarks/RequestPhases.swift, none of them inlined, which call the library as row 14
# does (`--allocations requestphases`).
#
# - Instructions: callgrind collects only while one phase's function runs (`--toggle-collect`),
#   for 10,000 and 20,000 requests, and the difference is divided by 10,000, as in
#   count-instructions.sh. `execute` runs the handler's creation inside it, which is subtracted.
# - Allocations and frees: memcheck's totals for a request run up to the end of a phase
#   (`requestphasesN`, which keeps what is still alive until the process exits), 1,000 and 2,000
#   requests, divided as in count-allocations.sh, minus the same for the phase before.
#
# Needs valgrind. About 2 minutes. Run from anywhere:  bash Benchmarks/profile-request.sh
set -euo pipefail
cd "$(dirname "$0")"
# shellcheck source=release-binary.sh
. ./release-binary.sh
export SWIFT_DETERMINISTIC_HASHING=1

# The mangled name of the benchmark's function `$1` (its closures and thunks have other names).
symbol() {
    local names
    names=$(nm --defined-only "$binary" | awk '{ print $3 }' | grep -F "$1" || true)
    paste <(printf '%s\n' "$names") <(printf '%s\n' "$names" | swift demangle --compact) |
        awk -F '\t' -v prefix="Benchmarks.$1(" '{
            # The optimiser may keep only a specialised copy of the function; that copy is the phase.
            name = $2
            sub(/^function signature specialization <[^>]*> of /, "", name)
            if (index(name, prefix) == 1) print $1
        }'
}

# Instructions per request: of the whole run, or only inside the function named `$2`.
instructions() {
    local kind=$1 function=${2:-} options=() small large
    if [ -n "$function" ]; then
        local name
        name=$(symbol "$function")
        if [ -z "$name" ] || [ "$(printf '%s\n' "$name" | wc -l)" -ne 1 ]; then
            echo "no single symbol for $function" >&2
            exit 1
        fi
        options=(--collect-atstart=no "--toggle-collect=$name")
    fi
    run() {
        valgrind --tool=callgrind --callgrind-out-file=/dev/null "${options[@]}" \
            "$binary" --allocations "$kind" "$1" 2>&1 |
            sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
    }
    small=$(run 10000)
    large=$(run 20000)
    echo $(((large - small) / 10000))
}

# Allocations and frees per request, as "allocs frees".
heap() {
    run() {
        valgrind --tool=memcheck "$binary" --allocations "$1" "$2" 2>&1 |
            sed -n 's/.*total heap usage: \([0-9,]*\) allocs, \([0-9,]*\) frees.*/\1 \2/p' | tr -d ,
    }
    local small large
    small=$(run "$1" 1000)
    large=$(run "$1" 2000)
    awk -v small="$small" -v large="$large" 'BEGIN {
        split(small, s, " "); split(large, l, " ")
        printf "%.2f %.2f", (l[1] - s[1]) / 1000, (l[2] - s[2]) / 1000
    }'
}

labels=(
    "create the request store"
    "provide the two request values"
    "\`execute\`, in and out"
    "create four \`@Injected\` (the handler)"
    "first read of the two app singletons"
    "first read of the two request values"
    "release the handler"
    "release the request store"
)
functions=(
    requestPhaseCreateStore requestPhaseRegister requestPhaseExecute requestPhaseCreateHandler
    requestPhaseReadSingletons requestPhaseReadValues requestPhaseReleaseHandler requestPhaseReleaseStore
)

counts=()
for function in "${functions[@]}"; do
    counts+=("$(instructions requestphases "$function")")
done
# `execute` includes the handler made inside it.
counts[2]=$((counts[2] - counts[3]))

heaps=("0.00 0.00")
for phase in 1 2 3 4 5 6 7; do
    heaps+=("$(heap "requestphases$phase")")
done
heaps+=("$(heap requestphases)")

printf '| phase | instructions | allocations | frees |\n|---|---:|---:|---:|\n'
total=0
for index in "${!labels[@]}"; do
    read -r allocs frees <<<"${heaps[index + 1]}"
    read -r previous_allocs previous_frees <<<"${heaps[index]}"
    printf '| %s | %s | %s | %s |\n' "${labels[index]}" "${counts[index]}" \
        "$(awk -v a="$allocs" -v b="$previous_allocs" 'BEGIN { printf "%.2f", a - b }')" \
        "$(awk -v a="$frees" -v b="$previous_frees" 'BEGIN { printf "%.2f", a - b }')"
    total=$((total + counts[index]))
done
read -r allocs frees <<<"${heaps[8]}"
printf '| sum of the phases | %s | %s | %s |\n' "$total" "$allocs" "$frees"
printf '| the phased request, whole (`requestphases`) | %s | %s | %s |\n' "$(instructions requestphases)" "$allocs" "$frees"
read -r allocs frees <<<"$(heap request)"
printf '| row 14 (`request`), whole | %s | %s | %s |\n' "$(instructions request)" "$allocs" "$frees"
