#!/usr/bin/env bash
# Load test: the price server wired through a store per request against its hand-wired twin, with
# wrk on loopback, in one run. Prints requests per second and the 99th-percentile latency of each.
#
# Usage: Examples/PriceServer/load-test.sh     (from anywhere; about 2 minutes after the build)
#   THREADS=2 CONNECTIONS=32 DURATION=10 ROUNDS=2 to change wrk's load and the number of rounds;
#   ENDPOINTS="/price?currency=USD" to load only the price.
#
# Both servers run the release build with --demo (no network), on free loopback ports. The demo
# price is the endpoint of interest; /token, which formats nothing, shows what the store costs
# where the handler itself costs little. Each round loads the store-wired server and then the twin
# on each endpoint, after a warm-up; rounds alternate so that a change in the machine's load falls
# on both. wrk and the servers share the machine's cores, so compare the lines of one run, not
# figures from two machines or two runs.
set -euo pipefail
cd "$(dirname "$0")"

THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-2}
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

# Loads path $3 of the server on port $2 for $4 seconds and sets $rate (requests/s) and $p99.
load() {
    local name=$1 port=$2 path=$3 seconds=$4 output
    output=$(timeout $((seconds + 30)) wrk -t"$THREADS" -c"$CONNECTIONS" -d"${seconds}s" --timeout 2s --latency \
        "http://127.0.0.1:$port$path")
    if grep -q -e "Non-2xx" -e "Socket errors" <<<"$output"; then
        echo "$name: wrk saw failed requests:" >&2
        echo "$output" >&2
        exit 1
    fi
    rate=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$output")
    p99=$(awk '$1 == "99%" { print $2 }' <<<"$output")
    if [ -z "$rate" ] || [ -z "$p99" ]; then
        echo "$name: no requests/s or p99 in wrk's output:" >&2
        echo "$output" >&2
        exit 1
    fi
}

start store
store_port=$port
start hand --hand-wired
hand_port=$port
echo "store-wired on port $store_port, hand-wired on port $hand_port;" \
    "wrk -t$THREADS -c$CONNECTIONS -d${DURATION}s --latency, $ROUNDS rounds of: $ENDPOINTS" >&2
for path in $ENDPOINTS; do
    load store "$store_port" "$path" 3
    load hand "$hand_port" "$path" 3
done

printf '| round | endpoint | server | requests/s | p99 latency |\n|---:|---|---|---:|---:|\n'
declare -A totals
for round in $(seq 1 "$ROUNDS"); do
    for path in $ENDPOINTS; do
        load store "$store_port" "$path" "$DURATION"
        printf '| %d | `%s` | store per request | %s | %s |\n' "$round" "$path" "$rate" "$p99"
        totals["store $path"]=$(awk -v a="${totals["store $path"]:-0}" -v b="$rate" 'BEGIN { print a + b }')
        load hand "$hand_port" "$path" "$DURATION"
        printf '| %d | `%s` | hand-wired | %s | %s |\n' "$round" "$path" "$rate" "$p99"
        totals["hand $path"]=$(awk -v a="${totals["hand $path"]:-0}" -v b="$rate" 'BEGIN { print a + b }')
    done
done
echo
for path in $ENDPOINTS; do
    awk -v p="$path" -v s="${totals["store $path"]}" -v h="${totals["hand $path"]}" -v n="$ROUNDS" 'BEGIN {
        printf "%s mean requests/s: store per request %.0f, hand-wired %.0f; store/hand %.2fx\n", p, s / n, h / n, s / h
    }'
done
