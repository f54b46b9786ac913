#!/usr/bin/env bash
# Issue 51: the built-in levels' Elo, measured as docs/BOTS.md's table says.
# Each pair of adjacent levels plays 200 two-player games on mirrored deals
# (each deal twice, the seats swapped), seed 51, the time cap off, so that
# the series replays exactly on any machine; then the top level against
# level 2 (greedy, the yardstick). Each pair's table goes to
# levels-results/A-B.txt and its games to levels-results/A-B.jsonl.
#
#   cargo build --release -p splendor-arena && bash docs/levels.sh
#
# GAMES, JOBS and OUT change the games a pair, the games played at once and
# the folder. About two hours of one core of a 2-core EPYC (most of it the
# top level's searches: 48 and 51 minutes for its two series), half that
# with JOBS=2.
set -euo pipefail
cd "$(dirname "$0")/.."
arena="${ARENA:-${CARGO_TARGET_DIR:-target}/release/splendor-arena}"
games="${GAMES:-200}"
out="${OUT:-levels-results}"
mkdir -p "$out"
top="$("$arena" --list-levels | tail -n 1 | cut -d' ' -f1)"
pairs=()
for ((level = 1; level < top; level++)); do
  pairs+=("$level $((level + 1))")
done
pairs+=("2 $top")
for pair in "${pairs[@]}"; do
  read -r a b <<<"$pair"
  started=$(date +%s)
  "$arena" "$a" "$b" --games "$games" --seed 51 --mirror --jobs "${JOBS:-1}" \
    --time-cap-ms 0 --no-replays --json "$out/$a-$b.jsonl" | tee "$out/$a-$b.txt"
  echo "levels $a and $b: $(( $(date +%s) - started )) s" | tee -a "$out/times.txt"
done
