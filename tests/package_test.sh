#!/usr/bin/env bash
# Installs the build into a scratch prefix and packs it as a .deb: the program runs from where it
# was installed, and the package holds the program, the recordings and the desktop entry and
# depends on what the program loads.
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
