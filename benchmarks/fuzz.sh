#!/usr/bin/env bash
# Runs every fuzz target for SECONDS seconds each (default 30) against its committed seed corpus:
# - atheris (Python entry points: as_chunks, configuration, check_answer), with the package importable (PYTHONPATH
#   or an installed wheel);
# - libFuzzer (the C++ core: text engine, checker, claim coverage), built here into build/fuzz with clang++ under
#   ASan + UBSan (needs clang-14 and libclang-rt-14-dev on Debian).
# A finding stops with a crash-* file in the working directory; turn it into a regression test.
#   bash benchmarks/fuzz.sh [SECONDS] [all|python|cpp]
set -euo pipefail
py=${PYTHON:-python3}
if [[ "$py" == */* ]]; then py=$(cd "$(dirname "$py")" && pwd)/$(basename "$py"); fi  # before the cd below
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-30}
which=${2:-all}
here=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

if [[ "$which" != cpp ]]; then
  for target in chunks config claims; do
    mkdir -p "$work/$target"
    cp "$root"/benchmarks/fuzz/corpus/"$target"/* "$work/$target"/
    echo "== fuzz_$target (atheris) for ${seconds}s"
    "$py" "$root/benchmarks/fuzz/fuzz_$target.py" "$work/$target" -max_total_time="$seconds" -rss_limit_mb=4096 \
      -artifact_prefix="$here/" -print_final_stats=1 2>&1 | grep -E "DONE|stat::number_of_executed_units|ERROR|Traceback|Error" | tail -n 6
  done
fi

if [[ "$which" != python ]]; then
  cxx=${CXX_FUZZ:-clang++-14}
  CXX=$cxx cmake -S "$root" -B "$root/build/fuzz" -G Ninja -DSC_BUILD_FUZZERS=ON -DSC_WERROR=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$root/build/fuzz" -j "$(nproc)" >/dev/null
  for target in text checker claims; do
    mkdir -p "$work/cpp_$target"
    cp "$root"/benchmarks/fuzz/corpus/cpp_"$target"/* "$work/cpp_$target"/
    echo "== fuzz_$target (libFuzzer) for ${seconds}s"
    # pipefail: a crash (non-zero exit) fails the run after its report is shown.
    "$root/build/fuzz/fuzz_$target" "$work/cpp_$target" -max_total_time="$seconds" -rss_limit_mb=4096 \
      -artifact_prefix="$here/" -print_final_stats=1 2>&1 | grep -E "DONE|stat::number_of_executed_units|ERROR|SUMMARY|invariant" | tail -n 6
  done
fi
