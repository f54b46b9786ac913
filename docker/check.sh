#!/usr/bin/env bash
# Checks the Dockerfile without a Docker engine (there is none on the
# development machines nor in CI):
#   1. the `cargo build` line the Dockerfile runs is the one we build with here,
#      and it builds;
#   2. every file or folder the Dockerfile COPYs from the context exists;
#   3. the image's runtime contract holds: the release binary, started with the
#      Dockerfile's ENV and CMD (the data dir and port moved to a temp dir and a
#      free port), answers /healthz, /readyz and its own `healthcheck`
#      subcommand, writes its database into the data dir, logs JSON lines,
#      stops cleanly on SIGTERM, and the healthcheck then fails;
#   4. the image runs as a non-root user, exposes the port it listens on, keeps
#      /data in a volume and has a HEALTHCHECK;
#   5. the compose files keep /metrics off the public port, and the cluster's
#      (compose.cluster.yml) is consistent with docker/haproxy.cfg;
#   6. haproxy accepts docker/haproxy.cfg (`haproxy -c`);
#   7. promtool accepts the alert rules and the monitoring profile's
#      Prometheus configuration (docker/monitoring/).
set -euo pipefail
cd "$(dirname "$0")/.."
df=Dockerfile
fail() { echo "docker/check.sh: FAIL: $*" >&2; exit 1; }

# 1. The build command.
expected='cargo build --release --locked -p splendor-server --bin splendor-server'
build_line=$(grep -oE 'cargo build [^\\&]*--bin splendor-server' "$df" | head -n1)
[ "$build_line" = "$expected" ] || fail "Dockerfile builds with '$build_line', CI with '$expected'"
# Dependencies stay compiled between image builds (BuildKit cache mounts).
grep -qE -- '--mount=type=cache,target=/usr/local/cargo/registry' "$df" \
  || fail "the build has no cache mount for the crate registry"
grep -qE -- '--mount=type=cache,target=/src/target' "$df" \
  || fail "the build has no cache mount for the build directory"
grep -qE 'cp target/release/splendor-server /usr/local/bin/splendor-server' "$df" \
  || fail "the build does not copy the binary out of the cache mount"
echo "build command: $build_line"
$build_line
# Where cargo builds (CI keeps it outside the clone: .ci/run).
release_dir=$(cd "${CARGO_TARGET_DIR:-target}/release" && pwd)
bin=$release_dir/splendor-server
[ -x "$bin" ] || fail "$bin was not built"

# 2. COPY sources from the build context.
while read -r src; do
  [ -e "$src" ] || fail "Dockerfile copies '$src', which does not exist"
  echo "copy source exists: $src"
done < <(grep -E '^COPY ' "$df" | grep -v -- '--from=' | sed -E 's/^COPY +//' | awk '{for (i = 1; i < NF; i++) print $i}')
# The file the runtime stage copies from the build stage is the binary built above.
grep -qE '^COPY --from=build /usr/local/bin/splendor-server ' "$df" \
  || fail "the runtime stage does not copy the binary the build stage copied out"

# 4. Static facts of the runtime stage.
runtime=$(sed -n '/^FROM .* AS runtime/,$p' "$df")
user=$(grep -E '^USER ' <<<"$runtime" | tail -n1 | awk '{print $2}')
[ -n "$user" ] && [ "${user%%:*}" != root ] && [ "${user%%:*}" != 0 ] || fail "runtime stage must run as a non-root USER (got '$user')"
grep -qE '^VOLUME \["/data"\]' <<<"$runtime" || fail "no VOLUME [\"/data\"]"
grep -qE '^HEALTHCHECK ' <<<"$runtime" || fail "no HEALTHCHECK"
port=$(grep -E '^EXPOSE ' <<<"$runtime" | awk '{print $2}')

# ENV lines (the continuation form `ENV A=1 \ B=2`), as KEY=VALUE words.
env_words=$(sed -n '/^ENV /,/[^\\]$/p' <<<"$runtime" | sed -E 's/^ENV //; s/\\$//' | tr -s ' \n' '\n' | grep '=' )
listen=$(grep '^SPLENDOR_LISTEN=' <<<"$env_words" | cut -d= -f2)
[ "${listen##*:}" = "$port" ] || fail "EXPOSE $port but SPLENDOR_LISTEN=$listen"
grep -q '^SPLENDOR_DATA_DIR=/data$' <<<"$env_words" || fail "SPLENDOR_DATA_DIR must be /data (the volume)"

