#!/usr/bin/env bash
# The sort library as a user's project meets it: installed from a build into a scratch prefix
# (component dev), found with find_package(SortScope) by examples/cub_style_sort, built, and run.
#   tests/library_test.sh build BUILD_DIR SOURCE_DIR SCRATCH_DIR CUDA_COMPILER
#   tests/library_test.sh run SCRATCH_DIR          (77 where there is no CUDA device)
set -euo pipefail
if [ "$1" = run ]; then
  scratch=$2
  set +e
  "$scratch/example/cub_style_sort"
  rc=$?
  [ $rc -eq 2 ] && exit 77  # the example said why: no CUDA device
  exit $rc
fi
build=$2
source=$3
scratch=$4
nvcc=$5
rm -rf "$scratch" && mkdir -p "$scratch"
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" --component dev > "$scratch/install.log"
for f in lib/cmake/SortScope/SortScopeConfig.cmake lib/cmake/SortScope/SortScopeConfigVersion.cmake \
         lib/cmake/SortScope/SortScopeTargets.cmake lib/libsortscope.a include/sortscope/onesweep.hpp \
         include/sortscope/device_merge_sort_api.hpp include/sortscope/kernels/merge/merge_composed.cuh; do
  [ -e "$prefix/$f" ] || { echo "cmake --install --component dev did not install $f"; exit 1; }
done
[ ! -e "$prefix/bin/sortscope" ] || { echo "the dev component installed the program"; exit 1; }
if find "$prefix/include" -name '*.cpp' -o -name '*.cu' | grep -q .; then
  echo "sources among the installed headers:"; find "$prefix/include" -name '*.cpp' -o -name '*.cu'; exit 1
fi
cmake -S "$source/examples/cub_style_sort" -B "$scratch/example" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_CUDA_COMPILER="$nvcc" > "$scratch/configure.log" 2>&1 || { cat "$scratch/configure.log"; exit 1; }
cmake --build "$scratch/example" > "$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; exit 1; }
echo "examples/cub_style_sort built against $prefix: $(du -h "$scratch/example/cub_style_sort" | cut -f1)"
