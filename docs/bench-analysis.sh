#!/bin/bash
# docs/BENCHMARKS.md, "Analyses beside live games" (issue 26): one server
# (release build, durable SQLite) on core 0, splendor-loadgen on core 1.
# First a paced load of people's games alone ("before"; its games finish
# and are kept), then the analysis queue is filled with those games
# (17 requests: one running, 16 waiting, the default --analysis-queue) and
# the same load runs again beside them ("during"). Prints both latency
# reports and how far the analyses got.
# usage: docs/bench-analysis.sh loadgen-args...
#   docs/bench-analysis.sh --rooms 200 --seats 4 --rate 3000 --warmup 5 --seconds 20
set -u
T=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/target/release}
dir=$(mktemp -d)
taskset -c 0 "$T/splendor-server" --listen 127.0.0.1:18080 --database-url "sqlite://$dir/splendor.db" \
  --max-connections 20000 --max-connections-per-ip 20000 --max-connects-per-ip-per-minute 1000000 \
  --max-messages-per-second 100000 --message-burst 100000 --max-rooms 100000 \
  --max-rooms-per-session 100000 --max-waiting-rooms-per-ip 100000 --max-rooms-per-ip 0 --max-sessions-per-ip-per-hour 0 --max-tcp-per-peer 0 \
  --max-api-requests-per-ip-per-minute 0 --analyses-per-client 1000 \
  --log warn,splendor_server::analysis=info > "$dir/server.log" 2>&1 &
pid=$!
for i in $(seq 100); do
  (echo > /dev/tcp/127.0.0.1/18080) 2>/dev/null && break
  sleep 0.1
done
echo "==== before: the load alone"
taskset -c 1 "$T/splendor-loadgen" --url ws://127.0.0.1:18080/ws --pid $pid "$@"
games=$(curl -s 'http://127.0.0.1:18080/api/games?limit=17' | python3 -c 'import json,sys; print(" ".join(g["id"] for g in json.load(sys.stdin)["games"]))')
echo "==== analyses asked for: $(echo $games | wc -w) finished games"
for g in $games; do
  curl -s -o /dev/null -w "%{http_code} " "http://127.0.0.1:18080/api/games/$g/analysis"
done
echo
echo "==== during: the same load beside the full analysis queue"
taskset -c 1 "$T/splendor-loadgen" --url ws://127.0.0.1:18080/ws --pid $pid "$@"
echo "==== where the analyses stand"
for g in $games; do
  curl -s "http://127.0.0.1:18080/api/games/$g/analysis" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d.get("status","done"), d.get("done",""), d.get("total",""))'
done | sort | uniq -c
grep "analysis stored" "$dir/server.log" | tail -3
kill $pid
wait $pid 2>/dev/null
echo "server log lines with 'error': $(grep -ci error "$dir/server.log")"
rm -rf "$dir"
