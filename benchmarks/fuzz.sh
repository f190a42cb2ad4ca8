#!/usr/bin/env bash
# Runs every atheris fuzz target for SECONDS seconds each (default 30) against its committed seed corpus, with the
# package importable (PYTHONPATH or an installed wheel). A finding stops with a crash-* file in the working directory;
# turn it into a regression test.
#   bash benchmarks/fuzz.sh [SECONDS]
set -euo pipefail
py=${PYTHON:-python3}
if [[ "$py" == */* ]]; then py=$(cd "$(dirname "$py")" && pwd)/$(basename "$py"); fi  # before the cd below
cd "$(dirname "$0")/fuzz"
seconds=${1:-30}
work=$(mktemp -d)
for target in chunks config claims; do
  mkdir -p "$work/$target"
  cp corpus/"$target"/* "$work/$target"/
  echo "== fuzz_$target for ${seconds}s"
  "$py" "fuzz_$target.py" "$work/$target" -max_total_time="$seconds" -rss_limit_mb=4096 -print_final_stats=1 \
    2>&1 | grep -E "DONE|stat::number_of_executed_units|ERROR|Traceback|Error" | tail -n 6
done
rm -rf "$work"
