#!/usr/bin/env bash
# Developer loop without pip: builds core, GoogleTest binary and extension into build/dev-NAME, and lays out
# build/dev-NAME/pkg/sufficient_context (symlinks to python/ plus the fresh _core) for
#   PYTHONPATH=build/dev-NAME/pkg python -m pytest tests/python
# Usage: bash scripts/dev_build.sh NAME [extra cmake -D options]
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:?usage: dev_build.sh NAME}
shift
dir=build/dev-$name
cmake -S . -B "$dir" -G Ninja -DSC_BUILD_TESTS=ON -DSC_BUILD_PYTHON=ON -DSC_WERROR=ON \
  -Dpybind11_DIR="$(python3 -m pybind11 --cmakedir)" "$@" >/dev/null
cmake --build "$dir" -j "$(nproc)"
rm -rf "$dir/pkg"
mkdir -p "$dir/pkg"
cp -rs "$PWD/python/sufficient_context" "$dir/pkg/"
cp "$dir"/_core*.so "$dir/pkg/sufficient_context/"
echo "built $dir; run: PYTHONPATH=$dir/pkg python3 -m pytest tests/python   and   $dir/sc_tests"
