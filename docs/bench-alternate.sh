#!/bin/bash
# docs/BENCHMARKS.md (issue 20): runs docs/bench-one-node.sh for several
# builds in turn, ROUNDS times, so that a machine whose speed drifts
# (a shared VM's does, by a fifth within minutes) weighs on every build
# alike; prints one line per run. A build is a directory holding
# splendor-server, splendor-loadgen and bare-relay (a copy of
# target/release), or "relay" for the bare relay of the first build.
# usage: docs/bench-alternate.sh ROUNDS ROOMS BUILD...
#   docs/bench-alternate.sh 3 250 /tmp/before /tmp/after relay
set -u
here=$(cd "$(dirname "$0")" && pwd)
rounds=$1
rooms=$2
shift 2
first=$1
[ "$first" = relay ] && first=${2:?a build besides relay}
for round in $(seq "$rounds"); do
  for build in "$@"; do
    if [ "$build" = relay ]; then
      out=$(RELAY=1 BIN=$first "$here/bench-one-node.sh" --rooms "$rooms" --seats 4 --warmup 5 --seconds 10 2>&1)
    else
      out=$(BIN=$build "$here/bench-one-node.sh" --rooms "$rooms" --seats 4 --warmup 5 --seconds 10 2>&1)
    fi
    per_second=$(echo "$out" | sed -n 's/^actions: .*(\([0-9]*\)\/s)/\1/p')
    per_cpu=$(echo "$out" | sed -n 's/^server: .*), \([0-9]*\) actions per CPU-second.*/\1/p')
    switches=$(echo "$out" | awk '/^switches:/ {print $2 " + " $6}')
    errors=$(echo "$out" | awk '/^errors:/ {print $2 " errors, " $5 " lost"}')
    echo "round $round, $rooms rooms, $build: $per_second actions/s, $per_cpu per CPU-second, switches $switches, $errors"
  done
done
