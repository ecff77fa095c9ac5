#!/usr/bin/env bash
# Packs the binaries to copy to a machine with an NVIDIA GPU into .gpu/bins.tar.xz: sortscope, the
# tests with a GPU case and, when built, the tuning tools (the statically linked binaries compress
# about 4:1). Build with the CUDA toolkit on any machine, pack, copy the repository with .gpu/ to the
# machine with the GPU and run tools/gpu-check.sh there, which unpacks it. Where the build machine has
# the GPU, pack anyway: the scripts run the binaries from .gpu/.
#   tools/pack-gpu.sh [BUILD_DIR] [TEST...]   (default: build, and every test with a GPU case)
set -euo pipefail
build=${1:-build}
shift || true
rm -rf .gpu && mkdir -p .gpu/stage
cp "$build/app/sortscope" .gpu/stage/
if (($#)); then tests=("${@/#/$build/tests/}"); else tests=("$build"/tests/*_test); fi
for t in "${tests[@]}"; do
  # Tests with no GPU case stay behind: each binary holds every kernel (~9 MB packed).
  case $(basename "$t") in cli_test|gui_test|session_test|trace_test|registry_test) ;; *) cp "$t" .gpu/stage/ ;; esac
done
for tuner in onesweep_tune mg_radix_tune; do
  if [ -x "$build/tools/tune/$tuner" ]; then cp "$build/tools/tune/$tuner" .gpu/stage/; fi
done
tar -C .gpu/stage -cf - . | xz -T0 -3 > .gpu/bins.tar.xz
rm -rf .gpu/stage
du -h .gpu/bins.tar.xz
