#!/usr/bin/env bash
# The forum's search and topic list on a large forum, measured by oha
# (crates.io: `cargo install oha`), run by hand (not part of the tests or CI).
#
# examples/forum_seed.rs fills a fresh database with 300 members, 2,000 topics and
# 100,000 posts (English-like text, five years of a club) through the server's store; a
# release server is started on it, and each request below is sent REQUESTS times over
# one connection, one after the other (a member searching, not a flood), after 20 of
# warm-up; oha prints each one's median and p99. Searches are a visitor's (the forum is
# public), so no session is looked up.
#
# Usage: bench/forum-search.sh [sqlite|postgres] [REQUESTS]   (default sqlite 300)
# postgres needs CHANCERY_BENCH_POSTGRES (or CHANCERY_TEST_POSTGRES), a server URL whose
# role may create databases; a database is made for the run and dropped after it.
# SERVER_BIN=path runs that server binary; NO_BUILD=1 skips the build; SEEDED=DATABASE
# measures a database seeded before (an SQLite path or a postgres:// URL, kept after the
# run) instead of seeding one. Needs oha on PATH (or OHA=/path/to/oha), python3, and psql
# for postgres.
set -euo pipefail
cd "$(dirname "$0")/.."
BACKEND=${1:-sqlite}
REQUESTS=${2:-300}
OHA=${OHA:-oha}
PORT=${PORT:-18790}
TARGET=${CARGO_TARGET_DIR:-target}
BIN=${SERVER_BIN:-$TARGET/release/chancery-server}
[ -n "${NO_BUILD:-}" ] || cargo build -q --release -p chancery-server --bin chancery-server --example forum_seed
DIR=$(mktemp -d)
PG_BASE=${CHANCERY_BENCH_POSTGRES:-${CHANCERY_TEST_POSTGRES:-}}
PG_NAME=chancery_forum_bench_$$
cleanup() {
  kill "${SERVER:-}" 2>/dev/null || true
  wait "${SERVER:-}" 2>/dev/null || true
  if [ "$BACKEND" = postgres ]; then psql -q "$PG_BASE" -c "DROP DATABASE IF EXISTS $PG_NAME WITH (FORCE)" || true; fi
  rm -rf "$DIR"
}
trap cleanup EXIT
if [ -n "${SEEDED:-}" ]; then
  DB=$SEEDED
  case "$DB" in postgres*) BACKEND=postgres-seeded ;; *) BACKEND=sqlite ;; esac
else
  case "$BACKEND" in
    sqlite) DB="$DIR/forum.db" ;;
    postgres)
      [ -n "$PG_BASE" ] || { echo "set CHANCERY_BENCH_POSTGRES to a PostgreSQL URL" >&2; exit 2; }
      psql -q "$PG_BASE" -c "CREATE DATABASE $PG_NAME"
      DB="${PG_BASE%/*}/$PG_NAME" ;;
    *) echo "usage: $0 [sqlite|postgres] [REQUESTS]" >&2; exit 2 ;;
  esac
  "$TARGET/release/examples/forum_seed" "$DB"
fi
# Fresh statistics for the planner, as autovacuum would gather on a forum that grew slowly.
case "$BACKEND" in postgres*) psql -q "$DB" -c "ANALYZE" ;; esac
"$BIN" --listen "127.0.0.1:$PORT" --database "$DB" --no-demo --rate 1000000 2>"$DIR/server.log" &
SERVER=$!
for _ in $(seq 1 300); do grep -q "listening on" "$DIR/server.log" && break; sleep 0.1; done
BASE="http://127.0.0.1:$PORT"

# name, path: one word (rarer, and among the commonest of the club's words), a phrase,
# an or-query, a left-out word, and the topic list's first and hundredth page.
QUERIES=(
  "one word (convoy)|/api/forum/search?q=convoy"
  "one common word (game)|/api/forum/search?q=game"
  "phrase (\"black sea\")|/api/forum/search?q=%22black%20sea%22"
  "or (armistice or stalemate)|/api/forum/search?q=armistice%20or%20stalemate"
  "two words, one left out (fleet -army)|/api/forum/search?q=fleet%20-army"
  "search page (HTML, convoy)|/forum/search?q=convoy"
  "topics, page 1|/api/forum/topics"
  "topics, page 60|/api/forum/topics?page=60"
)
echo "uptime before: $(uptime)"
printf '%-40s %8s %9s %9s %9s %8s\n' request found median p99 max requests
for q in "${QUERIES[@]}"; do
  name=${q%%|*}
  path=${q#*|}
  found=$(curl -s "$BASE$path" | python3 -c 'import json,sys
try:
    d = json.load(sys.stdin)
    print(len(d.get("found", d.get("topics", []))))
except ValueError:
    print("html")')
  "$OHA" -n 20 -c 1 --no-tui --output-format quiet "$BASE$path" >/dev/null 2>&1 || true
  "$OHA" -n "$REQUESTS" -c 1 --no-tui --output-format json "$BASE$path" >"$DIR/out.json"
  python3 - "$DIR/out.json" "$name" "$found" "$REQUESTS" <<'PY'
import json, sys
out, name, found, n = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
d = json.load(open(out))
p = d["latencyPercentiles"]
codes = d.get("statusCodeDistribution", {})
bad = {k: v for k, v in codes.items() if k != "200"}
ms = lambda s: f"{s * 1000:.2f} ms"
print(f"{name:<40} {found:>8} {ms(p['p50']):>9} {ms(p['p99']):>9} {ms(d['summary']['slowest']):>9} {n:>8}"
      + (f"  non-200: {bad}" if bad else ""))
PY
done
echo "uptime after:  $(uptime)"
