#!/usr/bin/env bash
# Installs the build into a scratch prefix and packs it as .debs: the program runs from where it
# was installed; the package sortscope holds the program, the recordings and the desktop entry and
# depends on what the program loads; sortscope-dev holds the sort library, its headers and its
# CMake package.
#   tests/package_test.sh BUILD_DIR SCRATCH_DIR
set -euo pipefail
build=$1
scratch=$2
rm -rf "$scratch" && mkdir -p "$scratch"
cmake --install "$build" --prefix "$scratch/prefix" > "$scratch/install.log"
for f in bin/sortscope share/sortscope/recordings/README.md share/applications/sortscope.desktop share/doc/SortScope/README.md; do
  [ -e "$scratch/prefix/$f" ] || { echo "cmake --install did not install $f"; exit 1; }
done
ls "$scratch/prefix/share/sortscope/recordings/"*.ssrec > /dev/null
"$scratch/prefix/bin/sortscope" --version | grep -q SortScope
if ! command -v dpkg-deb > /dev/null; then
  echo "no dpkg-deb on this machine: the .deb is not built"
  exit 77
fi
(cd "$scratch" && cpack --config "$build/CPackConfig.cmake" -B "$scratch/deb" > "$scratch/cpack.log") || { cat "$scratch/cpack.log"; exit 1; }
deb=$(ls "$scratch"/deb/sortscope_*.deb)
dpkg-deb -c "$deb" > "$scratch/contents.txt"
for f in ./usr/bin/sortscope ./usr/share/applications/sortscope.desktop ./usr/share/sortscope/recordings/README.md; do
  grep -q " $f\$" "$scratch/contents.txt" || { echo "$deb lacks $f"; cat "$scratch/contents.txt"; exit 1; }
done
depends=$(dpkg-deb -f "$deb" Depends)
for d in libglfw3 libgl1 libegl1 fonts-dejavu-core; do
  [[ "$depends" == *"$d"* ]] || { echo "$deb does not depend on $d: $depends"; exit 1; }
done
echo "$(basename "$deb"): $(du -h "$deb" | cut -f1), depends on $depends"
dev=$(ls "$scratch"/deb/sortscope-dev_*.deb)
dpkg-deb -c "$dev" > "$scratch/dev-contents.txt"
for f in ./usr/include/sortscope/onesweep.hpp ./usr/include/sortscope/device_merge_sort_api.hpp \
         ./usr/lib/libsortscope.a ./usr/lib/cmake/SortScope/SortScopeConfig.cmake \
         ./usr/lib/cmake/SortScope/SortScopeTargets.cmake; do
  grep -q " $f\$" "$scratch/dev-contents.txt" || { echo "$dev lacks $f"; cat "$scratch/dev-contents.txt"; exit 1; }
done
if grep -q "bin/sortscope" "$scratch/dev-contents.txt"; then echo "$dev holds the program"; exit 1; fi
echo "$(basename "$dev"): $(du -h "$dev" | cut -f1), depends on $(dpkg-deb -f "$dev" Depends)"
