#!/bin/bash
# docs/BENCHMARKS.md, "How far the analysis can be trusted" (issue 50):
# finished games between the built-in levels and mixes of them (2, 3 and 4
# players, mirrored deals, the strong level without its time cap so that
# the series replay), each analysed exactly as the server analyses a game
# (splendor-arena --analyse: the same Plan, the same 10,000 iterations a
# position), then the calibration of the analyses' chances to win
# (splendor-arena --calibrate): a reliability table by tenths, the Brier
# score, and a baseline that sees only the score and the cards.
# usage: docs/calibration.sh [OUT_DIR]   (a release build first:
#   cargo build --release -p splendor-arena)
set -eu
T=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/target/release}
out=${1:-$(mktemp -d)}
mkdir -p "$out"
series() {
  local name=$1 games=$2
  shift 2
  "$T/splendor-arena" "$@" --games "$games" --seed 50 --mirror --jobs 2 \
    --strong-time-cap-ms 0 --replays "$out/$name" --analyse
}
time {
  series two-random-greedy 20 random greedy
  series two-greedy-strong 20 greedy strong
  series two-random-strong 10 random strong
  series two-greedy-greedy 20 greedy greedy
  series three 18 random greedy strong
  series four 16 random greedy greedy strong
}
"$T/splendor-arena" --calibrate "$out"/two-random-greedy --calibrate "$out"/two-greedy-strong \
  --calibrate "$out"/two-random-strong --calibrate "$out"/two-greedy-greedy \
  --calibrate "$out"/three --calibrate "$out"/four
