#!/usr/bin/env bash
# Load benchmark for the club server, run by hand (not part of the tests): starts a
# release server on a fresh SQLite file on loopback, then 200 clients submit, replace
# and read orders and press for 60 s. Usage: bench/load.sh [CLIENTS] [SECONDS] [RATE]
# Without RATE each client sends again as soon as it is answered (saturation); with RATE
# the clients together send RATE requests/s on random schedules (latency at that load).
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTS=${1:-200}
SECONDS_=${2:-60}
RATE=${3:-}
PORT=${PORT:-18787}
TARGET=${CARGO_TARGET_DIR:-target}
[ -n "${NO_BUILD:-}" ] || cargo build -q --release -p chancery-server --bin chancery-server --example load
DIR=$(mktemp -d)
trap 'kill "$SERVER" 2>/dev/null || true; rm -rf "$DIR"' EXIT
"$TARGET"/release/chancery-server --listen "127.0.0.1:$PORT" --database "$DIR/load.db" --no-demo 2>"$DIR/server.log" &
SERVER=$!
for _ in $(seq 1 100); do grep -q "listening on" "$DIR/server.log" && break; sleep 0.1; done
"$TARGET"/release/examples/load "http://127.0.0.1:$PORT" "$CLIENTS" "$SECONDS_" $RATE
