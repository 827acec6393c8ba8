#!/usr/bin/env bash
# Latency at a constant request rate with the README's mix, measured by oha (crates.io:
# `cargo install oha`), run by hand (not part of the tests or CI). oha sends on a fixed
# schedule and, with --latency-correction, counts each request from when it was due, so
# a server that stalls cannot hide its backlog (a closed-loop client would wait politely
# and report a short tail).
#
# The mix, as bench/load.sh's clients send it: 30% read one's orders, 25% replace them,
# 15% read the game, 10% send press, 20% poll press with `since_ms`. oha sends one kind
# of request per process, so each kind runs in processes of at most 150 requests/s, each
# as a player of its own (below the server's 200 requests/s per client).
#
# oha sends the same URL every time, so a poll cannot carry the time of the last message
# seen, as a page's (and bench/load.sh's clients') does. The polls name the moment the
# run starts and the press is sent in games no poller plays in: each poll finds nothing
# new, the common case for a page polling every few seconds. (Polling the game the press
# goes to with a fixed `since_ms` would instead fetch a full page, the newest 100
# messages, on nearly every poll: a measure of that one request, not of the mix.)
#
# Usage: bench/load-oha.sh [RATE] [SECONDS] [CONNECTIONS]   (default 1500 60 200)
# CAPACITY=1 adds a closed-loop run of the same mix over every seat with wrk (Debian's;
# bench/load-mix.lua); SKIP_OHA=1 leaves the paced run out; SERVER_BIN=path runs that
# server binary (to compare two builds) instead of building this tree's. Needs oha on
# PATH (or OHA=/path/to/oha) and python3.
#
# The database: a fresh SQLite file (synchronous=FULL, the server's default) unless
# DATABASE=postgres://USER:PASSWORD@HOST:PORT/DB names a PostgreSQL server; the script
# then creates a database of its own there (the role needs CREATEDB: /work/wt/pg-setup.sh
# makes one) and drops it at the end, so every run starts empty.
#
# A figure taken while other work shares the cores measures the other work: the script
# refuses to run while the 1-minute load average is 1 or more (FORCE=1 runs anyway,
# and the printed load averages then say what the figures are worth).
set -euo pipefail
cd "$(dirname "$0")/.."
RATE=${1:-1500}
SECONDS_=${2:-60}
CONNECTIONS=${3:-200}
OHA=${OHA:-oha}
PORT=${PORT:-18789}
TARGET=${CARGO_TARGET_DIR:-target}
BIN=${SERVER_BIN:-$TARGET/release/chancery-server}
quiet() {
  local load
  load=$(cut -d' ' -f1 /proc/loadavg)
  if [ -z "${FORCE:-}" ] && awk -v l="$load" 'BEGIN { exit !(l >= 1) }'; then
    echo "load average $load (>= 1): the machine is not quiet, so the figures would measure the other work; not running (FORCE=1 to run anyway)" >&2
    exit 3
  fi
}
quiet
# After a build the load takes a minute or two to fall: wait for it (QUIET_WAIT seconds,
# default 300), then refuse as above.
wait_quiet() {
  local until=$((SECONDS + ${QUIET_WAIT:-300}))
  while [ -z "${FORCE:-}" ] && [ $SECONDS -lt $until ] && awk -v l="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN { exit !(l >= 1) }'; do
    sleep 10
  done
  quiet
}
[ -n "${NO_BUILD:-}" ] || [ -n "${SERVER_BIN:-}" ] || cargo build -q --release -p chancery-server --bin chancery-server
DIR=$(mktemp -d)
DB="$DIR/load.db"
DROP=""
case "${DATABASE:-}" in
  postgres://*|postgresql://*)
    NAME="chancery_load_$$"
    psql -q "$DATABASE" -c "CREATE DATABASE $NAME" >/dev/null
    DB="${DATABASE%/*}/$NAME"
    DROP="$NAME"
    ;;
  "") ;;
  *) echo "DATABASE must be a postgres:// URL (SQLite is the default)" >&2; exit 2 ;;
esac
cleanup() {
  kill "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  if [ -n "$DROP" ]; then psql -q "$DATABASE" -c "DROP DATABASE IF EXISTS $DROP" >/dev/null || true; fi
  rm -rf "$DIR"
}
trap cleanup EXIT
echo "database: $(case "$DB" in postgres*) echo "PostgreSQL ($DROP)";; *) echo "SQLite ($DB)";; esac)"
"$BIN" --listen "127.0.0.1:$PORT" --database "$DB" --no-demo 2>"$DIR/server.log" &
SERVER=$!
for _ in $(seq 1 100); do grep -q "listening on" "$DIR/server.log" && break; sleep 0.1; done

# Setup: CONNECTIONS players seated seven to a game (as many as bench/load.sh's
# clients), a file of them for wrk, and one oha command line per process, each process
# with a seat of its own.
python3 - "http://127.0.0.1:$PORT" "$RATE" "$CONNECTIONS" "$DIR" <<'PY'
import json, math, sys, time, urllib.error, urllib.request

base, rate, connections, out = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]

