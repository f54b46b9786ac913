#!/bin/bash
# The real image in a real container engine (issue 48, first part): podman
# with runc, on this machine, with nothing of the machine's configuration
# changed (CONTAINERS_CONF points at docker/engine/containers.conf).
#
#   bash docker/engine-test.sh      # from the repository's root
#
# 1. The base images the Dockerfile names, made locally when missing (no
#    registry is reachable here): `debian:bookworm-slim` and
#    `rust:1.95-slim-bookworm` from Debian's packages with mmdebstrap, the
#    second with this machine's Rust toolchain copied in. They trust the
#    certificate authorities this machine adds to Debian's
#    (/usr/local/share/ca-certificates), as a host's network may need: the
#    Dockerfile's own steps reach Debian's archive and the crate registry
#    from inside the build, as on a host. Kept in podman's storage between
#    runs, as a CI cache would keep them.
# 2. The real Dockerfile, unchanged, built (its cache mounts kept between
#    runs: after a change of our crates only they are compiled again), in
#    Docker's image format: the OCI format has no HEALTHCHECK, and podman
#    drops it from an OCI image (a host building with podman must say
#    `--format docker`).
# 3. The image run as a host runs it: a named volume on /data, the port
#    published; it runs as its own user (uid 10001), writes its database in
#    the volume, its HEALTHCHECK passes, the page is served, two programs
#    (splendor-bot, from outside the container) play a rated game through
#    the published port, and `podman stop` ends it gracefully (exit 0)
#    within its grace period. Its size and cold start are reported. Between
#    the two, a game begun by docker/engine/play.py (two players from
#    outside, the standard library's Python only) survives `podman
#    restart`: both come back with their tokens to the version they left
#    and play it to its end.
# 4. Stand-ins for the compose files' other images under their names
#    (postgres:16, nats:2.10, haproxy:2.8), from Debian's PostgreSQL 15,
#    NATS 2.9 and HAProxy 2.6 (the PostgreSQL one honours the official
#    image's POSTGRES_USER, POSTGRES_PASSWORD, POSTGRES_DB and data
#    directory: docker/engine/postgres-entrypoint.sh). They check the wiring
#    of our image and compose files, not the official images.
# 5. docker/compose.yml, unchanged, with podman-compose: up, the server
#    ready and healthy, PostgreSQL healthy, a game begun; down and up again,
#    the game resumed where it was from PostgreSQL's volume and played to
#    its end.
#
# 6. docker/compose.cluster.yml, unchanged: three nodes, HAProxy, PostgreSQL
#    and NATS up; two players through HAProxy begin a game; the node that
#    owns it is killed (podman kill) and the game goes on from another; a
#    rolling restart (podman stop of each node in turn, the game played on
#    between); the owner's packets dropped inside its network namespace
#    (iptables by nsenter: a silent cut, no socket closed), the game going
#    on elsewhere before the heal and the healed node taking nothing back;
#    the game played to its end and its replay verified against its
#    commitment. Every coming back checks that the game is at the version
#    the players left it: not one acknowledged move lost. The sessions were
#    made from the players' address as HAProxy forwards it, not HAProxy's.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
export CONTAINERS_CONF="$root/docker/engine/containers.conf"
target_dir=${CARGO_TARGET_DIR:-$root/target}
bot="$target_dir/debug/splendor-bot"
mirror=${SPLENDOR_DEBIAN_MIRROR:-http://deb.debian.org/debian}
image=localhost/splendor-server:engine-test
name=splendor-engine-test
volume=splendor-engine-test-data
work=$(mktemp -d)
started=$(date +%s)

step() { echo "==== $* ($(( $(date +%s) - started )) s)"; }
fail() { echo "!!!! engine test FAILED: $*" >&2; podman logs "$name" 2>&1 | tail -20 >&2 || true; exit 1; }
compose_projects=()
cleanup() {
  for p in "${compose_projects[@]}"; do
    podman-compose -p "${p%%:*}" -f "${p#*:}" down -v >/dev/null 2>&1 || true
  done
  podman rm -f "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# Without systemd podman cannot schedule a HEALTHCHECK by itself (it says
# so on standard error): the test runs it with `podman healthcheck run`,
# every 0.1 s for at most 60 s.
wait_healthy() {
  for _ in $(seq 600); do
    podman healthcheck run "$1" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

for tool in podman runc mmdebstrap podman-compose; do
  command -v "$tool" >/dev/null || fail "$tool is missing (Debian: apt-get install podman runc mmdebstrap)"
done
[ -x "$bot" ] || fail "$bot is missing: cargo build -p splendor-bot"

# The machine's extra certificate authorities, into an image's trust store.
ca_hook='if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
  cp /usr/local/share/ca-certificates/*.crt "$1/usr/local/share/ca-certificates/";
  chroot "$1" update-ca-certificates >/dev/null; fi'

step "base image debian:bookworm-slim"
if ! podman image exists docker.io/library/debian:bookworm-slim; then
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --customize-hook="$ca_hook" bookworm "$work/debian.tar" "$mirror"
  podman import --quiet --change 'CMD ["bash"]' "$work/debian.tar" \
    docker.io/library/debian:bookworm-slim >/dev/null
  rm -f "$work/debian.tar"
fi

step "base image rust:1.95-slim-bookworm (this machine's toolchain)"
if ! podman image exists docker.io/library/rust:1.95-slim-bookworm; then
  toolchain=$(rustc --print sysroot)
  mmdebstrap --quiet --variant=minbase --include=ca-certificates,gcc,libc6-dev \
    --customize-hook="$ca_hook" \
    --customize-hook="mkdir -p \"\$1/usr/local/cargo/bin\" && cp -a '$toolchain' \"\$1/usr/local/rust\"" \
    bookworm "$work/rust.tar" "$mirror"
  podman import --quiet \
    --change 'ENV CARGO_HOME=/usr/local/cargo' \
    --change 'ENV PATH=/usr/local/cargo/bin:/usr/local/rust/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    --change 'CMD ["bash"]' "$work/rust.tar" docker.io/library/rust:1.95-slim-bookworm >/dev/null
  rm -f "$work/rust.tar"
fi

step "podman build of the Dockerfile"
build_start=$(date +%s)
podman build --quiet --pull=never --format docker -t "$image" -f "$root/Dockerfile" "$root" >/dev/null \
  || fail "the Dockerfile does not build"
echo "built in $(( $(date +%s) - build_start )) s"
size=$(podman image inspect --format '{{.Size}}' "$image")
echo "image size: $(( size / 1024 / 1024 )) MiB"

step "run: the volume, the port, its user"
podman rm -f "$name" >/dev/null 2>&1 || true
podman volume rm -f "$volume" >/dev/null 2>&1 || true
run_start=$(date +%s%N)
# A port of the machine's chosen here and kept: with a random one (-p
# 127.0.0.1::8080) a restart may publish on another.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
podman run -d --name "$name" -v "$volume:/data" -p "127.0.0.1:$port:8080" \
  -e SPLENDOR_MAX_SESSIONS_PER_IP_PER_HOUR=0 "$image" >/dev/null 2>"$work/run.err"
[ "$(podman port "$name" 8080/tcp)" = "127.0.0.1:$port" ] || fail "not published on 127.0.0.1:$port"
wait_healthy "$name" || fail "HEALTHCHECK never passed"
echo "cold start to healthy: $(( ($(date +%s%N) - run_start) / 1000000 )) ms"
uid=$(podman exec "$name" id -u)
[ "$uid" = 10001 ] || fail "runs as uid $uid, not the image's user 10001"
listing=$(podman exec "$name" ls -ln /data)
grep -q ' 10001 .*splendor\.db$' <<<"$listing" \
  || fail "no database of the image's user in /data: $(podman exec "$name" ls -ln /data)"

step "the page and a rated game through the published port"
# Read whole before grep: `grep -q` stops at the first match and, under
# pipefail, curl's broken pipe would fail a page that was served.
page=$(curl -sf "http://127.0.0.1:$port/") || fail "the page is not served"
grep -qi '<html' <<<"$page" || fail "the page served is not HTML"
curl -sf "http://127.0.0.1:$port/readyz" >/dev/null || fail "/readyz"
url="ws://127.0.0.1:$port/ws"
"$bot" --url "$url" --name engine-a --queue 2 > "$work/a.log" 2>&1 &
a=$!
"$bot" --url "$url" --name engine-b --queue 2 > "$work/b.log" 2>&1 &
b=$!
wait "$a" || { cat "$work/a.log"; fail "the first program's game"; }
wait "$b" || { cat "$work/b.log"; fail "the second program's game"; }
grep -qi "winner\|points" "$work/a.log" || { cat "$work/a.log"; fail "no result"; }
tail -n 3 "$work/a.log"
game_count=$(curl -sf "http://127.0.0.1:$port/api/games" | grep -o '"id"' | wc -l)
[ "$game_count" -ge 1 ] || fail "the game is not in /api/games"

step "podman restart keeps a game where it was"
python3 "$root/docker/engine/play.py" begin "$url" "$work/game.json" 8 || fail "a game before the restart"
podman restart -t 20 "$name" >/dev/null 2>>"$work/run.err" || fail "podman restart"
[ "$(podman port "$name" 8080/tcp)" = "127.0.0.1:$port" ] || fail "not published on 127.0.0.1:$port after the restart"
wait_healthy "$name" || fail "not healthy after the restart"
python3 "$root/docker/engine/play.py" resume "$url" "$work/game.json" \
  || fail "the game did not resume where it was after podman restart"

step "podman stop: a graceful end within the grace period"
stop_start=$(date +%s%N)
podman stop -t 20 "$name" >/dev/null 2>>"$work/run.err"
stopped_ms=$(( ($(date +%s%N) - stop_start) / 1000000 ))
code=$(podman inspect --format '{{.State.ExitCode}}' "$name")
[ "$code" = 0 ] || fail "exit code $code after SIGTERM"
[ "$stopped_ms" -lt 20000 ] || fail "SIGTERM took $stopped_ms ms (killed at the grace period)"
echo "stopped in $stopped_ms ms, exit code 0"

# The compose files' other images, from Debian's packages under the names
# the files give (no registry here): the wiring of our image and compose
# files is what is checked, with Debian's versions (PostgreSQL 15, NATS
# 2.9, HAProxy 2.6), not the official images themselves.
standin() { # name packages [mmdebstrap hooks...] -- [podman-import changes...]
  local name=$1 packages=$2 hooks=() changes=()
  shift 2
  while [ "$#" -gt 0 ] && [ "$1" != -- ]; do hooks+=(--customize-hook="$1"); shift; done
  shift
  for c in "$@"; do changes+=(--change "$c"); done
  # Made again when its recipe changed (a label says which it was made by).
  local recipe
  recipe=$(printf '%s\n' "$packages" "${hooks[@]}" "$@" | sha256sum | cut -c1-16)
  changes+=(--change "LABEL splendor.recipe=$recipe")
  [ "$(podman image inspect --format '{{ index .Labels "splendor.recipe" }}' "$name" 2>/dev/null)" = "$recipe" ] \
    && return 0
  mmdebstrap --quiet --variant=minbase --include="$packages" "${hooks[@]}" \
    bookworm "$work/standin.tar" "$mirror" || fail "mmdebstrap for $name"
  podman import --quiet "${changes[@]}" "$work/standin.tar" "$name" >/dev/null
  rm -f "$work/standin.tar"
}
step "stand-in images postgres:16, nats:2.10, haproxy:2.8 (Debian's packages)"
standin docker.io/library/postgres:16 postgresql-15 \
  "copy-in $root/docker/engine/postgres-entrypoint.sh /usr/local/bin" \
  'rm -rf "$1/var/lib/postgresql/15" "$1/etc/postgresql/15"' -- \
  'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  'ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]' 'STOPSIGNAL SIGINT' 'EXPOSE 5432'
standin docker.io/library/nats:2.10 nats-server -- \
  'ENTRYPOINT ["/usr/sbin/nats-server"]' 'EXPOSE 4222'
standin docker.io/library/haproxy:2.8 haproxy 'mkdir -p "$1/usr/local/etc/haproxy"' -- \
  'ENTRYPOINT ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]' \
  'STOPSIGNAL SIGUSR1' 'EXPOSE 8080'

# The compose files name the image splendor-server:latest: the one built
# above (podman-compose would build it again, in podman's OCI format).
podman tag "$image" localhost/splendor-server:latest

# A compose project, its containers and volumes gone when the test ends.
compose_up() { podman-compose -p "$1" -f "$2" up -d >"$work/compose.log" 2>&1 || { cat "$work/compose.log"; fail "podman-compose up -f $2"; }; }
compose_down() { podman-compose -p "$1" -f "$2" down "${@:3}" >>"$work/compose.log" 2>&1 || true; }
container_of() { podman ps -a -q --filter "label=io.podman.compose.project=$1" --filter "label=com.docker.compose.service=$2" | head -n1; }
wait_ready() { # url: /readyz answers 200 within 120 s
  for _ in $(seq 1200); do
    curl -sf "$1/readyz" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}
port_free() { ! (echo > /dev/tcp/127.0.0.1/8080) 2>/dev/null; }

step "docker/compose.yml: the server with PostgreSQL; up, healthy, a game, down and up with its data"
project=splendor-engine-compose
port_free || fail "port 8080 is taken on this machine: the compose files publish it"
compose_projects+=("$project:$root/docker/compose.yml")
compose_up "$project" "$root/docker/compose.yml"
wait_ready http://127.0.0.1:8080 || { podman logs "$(container_of "$project" server)" | tail -20; fail "the compose server never got ready"; }
wait_healthy "$(container_of "$project" server)" || fail "the compose server's HEALTHCHECK"
wait_healthy "$(container_of "$project" postgres)" || fail "PostgreSQL's healthcheck"
python3 "$root/docker/engine/play.py" begin ws://127.0.0.1:8080/ws "$work/compose-game.json" 10 \
  || fail "a game on compose.yml"
compose_down "$project" "$root/docker/compose.yml"
compose_up "$project" "$root/docker/compose.yml"
wait_ready http://127.0.0.1:8080 || fail "the compose server never got ready again"
python3 "$root/docker/engine/play.py" resume ws://127.0.0.1:8080/ws "$work/compose-game.json" \
  || fail "the game did not come back after down and up"
compose_down "$project" "$root/docker/compose.yml" -v

step "docker/compose.cluster.yml: three nodes, HAProxy, PostgreSQL and NATS"
project=splendor-engine-cluster
cluster="$root/docker/compose.cluster.yml"
game="$work/cluster-game.json"
port_free || fail "port 8080 is taken on this machine: the compose files publish it"
compose_projects+=("$project:$cluster")
compose_up "$project" "$cluster"
service_of() { if [ "$1" = 1 ]; then echo server; else echo "server-$1"; fi; }
node_container() { container_of "$project" "$(service_of "$1")"; }
wait_node() { wait_healthy "$(node_container "$1")" || { podman logs "$(node_container "$1")" 2>&1 | tail -20; fail "node $1 never got healthy"; }; }
for n in 1 2 3; do wait_node "$n"; done
wait_ready http://127.0.0.1:8080 || fail "HAProxy never answered /readyz"
play() { python3 "$root/docker/engine/play.py" "$@" || fail "the cluster's game: play.py $*"; }
owner() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["node"])' "$game"; }
play begin ws://127.0.0.1:8080/ws "$game" 6
first=$(owner)
[ -n "$first" ] && [ "$first" != None ] || fail "the room does not say its node"

step "podman kill of the node that owns the game: the game goes on"
podman kill "$(node_container "$first")" >/dev/null
play resume ws://127.0.0.1:8080/ws "$game" 6
[ "$(owner)" != "$first" ] || fail "the room is still on the killed node $first"
podman start "$(node_container "$first")" >/dev/null 2>&1 || true
wait_node "$first"

step "a rolling restart: podman stop of each node in turn, the game played between"
for n in 1 2 3; do
  podman stop -t 20 "$(node_container "$n")" >/dev/null
  play resume ws://127.0.0.1:8080/ws "$game" 4
  podman start "$(node_container "$n")" >/dev/null
  wait_node "$n"
done

step "a silent cut: the owner's packets dropped inside its network namespace"
cut=$(owner)
pid=$(podman inspect --format '{{.State.Pid}}' "$(node_container "$cut")")
for chain in INPUT OUTPUT; do nsenter -t "$pid" -n iptables -I "$chain" -j DROP; done
play resume ws://127.0.0.1:8080/ws "$game" 4
[ "$(owner)" != "$cut" ] || fail "the room stayed on node $cut, cut off"
for chain in INPUT OUTPUT; do nsenter -t "$pid" -n iptables -D "$chain" -j DROP; done
wait_node "$cut"
# Healed, the old owner takes nothing back: the game ends where it lives.
play resume ws://127.0.0.1:8080/ws "$game"
[ "$(owner)" != "$cut" ] || fail "node $cut took the room back after the heal"

step "the cluster's game: its replay verifies"
game_id=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["result"]["game"])' "$game")
curl -sf "http://127.0.0.1:8080/api/games/$game_id/replay" > "$work/replay.json" || fail "no replay of $game_id"
commitment=$(curl -sf "http://127.0.0.1:8080/api/games/$game_id" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["commitment"])') || fail "no summary of $game_id"
podman run --rm -v "$work/replay.json:/replay.json:ro" "$image" \
  splendor-server verify /replay.json --commitment "$commitment" || fail "the replay of $game_id does not verify"

step "the nodes saw the players' address, not HAProxy's (option forwardfor)"
proxy_ip=$(podman inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' \
  "$(container_of "$project" haproxy)")
seen=$(podman exec "$(container_of "$project" postgres)" psql -U splendor -d splendor -tAc \
  "SELECT DISTINCT created_from FROM sessions WHERE created_from IS NOT NULL")
echo "HAProxy is $proxy_ip; the sessions were made from: $(echo $seen)"
[ -n "$seen" ] || fail "no session says the address it was made from"
if grep -qxF "$proxy_ip" <<<"$seen"; then fail "a node counted HAProxy's address $proxy_ip as a player's"; fi
compose_down "$project" "$cluster" -v

step "done: engine test passed"
