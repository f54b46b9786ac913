#!/bin/bash
# docs/BENCHMARKS.md, "Half of what the machine can do" (issue 20): one
# server (release build) on a fresh durable SQLite file (or the database
# in DATABASE_URL), then splendor-loadgen against it with the given
# arguments. The server runs on core 0 and the load generator on core 1
# (taskset), so that neither takes the other's CPU and runs compare.
# With RELAY=1 the bare relay stands in for the server (the ceiling).
# SERVER_ARGS adds flags to the server's (SERVER_ARGS="--commit-delay 0").
# With SOAK_LOG=FILE, the server's RSS, open files and database size are
# written to FILE once a minute while the load runs (the soak).
# usage: docs/bench-one-node.sh loadgen-args...
#   docs/bench-one-node.sh --rooms 250 --seats 4 --warmup 5 --seconds 10
#   RELAY=1 docs/bench-one-node.sh --rooms 250 --seats 4 --warmup 5 --seconds 10
#   docs/bench-one-node.sh --mode idle --rooms 10000 --seats 4 --warmup 5 --seconds 5
#   SOAK_LOG=soak.csv docs/bench-one-node.sh --rooms 250 --seats 4 --rate 5000 --warmup 5 --seconds 1800
set -u
T=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/target/release}
dir=$(mktemp -d)
url=${DATABASE_URL:-sqlite://$dir/splendor.db}
if [ "${RELAY:-0}" = 1 ]; then
  taskset -c 0 "$T/bare-relay" 127.0.0.1:18080 > "$dir/server.log" 2>&1 &
else
  taskset -c 0 "$T/splendor-server" --listen 127.0.0.1:18080 --database-url "$url" \
    --max-connections 20000 --max-connections-per-ip 20000 --max-connects-per-ip-per-minute 1000000 \
    --max-messages-per-second 100000 --message-burst 100000 --max-rooms 100000 \
    --max-rooms-per-session 100000 --max-waiting-rooms-per-ip 100000 --max-rooms-per-ip 0 --max-sessions-per-ip-per-hour 0 --max-tcp-per-peer 0 \
    --log warn ${SERVER_ARGS:-} > "$dir/server.log" 2>&1 &
fi
pid=$!
for i in $(seq 100); do
  (echo > /dev/tcp/127.0.0.1/18080) 2>/dev/null && break
  sleep 0.1
done
sampler=
if [ -n "${SOAK_LOG:-}" ]; then
  (
    echo "minute,rss_kib,open_files,db_bytes,wal_bytes,error_lines" > "$SOAK_LOG"
    m=0
    while kill -0 $pid 2>/dev/null; do
      rss=$(awk '/^VmRSS:/ {print $2}' /proc/$pid/status)
      fds=$(ls /proc/$pid/fd | wc -l)
      db=$(stat -c %s "$dir/splendor.db" 2>/dev/null || echo 0)
      wal=$(stat -c %s "$dir/splendor.db-wal" 2>/dev/null || echo 0)
      errs=$(grep -ci error "$dir/server.log")
      echo "$m,$rss,$fds,$db,$wal,$errs" >> "$SOAK_LOG"
      m=$((m + 1))
      sleep 60
    done
  ) &
  sampler=$!
fi
taskset -c 1 "$T/splendor-loadgen" --url ws://127.0.0.1:18080/ws --pid $pid "$@"
kill $pid
wait $pid 2>/dev/null
[ -n "$sampler" ] && kill $sampler 2>/dev/null
echo "server log lines with 'error': $(grep -ci error "$dir/server.log")"
rm -rf "$dir"