# 3. Run the binary as the image would.
cmd=$(grep -E '^CMD ' <<<"$runtime" | tail -n1 | sed -E 's/^CMD //' | tr -d '[]",')
hc=$(grep -A1 -E '^HEALTHCHECK ' <<<"$runtime" | grep -E 'CMD' | sed -E 's/.*CMD //' | tr -d '[]",')
tmp=$(mktemp -d)
# The data directory is a folder of its own (the image creates /data empty),
# so that what the server writes there is told apart from this script's log.
data="$tmp/data"
mkdir "$data"
free_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
declare -a run_env=()
while IFS= read -r kv; do
  case "$kv" in
    SPLENDOR_LISTEN=*) run_env+=("SPLENDOR_LISTEN=127.0.0.1:$free_port") ;;
    SPLENDOR_DATA_DIR=*) run_env+=("SPLENDOR_DATA_DIR=$data") ;;
    *) run_env+=("$kv") ;;
  esac
done <<<"$env_words"
echo "runtime: env ${run_env[*]} $cmd"
read -r -a cmd_words <<<"$cmd"
read -r -a hc_words <<<"$hc"
[ "${cmd_words[0]}" = splendor-server ] || fail "CMD must start splendor-server (got '$cmd')"
env -i PATH="$release_dir:/usr/bin:/bin" "${run_env[@]}" "${cmd_words[@]}" >"$tmp/server.log" 2>&1 &
pid=$!
cleanup() { kill "$pid" 2>/dev/null || true; rm -rf "$tmp"; }
trap cleanup EXIT
ok=
for _ in $(seq 1 100); do
  if env -i PATH="$release_dir:/usr/bin:/bin" "${run_env[@]}" "${hc_words[@]}" >/dev/null 2>&1; then ok=1; break; fi
  kill -0 "$pid" 2>/dev/null || { cat "$tmp/server.log"; fail "the server exited at start"; }
  sleep 0.1
done
[ -n "$ok" ] || { cat "$tmp/server.log"; fail "the HEALTHCHECK command never succeeded"; }
status_of() {
  python3 - "$1" <<'PY'
import sys, urllib.request, urllib.error
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=5).status)
except urllib.error.HTTPError as e:
    print(e.code)
PY
}
code=$(status_of "http://127.0.0.1:$free_port/healthz")
[ "$code" = 200 ] || fail "/healthz answered $code"
code=$(status_of "http://127.0.0.1:$free_port/readyz")
[ "$code" = 200 ] || { cat "$tmp/server.log"; fail "/readyz answered $code (is the database reachable?)"; }
ls "$data" | grep -q . || { cat "$tmp/server.log"; fail "nothing was written to the data directory"; }
echo "healthcheck ok, /healthz 200, /readyz 200, data dir: $(ls "$data" | tr '\n' ' ')"
# The image logs JSON (SPLENDOR_LOG_FORMAT=json): every line must parse.
if grep -q '^SPLENDOR_LOG_FORMAT=json$' <<<"$env_words"; then
  python3 - "$tmp/server.log" <<'PY' || fail "the server's log is not one JSON object per line"
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
assert lines, "no log line"
for l in lines:
    json.loads(l)
PY
  echo "log lines are JSON"
fi
kill -TERM "$pid"
for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$pid" 2>/dev/null; then cat "$tmp/server.log"; fail "the server did not stop within 15 s of SIGTERM"; fi
wait "$pid" && status=0 || status=$?
[ "$status" = 0 ] || { cat "$tmp/server.log"; fail "the server exited with status $status after SIGTERM"; }
# With nothing listening any more, the HEALTHCHECK command must fail.
if env -i PATH="$release_dir:/usr/bin:/bin" "${run_env[@]}" "${hc_words[@]}" >/dev/null 2>&1; then
  fail "the HEALTHCHECK command succeeds with no server running"
fi
echo "SIGTERM: clean exit; HEALTHCHECK fails once the server is gone"

# 5. The compose files keep /metrics off the public port (and the check
#    itself fails on a file that does not).
python3 docker/check_compose.py --self-test || fail "a compose file serves /metrics on the public port"

# 6. HAProxy's own check of the cluster's proxy file (the cluster test runs a
#    real haproxy on this same file).
command -v haproxy >/dev/null 2>&1 || fail "haproxy is not installed (Debian: apt-get install haproxy)"
haproxy -c -f docker/haproxy.cfg || fail "haproxy -c refuses docker/haproxy.cfg"

# 7. The alert rules and the Prometheus configuration that loads them (the
#    metrics they name are checked against a node's /metrics in
#    tests/cluster.rs).
command -v promtool >/dev/null 2>&1 || fail "promtool is not installed (Debian: apt-get install prometheus)"
promtool check rules docker/monitoring/alerts.yml || fail "promtool refuses docker/monitoring/alerts.yml"
promtool check config docker/monitoring/prometheus.yml || fail "promtool refuses docker/monitoring/prometheus.yml"
python3 -c 'import json,sys; json.load(open("docker/monitoring/grafana-dashboard.json"))' \
  || fail "docker/monitoring/grafana-dashboard.json is not JSON"
echo "docker/check.sh: OK"