def call(method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    for _ in range(100):
        req = urllib.request.Request(base + path, method=method, data=data)
        req.add_header("content-type", "application/json")
        if token:
            req.add_header("authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(req) as r:
                return json.load(r)
        except urllib.error.HTTPError as e:
            if e.code not in (429, 503):  # the server's limits say wait
                raise
            time.sleep(0.2)
    raise SystemExit(f"{method} {path}: still refused")

def register(name):
    return call("POST", "/api/register", {"name": name, "password": "load test password"})["token"]

KINDS = [("orders-read", 30), ("orders-write", 25), ("game-read", 15), ("press-send", 10), ("press-poll", 20)]
processes = [(kind, share, i, n) for kind, share in KINDS
             for n in [max(1, math.ceil(rate * share / 100 / 150))] for i in range(n)]
gm = register("load-gm")
seats, game, free = [], None, []
for k in range(max(connections, len(processes))):
    if not free:
        game = call("POST", "/api/games", {"name": f"load {k}"}, gm)
        free = [p["name"] for p in game["powers"] if p["playable"]][::-1]
    power = free.pop()
    token = register(f"load-{k}")
    call("POST", f"/api/games/{game['id']}/join", {"power": power}, token)
    units = [f"{u['type']} {u['location']} H" for u in game["state"]["units"] if u["power"] == power]
    seats.append({"token": token, "game": game["id"], "other": "England" if power != "England" else "France",
                  # The games keep their first phase for the run (deadlines a day away).
                  "orders": json.dumps({"orders": units, "replace": True, "seq": 0})})
# A full game has started by itself; the last may have vacant powers: start it anyway.
if len(seats) % 7:
    call("POST", f"/api/games/{seats[-1]['game']}/gm/start", {}, gm)
since = int(time.time() * 1000)
with open(f"{out}/seats.lua", "w") as f:
    f.write("return {\n" + "".join(
        "{token=%s, game=\"%d\", orders=%s, other=%s},\n"
        % (json.dumps(s["token"]), s["game"], json.dumps(s["orders"]), json.dumps(s["other"]))
        for s in seats) + "}\n")
with open(f"{out}/since", "w") as f:
    f.write(str(since))
with open(f"{out}/processes", "w") as f:
    for j, (kind, share, i, n) in enumerate(processes):
        # The press is sent from the last seats, in games of their own (see above).
        s = seats[-1 - i] if kind == "press-send" else seats[j]
        gid = s["game"]
        method, path, body = {
            "orders-read": ("GET", f"/api/games/{gid}/orders", None),
            "orders-write": ("POST", f"/api/games/{gid}/orders", s["orders"]),
            "game-read": ("GET", f"/api/games/{gid}", None),
            "press-send": ("POST", f"/api/games/{gid}/press",
                           json.dumps({"to": [s["other"]], "body": "load test message"})),
            "press-poll": ("GET", f"/api/games/{gid}/press?since_ms={since}", None),
        }[kind]
        body_file = "-"  # a field of its own: read would merge two tabs around an empty one
        if body is not None:
            body_file = f"{out}/{kind}-{i}.json"
            with open(body_file, "w") as b:
                b.write(body)
        conns = max(1, round(connections * share / 100 / n))
        f.write("\t".join([f"{kind}-{i}", method, base + path, s["token"], body_file,
                           f"{rate * share / 100 / n:.2f}", str(conns)]) + "\n")
PY

if [ -z "${SKIP_OHA:-}" ]; then
wait_quiet
echo "uptime before: $(uptime)"
PIDS=()
while IFS=$'\t' read -r name method url token body rate conns; do
  args=(-z "${SECONDS_}s" -q "$rate" -c "$conns" --latency-correction --no-tui --output-format csv
        --worker-threads 1 -m "$method" -H "Authorization: Bearer $token")
  if [ "$body" != "-" ]; then args+=(-D "$body" -T application/json); fi
  "$OHA" "${args[@]}" "$url" >"$DIR/$name.csv" 2>"$DIR/$name.err" &
  PIDS+=($!)
done <"$DIR/processes"
wait "${PIDS[@]}"
echo "uptime after:  $(uptime)"

python3 - "$DIR" "$RATE" "$SECONDS_" "$CONNECTIONS" <<'PY'
import csv, glob, os, sys
out, rate, secs, conns = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]

def pct(v, p):
    return v[min(len(v) - 1, round((len(v) - 1) * p))] if v else float("nan")

# oha's CSV lists every answered request with its status; a request that got no answer
# is not in it, and shows as a shortfall from the rate.
every, kinds, bad = [], {}, 0
for path in sorted(glob.glob(f"{out}/*.csv")):
    kind = os.path.basename(path)[:-4].rsplit("-", 1)[0]
    with open(path) as f:
        for r in csv.DictReader(f):
            ms = float(r["request-duration"]) * 1000
            every.append(ms)
            kinds.setdefault(kind, []).append(ms)
            if not r["status"].startswith("2"):
                bad += 1
every.sort()
if not every:
    sys.exit("oha recorded no answers: see the .err files")
print(f"oha, {conns} connections, {secs:.0f} s, target {rate:.0f} requests/s: "
      f"{len(every)} answered ({len(every) / secs:.0f}/s), p50 {pct(every, .5):.2f} ms, "
      f"p99 {pct(every, .99):.2f} ms, p99.9 {pct(every, .999):.2f} ms, max {every[-1]:.1f} ms, "
      f"non-2xx {bad}")
for kind, v in kinds.items():
    v.sort()
    print(f"  {kind:13} {len(v):7} answered, p50 {pct(v, .5):.2f} ms, p99 {pct(v, .99):.2f} ms")
PY
fi

# Capacity: the same mix closed loop (each connection sends again once answered) with
# wrk over every seat; latency then is connections / throughput and says little.
if [ -n "${CAPACITY:-}" ]; then
  echo "uptime before wrk: $(uptime)"
  wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_}s" -s ${MIX:-bench/load-mix.lua} "http://127.0.0.1:$PORT" \
    -- "$DIR/seats.lua" "$(cat "$DIR/since")" | tail -n"${WRK_LINES:-1}"
fi
