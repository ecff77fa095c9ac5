#!/usr/bin/env bash
# compute-sanitizer over every CUDA algorithm: memcheck, racecheck, synccheck and initcheck, each
# on a matrix of key types, keys and pairs, both orders and odd n, traced and timed kernels both
# (bench --kernels runs one traced sort after the timed one). Run on a machine with an NVIDIA GPU,
# from the repository root, with the binaries in .gpu/ (tools/pack-gpu.sh); prints one table row per
# algorithm and case, and the first lines of any report, to stdout and $OUT/sanitize.md.
#   tools/sanitize-all.sh [ALGORITHM...]     (default: every algorithm with a CUDA entry)
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
if [ -f .gpu/bins.tar.xz ] && [ ! -x .gpu/sortscope ]; then tar -C .gpu -xJf .gpu/bins.tar.xz; fi
algorithms=${*:-mg-radix onesweep pmpp-radix-naive pmpp-radix-coalesced pmpp-radix-multibit pmpp-radix-coarsened counting-radix split-radix odd-even bitonic merge sample-det sample-rand cub-radix cub-merge thrust}
tools=(memcheck racecheck synccheck initcheck)
# Odd n around tiles, a wide key with values descending, a bit range; odd-even's work grows as n^2
# (n phases, each a grid barrier above 2048 keys), so it gets sizes just past its one-block limit.
cases_for() {
  if [ "$1" = odd-even ]; then
    cases=("--keys u32 -n 2049" "--keys f64 --pairs --descending -n 3001" "--keys i64 --pairs -n 1999 --begin-bit 3 --end-bit 50")
  else
    cases=("--keys u32 -n 5003" "--keys f64 --pairs --descending -n 40001" "--keys i64 --pairs -n 60001 --begin-bit 3 --end-bit 50")
  fi
}
{
  echo "| algorithm | case | memcheck | racecheck | synccheck | initcheck |"
  echo "|---|---|---|---|---|---|"
  for a in $algorithms; do
    cases_for "$a"
    for c in "${cases[@]}"; do
      row="| $a | $c |"
      for t in "${tools[@]}"; do
        log=$(timeout 600 compute-sanitizer --tool "$t" --error-exitcode 9 \
          .gpu/sortscope bench --backend cuda --algorithm "$a" --repeat 1 --warmup 0 --kernels $c 2>&1)
        rc=$?
        if [ $rc -eq 0 ] && grep -q " yes" <<< "$log"; then row="$row clean |"
        elif [ $rc -eq 124 ]; then row="$row timed out |"
        else
          row="$row **rc $rc** |"
          echo "== $t $a $c" >> "$out/sanitize-reports.txt"
          grep -m 12 -E "=====|rror|sortscope" <<< "$log" >> "$out/sanitize-reports.txt"
        fi
      done
      echo "$row"
    done
  done
} | tee "$out/sanitize.md"
