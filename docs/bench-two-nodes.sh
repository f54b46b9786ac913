#!/bin/bash
# docs/BENCHMARKS.md, "A forwarded move": two cluster nodes (release builds)
# on a fresh PostgreSQL database and a nats-server of its own, then
# splendor-loadgen against node 1 with the given arguments. HAProxy runs on
# docker/haproxy.cfg in front of both at 127.0.0.1:18080, for
# `--follow ws://127.0.0.1:18080/ws` (rooms followed to their node).
# usage: docs/bench-two-nodes.sh NAME loadgen-args...
# (SPLENDOR_BENCH_URL: where the seats of --url connect, default node 1 itself;
#  ws://127.0.0.1:18080/ws?node=1 is node 1 through the proxy)
# (SPLENDOR_RELEASE_DIR: where the release binaries are, if not target/release)
set -u
name=$1; shift
db=bench_${name}_$$
psql -q -h 127.0.0.1 -U postgres -c "CREATE DATABASE $db" postgres
url=postgres://postgres@127.0.0.1:5432/$db
T=${SPLENDOR_RELEASE_DIR:-$(cd "$(dirname "$0")/.." && pwd)/target/release}
/usr/sbin/nats-server -a 127.0.0.1 -p 14222 -m 18222 > /tmp/nats-bench.log 2>&1 &
pn=$!
sleep 0.5
common="--database-url $url --max-connections 20000 --max-connections-per-ip 20000 --max-connects-per-ip-per-minute 1000000 --max-messages-per-second 100000 --message-burst 100000 --max-rooms 100000 --max-rooms-per-session 100000 --max-waiting-rooms-per-ip 100000 --max-rooms-per-ip 0 --max-sessions-per-ip-per-hour 0 --max-tcp-per-peer 0 --log warn"
SPLENDOR_NATS_URL=nats://127.0.0.1:14222 SPLENDOR_NODE_ID=1 $T/splendor-server --listen 127.0.0.1:18081 --metrics-listen 127.0.0.1:19081 $common > /tmp/n1.log 2>&1 &
p1=$!
SPLENDOR_NATS_URL=nats://127.0.0.1:14222 SPLENDOR_NODE_ID=2 $T/splendor-server --listen 127.0.0.1:18082 --metrics-listen 127.0.0.1:19082 $common > /tmp/n2.log 2>&1 &
p2=$!
for p in 18081 18082; do for i in $(seq 100); do curl -sf 127.0.0.1:$p/readyz >/dev/null && break; sleep 0.2; done; done
# The proxy once both nodes answer, so that its first health checks pass
# (a server it found down would be skipped for 2 s, and `?node=N` with it).
here=$(cd "$(dirname "$0")/.." && pwd)
SPLENDOR_PROXY_BIND=127.0.0.1:18080 SPLENDOR_NODE_1=127.0.0.1:18081 SPLENDOR_NODE_2=127.0.0.1:18082 SPLENDOR_NODE_3=127.0.0.1:18082 \
  /usr/sbin/haproxy -db -f "$here/docker/haproxy.cfg" > /tmp/haproxy-bench.log 2>&1 &
ph=$!
for i in $(seq 100); do curl -sf 127.0.0.1:18080/readyz >/dev/null && break; sleep 0.2; done
( sleep 5; a=$(curl -s 127.0.0.1:18222/varz); sleep 20; b=$(curl -s 127.0.0.1:18222/varz); python3 -c "import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); print(\"nats window: in_msgs %.0f/s out_msgs %.0f/s in_bytes %.0f/s\" % ((b[\"in_msgs\"]-a[\"in_msgs\"])/20, (b[\"out_msgs\"]-a[\"out_msgs\"])/20, (b[\"in_bytes\"]-a[\"in_bytes\"])/20))" "$a" "$b" ) &
$T/splendor-loadgen --url "${SPLENDOR_BENCH_URL:-ws://127.0.0.1:18081/ws}" --pid $p1 "$@"
echo "node 2 CPU: $(awk '{print ($14+$15)/100}' /proc/$p2/stat) s"
echo "haproxy CPU: $(awk '{print ($14+$15)/100}' /proc/$ph/stat) s"
grep -c "is DOWN" /tmp/haproxy-bench.log | sed 's/^/haproxy: servers found down: /'
for m in 19081 19082; do echo "node ${m: -1}:"; curl -s 127.0.0.1:$m/metrics | grep -E "^splendor_(node_calls_total|node_deliveries_total|rooms_taken_over_total|leases_lost_total|lease_renewals_failed_total|writes_fenced_total)"; done
kill $ph $p1 $p2; wait $ph $p1 $p2 2>/dev/null; kill $pn; wait $pn 2>/dev/null
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE $db" postgres
