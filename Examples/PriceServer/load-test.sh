#!/usr/bin/env bash
# Load test: the price server wired through a store per request against its hand-wired twin, with
# wrk on loopback, in one run. Prints requests per second and the 99th-percentile latency of each.
#
# Usage: Examples/PriceServer/load-test.sh     (from anywhere; about 3 minutes after the build)
#   THREADS=2 CONNECTIONS=32 DURATION=10 ROUNDS=3 to change wrk's load and the number of rounds;
#   ENDPOINTS="/price?currency=USD" to load only the price.
#
# Both servers run the release build with --demo (no network), on free loopback ports. The demo
# price is the endpoint of interest; /token, which formats nothing, shows what the store costs
# where the handler itself costs little. Each round loads the store-wired server and then the twin
# on each endpoint, after a warm-up; rounds alternate so that a change in the machine's load falls
# on both. wrk and the servers share the machine's cores, so compare the lines of one run, not
# figures from two machines or two runs. The server's CPU time per request (user + system, from
# /proc, so on Linux only) is the figure least moved by other work on the machine.
set -euo pipefail
cd "$(dirname "$0")"

THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-3}
ENDPOINTS=${ENDPOINTS:-"/price?currency=USD /token"}
LISTEN_SECONDS=60

if ! command -v swift >/dev/null 2>&1; then
    # shellcheck disable=SC1091
    . /etc/profile
fi
if ! command -v wrk >/dev/null 2>&1; then
    echo "wrk is missing: installing it from Debian's packages" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get install -y wrk >/dev/null || { $sudo apt-get update >/dev/null && $sudo apt-get install -y wrk >/dev/null; }
fi

swift build -c release --product price-server >&2
server="$(swift build -c release --show-bin-path)/price-server"

work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do
        kill -TERM "$pid" 2>/dev/null || true
    done
    # A graceful stop takes a moment; after 10 s, no more.
    local deadline=$((SECONDS + 10))
    for pid in "${pids[@]}"; do
        while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do
            sleep 0.1
        done
        kill -KILL "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap cleanup EXIT

# Starts the server with "$@" and sets $port to the port it listens on.
start() {
    local name=$1
    shift
    : >"$work/$name.stdout"
    "$server" --demo --hostname 127.0.0.1 --port 0 "$@" >"$work/$name.stdout" 2>"$work/$name.stderr" &
    pids+=($!)
    local deadline=$((SECONDS + LISTEN_SECONDS))
    port=""
    while [ -z "$port" ]; do
        port=$(sed -n 's/^listening on 127\.0\.0\.1:\([0-9][0-9]*\)$/\1/p' "$work/$name.stdout")
        [ -n "$port" ] && break
        if [ "$SECONDS" -ge "$deadline" ]; then
            echo "price-server $* printed no 'listening on' line within ${LISTEN_SECONDS} s" >&2
            cat "$work/$name.stderr" >&2
            exit 1
        fi
        sleep 0.1
    done
}

# The CPU time the process $1 has used, user and system, in clock ticks; empty without /proc.
cpu_ticks() {
    [ -r "/proc/$1/stat" ] || return 0
    # The fields after the command's name, which is in parentheses: utime and stime are 12 and 13.
    sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
ticks_per_second=$(getconf CLK_TCK 2>/dev/null || echo 100)

# Loads path $3 of the server on port $2 (process $5) for $4 seconds and sets $rate (requests/s),
# $p99 and $cpu (the server's CPU microseconds per request, or n/a).
load() {
    local name=$1 port=$2 path=$3 seconds=$4 pid=$5 output before after requests
    before=$(cpu_ticks "$pid")
    output=$(timeout $((seconds + 30)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${seconds}s" --timeout 2s --latency \
        "http://127.0.0.1:$port$path")
    after=$(cpu_ticks "$pid")
    if grep -q -e "Non-2xx" -e "Socket errors" <<<"$output"; then
        echo "$name: wrk saw failed requests:" >&2
        echo "$output" >&2
        exit 1
    fi
    rate=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
    p99=$(awk '$1 == "99%" { print $2 }' <<<"$output")
    requests=$(awk '/ requests in / { print $1 }' <<<"$output")
    cpu=n/a
    if [ -n "$before" ] && [ -n "$after" ] && [ "${requests:-0}" -gt 0 ]; then
        cpu=$(awk -v t=$((after - before)) -v hz="$ticks_per_second" -v n="$requests" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }')
    fi
    if [ -z "$rate" ] || [ -z "$p99" ]; then
        echo "$name: no requests/s or p99 in wrk's output:" >&2
        echo "$output" >&2
        exit 1
    fi
}

start store
store_port=$port
store_pid=${pids[-1]}
start hand --hand-wired
hand_port=$port
hand_pid=${pids[-1]}
echo "store-wired on port $store_port, hand-wired on port $hand_port;" \
    "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s --latency, $ROUNDS rounds of: $ENDPOINTS" >&2
for path in $ENDPOINTS; do
    load store "$store_port" "$path" 3 "$store_pid"
    load hand "$hand_port" "$path" 3 "$hand_pid"
done

printf '| round | endpoint | server | requests/s | p99 latency | server CPU µs/request |\n'
printf '|---:|---|---|---:|---:|---:|\n'
declare -A totals
for round in $(seq 1 "$ROUNDS"); do
    for path in $ENDPOINTS; do
        load store "$store_port" "$path" "$DURATION" "$store_pid"
        printf '| %d | `%s` | store per request | %s | %s | %s |\n' "$round" "$path" "$rate" "$p99" "$cpu"
        totals["store $path"]=$(awk -v a="${totals["store $path"]:-0}" -v b="$rate" 'BEGIN { print a + b }')
        load hand "$hand_port" "$path" "$DURATION" "$hand_pid"
        printf '| %d | `%s` | hand-wired | %s | %s | %s |\n' "$round" "$path" "$rate" "$p99" "$cpu"
        totals["hand $path"]=$(awk -v a="${totals["hand $path"]:-0}" -v b="$rate" 'BEGIN { print a + b }')
    done
done
echo
for path in $ENDPOINTS; do
    awk -v p="$path" -v s="${totals["store $path"]}" -v h="${totals["hand $path"]}" -v n="$ROUNDS" 'BEGIN {
        printf "%s mean requests/s: store per request %.0f, hand-wired %.0f; store/hand %.2fx\n", p, s / n, h / n, s / h
    }'
done
