#!/bin/bash
# docs/BENCHMARKS.md, "The hostile soak" (issue 45): the release server as a
# host runs it behind a proxy (client addresses from X-Forwarded-For, every
# budget at its default), on a fresh durable SQLite file, twice:
#   1. honest players alone (splendor-soak honest);
#   2. the same honest players while splendor-soak attack, pinned to core 1
#      with taskset so that it cannot win by taking the honest clients'
#      CPU, does at full speed from many addresses what the hostile tests
#      found a stranger could make the server hold.
# The server and the honest players are not pinned (they share both cores,
# as on a host's machine). For each run it prints the honest side's report
# (refusals by code, games, the client's act-to-answer latency), the
# server's own act-to-acknowledgement histogram over the run (from
# /metrics: splendor_action_latency_seconds) with its p50/p99, the
# server's largest RSS and open files (sampled every 5 s), panics in its
# log, and the attack's outcomes.
# usage: docs/soak-hostile.sh [SECONDS]
#   HONEST=40 HONEST_ADDRESSES=4 ATTACKERS=10 THINK_MS=300 docs/soak-hostile.sh 600
#   RUNS=1 runs only the attack's run; WITHOUT=chat,http leaves parts of
#   the attack out (churn, bots, chat, http: splendor-soak attack --help),
#   to see what each costs.
#   BIN=dir takes splendor-server and splendor-soak from dir (default:
#   target/release; build them with
#   cargo build --release -p splendor-server -p splendor-e2e --bin splendor-server --bin splendor-soak)
set -u
secs=${1:-600}
root=$(cd "$(dirname "$0")/.." && pwd)
T=${BIN:-${CARGO_TARGET_DIR:-$root/target}/release}
port=${PORT:-18090}
for b in splendor-server splendor-soak; do
  [ -x "$T/$b" ] || { echo "no $T/$b: build it first (see the usage above)"; exit 2; }
done

run() {
  local attack=$1 dir pid sampler attacker
  dir=$(mktemp -d)
  SPLENDOR_CLIENT_IP_HEADER=X-Forwarded-For SPLENDOR_MAX_TCP_PER_PEER=0 \
    "$T/splendor-server" --listen 127.0.0.1:$port --database-url "sqlite://$dir/splendor.db" \
    --log warn > "$dir/server.log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    (echo > /dev/tcp/127.0.0.1/$port) 2>/dev/null && break
    sleep 0.1
  done
  curl -s "http://127.0.0.1:$port/metrics" > "$dir/before.txt"
  (
    while kill -0 $pid 2>/dev/null; do
      echo "$(awk '/^VmRSS:/ {print $2}' /proc/$pid/status),$(ls /proc/$pid/fd | wc -l)"
      sleep 5
    done
  ) > "$dir/samples.csv" &
  sampler=$!
  attacker=
  if [ "$attack" = 1 ]; then
    taskset -c 1 "$T/splendor-soak" --url "ws://127.0.0.1:$port/ws" --seconds "$secs" \
      attack --addresses "${ATTACKERS:-10}" ${WITHOUT:+--without "$WITHOUT"} > "$dir/attack.json" &
    attacker=$!
  else
    echo '{"side":"attack","outcomes":{}}' > "$dir/attack.json"
  fi
  "$T/splendor-soak" --url "ws://127.0.0.1:$port/ws" --seconds "$secs" \
    honest --players "${HONEST:-40}" --addresses "${HONEST_ADDRESSES:-4}" \
    --think-ms "${THINK_MS:-300}" > "$dir/honest.json"
  [ -n "$attacker" ] && wait $attacker
  curl -s "http://127.0.0.1:$port/metrics" > "$dir/after.txt"
  kill $pid; wait $pid 2>/dev/null; kill $sampler 2>/dev/null
  python3 - "$dir" "$attack" <<'EOF'
import json, re, sys
d, attack = sys.argv[1], sys.argv[2] == "1"
def buckets(path):
    out = {}
    for line in open(path):
        m = re.match(r'splendor_action_latency_seconds_bucket\{le="([^"]+)"\} (\d+)', line)
        if m:
            out[float("inf") if m[1] == "+Inf" else float(m[1])] = int(m[2])
    return out
b0, b1 = buckets(f"{d}/before.txt"), buckets(f"{d}/after.txt")
les = sorted(b1)
delta = [(le, b1[le] - b0.get(le, 0)) for le in les]
total = delta[-1][1] if delta else 0
def q(p):
    want, lo, below = p * total, 0.0, 0
    for le, n in delta:
        if n >= want:
            if le == float("inf"):
                return float("inf")
            return 1000 * (lo + (le - lo) * (want - below) / max(n - below, 1))
        lo, below = le, n
    return float("nan")
honest = json.load(open(f"{d}/honest.json"))
attack_report = json.load(open(f"{d}/attack.json"))
samples = [tuple(map(int, l.split(","))) for l in open(f"{d}/samples.csv") if l.strip() and "," in l and l.split(",")[0]]
panics = sum("panicked" in l for l in open(f"{d}/server.log"))
print("=== " + ("with the attack" if attack else "honest players alone"))
print("honest:", json.dumps(honest))
print(f"server act-to-acknowledgement (splendor_action_latency_seconds): {total} acts, "
      f"p50 {q(0.5):.2f} ms, p99 {q(0.99):.2f} ms (interpolated in its buckets)")
print("server histogram over the run (le ms: acts):",
      ", ".join(f"{'inf' if le == float('inf') else format(le * 1000, 'g')}: {n}" for le, n in delta))
if samples:
    print(f"server RSS at most {max(s[0] for s in samples) / 1024:.0f} MiB (last {samples[-1][0] / 1024:.0f}), "
          f"open files at most {max(s[1] for s in samples)} (last {samples[-1][1]}), {len(samples)} samples")
print(f"panics in the server's log: {panics}")
if attack:
    print("attack outcomes:", json.dumps(attack_report["outcomes"], sort_keys=True))
EOF
  rm -rf "$dir"
}

for r in ${RUNS:-0 1}; do run "$r"; done
