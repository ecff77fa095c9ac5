#!/usr/bin/env bash
# GPU checks and measurements: run from the repository root on a machine with an NVIDIA GPU, with the
# binaries that tools/pack-gpu.sh packed into .gpu/ (built on any machine with the CUDA toolkit).
# Tables and pictures go to $OUT (or ./gpu-out).
#   tools/gpu-check.sh [tests] [sanitize] [bench] [targets] [all-targets] [sweeps] [shots] [views] [frames]
#   [nvtx] [ladder] [ladder-counters] [profile] [tune] [tune-mg] [samples] [bytes] [matrix]
#   (default: tests sanitize bench targets sweeps shots; TESTS=gtest filter, SANITIZE="args;args",
#   VIEWS="names" of the views step)
# all-targets re-measures every row of docs/performance.md's checklist with its table's command, one line a row
# (47 bench processes, most at 2^26 to 2^28 keys). ladder and all-targets write the key-range map's input with
# numpy; profile, ladder-counters and bytes need Nsight Compute (ncu) on PATH, sanitize compute-sanitizer.
# SORTSCOPE_GPU_PRELUDE names a script sourced first to set up the machine's libraries, if it needs one
# (an EGL or GL loader, library paths: the headless steps render through EGL).
set -uo pipefail
out=${OUT:-gpu-out}
mkdir -p "$out"
steps=${*:-tests sanitize bench targets sweeps shots}
b() { .gpu/sortscope bench --backend cuda --repeat 20 --warmup 3 "$@"; }
# Keys in [a, a + 2^16) for the key-range map: one file, so that the map's runs with and without it sort the same keys.
range16() {
  python3 -c "import numpy as np; r = np.random.default_rng(7)
(np.uint32(0x9E3779B9) + r.integers(0, 65536, 2**26, dtype=np.uint32)).astype('<u4').tofile('/tmp/range16.bin')"
}
if [ -n "${SORTSCOPE_GPU_PRELUDE:-}" ]; then source "$SORTSCOPE_GPU_PRELUDE"; fi
if [ -f .gpu/bins.tar.xz ]; then tar -C .gpu -xJf .gpu/bins.tar.xz; fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader | tee "$out/gpu.txt"

for step in $steps; do
  case $step in
    tests)
      for t in .gpu/*_test; do
        echo "== $t"
        "$t" --gtest_brief=1 --gtest_filter="${TESTS:-*Gpu*}" 2>&1 | tail -n 25
      done 2>&1 | tee "$out/tests.txt" ;;
    sanitize)
      # Every kernel at 2^20 keys: one-sweep's one-launch path (2^20) and pass kernels (2^20 + 1),
      # mg-radix at 4 and 8 bits, keys and pairs; the generator, verifier and density kernels too.
      default="--algorithm onesweep --n 2^20;--algorithm onesweep --n 1048577 --pairs;--algorithm onesweep --n 1048577 --keys f64"
      default="$default;--algorithm mg-radix --radix-bits 4 --n 2^20;--algorithm mg-radix --radix-bits 8 --n 2^20 --pairs"
      IFS=';' read -ra cases <<< "${SANITIZE:-$default}"
      for tool in memcheck racecheck; do
        for args in "${cases[@]}"; do
          echo "== $tool: $args"
          timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 \
            .gpu/sortscope bench --backend cuda --repeat 1 --warmup 0 --kernels $args 2>&1 | grep -E "SUMMARY|yes|NO|rror" | head -4
        done
      done 2>&1 | tee "$out/sanitizer.txt"
      timeout 300 compute-sanitizer --tool memcheck --error-exitcode 9 .gpu/density_test 2>&1 | tail -2 | tee -a "$out/sanitizer.txt" ;;
    bench)
      for n in 2^24 2^28; do
        .gpu/sortscope bench --backend cuda --algorithm mg-radix,cub-radix --n $n --repeat 20 --warmup 3
      done 2>&1 | tee "$out/bench.txt"
      .gpu/sortscope bench --backend cuda --algorithm mg-radix,cub-radix --n 2^26 --sweep radix-bits=1..8 \
        --repeat 10 --warmup 2 2>&1 | tee "$out/bench_bits.txt" ;;
    targets)
      # onesweep against CUB at 2^28 (keys, pairs, u64), f32 2^26, 2^16 and 2^20, and mg-radix's digit widths.
      {
        b --algorithm onesweep,cub-radix --n 2^28
        b --algorithm onesweep,cub-radix --n 2^28 --pairs
        b --algorithm onesweep,cub-radix --n 2^28 --keys u64
        b --algorithm onesweep,cub-radix --n 2^26 --keys f32
        b --algorithm onesweep,cub-radix --n 2^16 --repeat 200
        b --algorithm onesweep,cub-radix --n 2^20 --repeat 100
        b --algorithm mg-radix,cub-radix --n 2^28 --sweep radix-bits=1..8 --repeat 10
      } 2>&1 | tee "$out/targets.txt" ;;
    all-targets)
      # Every row of docs/performance.md's checklist, in its order, with the commands of its tables: one
      # line a row (ours, the baseline, the ratio against the threshold). The bench runs' JSON goes to
      # $out/all-targets.tar.gz.
      raw=$(mktemp -d)
      j() { name=$1; shift; b --format json "$@" > "$raw/$name.json"; }
      r() { python3 tools/target_rows.py ratio "$raw/$1.json" "${@:2}"; }
      range16
      {
        b --algorithm cub-radix --n 2^20 --repeat 1 --warmup 0 | head -n 1
        # o FILE LABEL THRESHOLD ARGS: onesweep against cub-radix.
        o() { j "$1" --algorithm onesweep,cub-radix "${@:4}"; r "$1" "onesweep, $2" "$3" onesweep cub-radix; }
        o onesweep-u32-2e28 "u32 keys 2^28" 1.00 --n 2^28
        o onesweep-u32-pairs-2e28 "u32 pairs 2^28" 1.00 --n 2^28 --pairs
        o onesweep-u64-2e28 "u64 keys 2^28" 1.00 --n 2^28 --keys u64
        o onesweep-f32-gaussian-descending "f32 keys descending gaussian, n = 67108087" 1.00 \
          --n 67108087 --keys f32 --dist gaussian --descending
        for run in 1 2 3; do
          o onesweep-u64-u32-pairs-2e27-$run "u64 keys + u32 values 2^27 (run $run)" 1.00 --n 2^27 --keys u64 --pairs
        done
        o onesweep-i64-pairs-2e22 "i64 pairs 2^22" 1.00 --n 2^22 --keys i64 --pairs
        o onesweep-i64-pairs-2e26 "i64 pairs 2^26" 1.00 --n 2^26 --keys i64 --pairs
        o onesweep-i64-pairs-zipf-descending "i64 pairs descending zipf, n = 5000011" 1.00 \
          --n 5000011 --keys i64 --pairs --dist zipf --descending
        for n in 10 11 12; do o onesweep-u32-2e$n "u32 keys 2^$n" 1.00 --n 2^$n --repeat 300 --warmup 20; done
        for n in 13 16; do o onesweep-u32-2e$n "u32 keys 2^$n" 1.50 --n 2^$n --repeat 300 --warmup 20; done
        o onesweep-u32-2e20 "u32 keys 2^20" 1.50 --n 2^20 --repeat 100 --warmup 10
        for k in u8 i8 u16 i16 f16 bf16; do
          j onesweep-$k-2e28 --algorithm onesweep,mg-radix,cub-radix --keys $k --n 2^28 --repeat 10 --warmup 2
          r onesweep-$k-2e28 "onesweep, $k keys 2^28" 1.00 onesweep cub-radix
          o onesweep-$k-pairs-2e26 "$k pairs 2^26" 1.00 --keys $k --n 2^26 --pairs --repeat 10 --warmup 2
        done
        j mg-radix-2e28 --algorithm mg-radix,cub-radix --n 2^28 --sweep radix-bits=1..8 --repeat 10
        r mg-radix-2e28 "mg-radix, u32 keys 2^28, its best digit width" 0.65 best:mg-radix cub-radix
        j ladder --ladder --n 2^26
        r ladder "ladder, 2^26 u32 keys: coalesced against naive" 1.00 pmpp-radix-coalesced pmpp-radix-naive
        r ladder "ladder: multibit against coalesced" 1.00 pmpp-radix-multibit pmpp-radix-coalesced
        r ladder "ladder: coarsened against multibit" 1.00 pmpp-radix-coarsened pmpp-radix-multibit
        j split-radix --algorithm split-radix,mg-radix,cub-radix --n 2^26
        r split-radix "ladder: split-radix against mg-radix at its best width" 0.80 split-radix best:mg-radix
        j range-map --algorithm split-radix,cub-radix --dist file:/tmp/range16.bin --keys u32 --sweep range-map=0..1
        r range-map "ladder: split-radix's key-range map" 1.40 split-radix:range-map=1 split-radix:range-map=0
        # The sample sorts' runs hold merge and cub-merge too, as the tables do.
        s() { j "$1" --algorithm sample-det,sample-rand,merge,cub-merge "${@:2}"; }
        s samples-u32-2e24 --n 2^24
        s samples-u32-2e26 --n 2^26 --repeat 10
        s samples-u64-2e26 --n 2^26 --keys u64 --repeat 10
        s samples-u32-pairs-2e26 --n 2^26 --pairs --repeat 10
        s samples-u32-2e28 --n 2^28 --repeat 5
        s samples-u64-2e28 --n 2^28 --keys u64 --repeat 5
        j merge-u64-2e24 --algorithm merge,cub-merge,cub-radix --keys u64 --n 2^24
        r samples-u32-2e24 "merge, u32 keys 2^24" 1.00 merge cub-merge
        r samples-u32-2e26 "merge, u32 keys 2^26" 1.00 merge cub-merge
        r samples-u32-2e28 "merge, u32 keys 2^28" 1.00 merge cub-merge
        r merge-u64-2e24 "merge, u64 keys 2^24" 1.00 merge cub-merge
        r samples-u64-2e26 "merge, u64 keys 2^26" 1.00 merge cub-merge
        r samples-u64-2e28 "merge, u64 keys 2^28" 1.00 merge cub-merge
        r samples-u32-pairs-2e26 "merge, u32 pairs 2^26" 1.00 merge cub-merge
        for n in 10 12 13; do
          j bitonic-2e$n --algorithm bitonic,onesweep,cub-radix,cub-merge --n 2^$n --repeat 300 --warmup 20
          r bitonic-2e$n "bitonic, u32 keys 2^$n" 1.00 bitonic cub-radix,cub-merge
        done
        for c in u32 u64 u32-pairs; do r samples-$c-2e26 "sample-det, $c 2^26" 1.00 sample-det cub-merge; done
        for c in u32 u64 u32-pairs; do
          r samples-$c-2e26 "sample-rand against sample-det, $c 2^26" 1.00 sample-rand sample-det
        done
        for k in u32 u64; do
          j spread-$k --algorithm sample-det --n 2^26 --keys $k --repeat 10 \
            --sweep dist=uniform,gaussian,zipf,bucket,staggered,det-dup,rand-dup,zero
          python3 tools/target_rows.py spread "$raw/spread-$k.json" "sample-det, spread over eight inputs, $k 2^26" 10 sample-det
        done
        for dist in uniform gaussian; do
          echo "sample-det, largest bucket, $dist 2^26: $(b --algorithm sample-det --n 2^26 --dist $dist --repeat 1 \
            --warmup 0 --kernels 2>&1 > /dev/null | grep -o 'the largest.*')"
        done
      } 2>&1 | tee "$out/all_targets.txt"
      tar -C "$raw" -czf "$out/all-targets.tar.gz" . ;;
    ladder)
      # The radix ladder's targets, u32 keys at 2^26: the ladder in one process, each rung's
      # parameter sweeps, split-radix against mg-radix at its best width, and the key-range map on
      # keys in [a, a + 2^16) against the same file without it.
      n=${LADDER_N:-2^26}
      range16
      {
        b --ladder --n $n
        b --algorithm pmpp-radix-multibit --n $n --sweep radix-bits=1..8 --repeat 10
        for r in 4 6 8; do
          b --algorithm pmpp-radix-coarsened,counting-radix --n $n --param radix-bits=$r --sweep items-per-thread=1..16 --repeat 10
        done
        b --algorithm split-radix,mg-radix,cub-radix --n $n
        b --algorithm mg-radix --n $n --sweep radix-bits=4..8 --repeat 10
        b --algorithm split-radix --n $n --sweep implicit-counting=0..1
        b --algorithm split-radix,cub-radix --dist file:/tmp/range16.bin --keys u32 --sweep range-map=0..1
      } 2>&1 | tee "$out/ladder.txt" ;;
    ladder-counters)
      # Where Hopper differs from the book: DRAM bytes and L2 write requests of each rung's kernels.
      for a in pmpp-radix-naive pmpp-radix-coalesced pmpp-radix-multibit pmpp-radix-coarsened counting-radix split-radix; do
        echo "== $a"
        ncu --clock-control none --csv --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_requests_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write.sum \
          .gpu/sortscope bench --backend cuda --algorithm $a --n ${LADDER_COUNTER_N:-2^24} --repeat 1 --warmup 0 2>/dev/null \
          | python3 tools/ncu_table.py --sum /dev/stdin
      done 2>&1 | tee "$out/ladder_counters.txt" ;;
    profile)
      # Where the time goes: per-kernel times of a traced run, then hardware counters of the pass
      # kernels (ours and CUB's) at 2^26 keys.
      m=gpu__time_duration.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active
      m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active
      m=$m,launch__registers_per_thread,launch__grid_size,launch__block_size
      for s in long_scoreboard barrier short_scoreboard lg_throttle mio_throttle wait; do
        m=$m,smsp__average_warps_issue_stalled_${s}_per_issue_active.ratio
      done
      ncu --metrics $m -k regex:'downsweep|upsweep|spine' -c 6 --csv \
        .gpu/sortscope bench --backend cuda --algorithm mg-radix --radix-bits 8 --n 2^28 \
        --repeat 1 --warmup 0 > "$out/ncu.csv" 2>&1
      ncu --metrics $m -k regex:'downsweep|upsweep|spine|small' -c 8 --csv .gpu/sortscope bench --backend cuda \
        --algorithm mg-radix,onesweep --radix-bits 8 --n 2^20 --repeat 1 --warmup 0 > "$out/ncu_small.csv" 2>&1
      for f in ncu ncu_small; do python3 tools/ncu_table.py "$out/$f.csv"; done 2>&1 | tee -a "$out/profile.txt"
      ;;
    tune)
      {
        IFS=, read -ra cfgs <<< "${TUNE:-u32 28,u32-pairs 28,u64 28,f32 26,u32 21,u32 20,u32 16}"
        for cfg in "${cfgs[@]}"; do .gpu/onesweep_tune $cfg; done
      } 2>&1 | tee "$out/tune.txt" ;;
    tune-mg)
      {
        IFS=, read -ra cfgs <<< "${TUNE:-u32 26,u32 28,u32-pairs 28,u64 28}"
        for cfg in "${cfgs[@]}"; do .gpu/mg_radix_tune $cfg; done
      } 2>&1 | tee "$out/tune_mg.txt" ;;
    sweeps)
      b --algorithm onesweep,cub-radix,thrust --sweep n=2^10..2^28 --repeat 30 --format csv 2>&1 | tee "$out/sweep_n.csv" ;;
    samples)
      # The sample sorts' targets against CUB's merge sort in one process, then sample-det across
      # the literature's distributions at 2^26 keys (the spread) and its steps' times on random
      # and all-equal keys.
      {
        s() { b --algorithm sample-det,sample-rand,merge,cub-merge "$@"; }
        s --n 2^24
        s --n 2^26
        s --n 2^26 --keys u64 --repeat 10
        s --n 2^26 --pairs --repeat 10
        s --n 2^28 --repeat 5
        s --n 2^28 --keys u64 --repeat 5
      } 2>&1 | tee "$out/samples.txt"
      {
        dists=uniform,gaussian,zipf,bucket,staggered,det-dup,rand-dup,zero
        b --algorithm sample-det --n 2^26 --sweep dist=$dists --repeat 10
        b --algorithm sample-det --n 2^26 --keys u64 --sweep dist=$dists --repeat 10
        for dist in uniform zero; do
          b --algorithm sample-det --n 2^26 --keys u64 --dist $dist --repeat 5 --kernels
        done
      } 2>&1 | tee "$out/samples_spread.txt" ;;
    shots)
      .gpu/sortscope --headless --frames 30 --n 2^24 --stage 2 --screenshot "$out/gpu_2e24.png" 2>&1 | tail -n 3
      .gpu/sortscope --headless --frames 30 --n 2^20 --screenshot "$out/gpu_default.png" 2>&1 | tail -n 3 ;;
    views)
      # Every view at 2^24 keys, Explain open on each panel's phase in turn.
      v() {
        name=$1; shift
        if [ -n "${VIEWS:-}" ] && [[ " $VIEWS " != *" $name "* ]]; then return; fi
        timeout 120 .gpu/sortscope --headless --frames 20 --n 2^24 --screenshot "$out/view_$name.png" "$@" 2>&1 | tail -n 2
      }
      {
        v mg_scatter --algorithm mg-radix --stage 2 --focus scatter
        v mg8_scan --algorithm mg-radix --radix-bits 8 --stage 3 --focus scan-table
        v onesweep_lookback --algorithm onesweep --stage 2 --focus lookback
        v onesweep_histogram --algorithm onesweep --stage 0 --focus histogram --dist entropy-2
        v onesweep_pairs_throughput --algorithm onesweep --pairs --stage 4 --focus throughput
        v help --algorithm onesweep --stage 1 --show-help
      } | tee "$out/views.txt" ;;
    frames)
      # GUI frame times: a new pass every frame (each frame reduces the keys again through interop)
      # without background sorting, then a still view with live timing running beside it.
      for n in 2^24 2^26; do
        for a in onesweep mg-radix; do
          timeout 90 .gpu/sortscope --headless --frames 120 --n $n --algorithm $a --play 0 --no-live --frame-times 2>&1 | grep -E "frame time|rror"
          timeout 90 .gpu/sortscope --headless --frames 120 --n $n --algorithm $a --frame-times 2>&1 | grep -E "frame time|rror"
        done
      done | tee "$out/frames.txt" ;;
    bytes)
      # Each algorithm's byte model against the DRAM bytes Nsight Compute counts over one timed sort
      # (bench profiles the first timed sort of a row: --profile-from-start off), at sizes far past
      # the L2 cache; the table is tools/dram_bytes.py's.
      raw=${BYTES_RAW:-$(mktemp -d)}; mkdir -p "$raw"
      m() {
        name=$1; shift
        timeout 300 ncu --profile-from-start off --cache-control none --clock-control none --csv \
          --metrics dram__bytes_read.sum,dram__bytes_write.sum --log-file "$raw/$name.csv" \
          .gpu/sortscope bench --backend cuda --repeat 1 --warmup 0 --format json "$@" > "$raw/$name.json" 2> /dev/null
      }
      big=${BYTES_N:-2^26}
      for a in onesweep pmpp-radix-naive pmpp-radix-coalesced pmpp-radix-multibit pmpp-radix-coarsened counting-radix \
               split-radix merge bitonic sample-det sample-rand cub-radix cub-merge thrust; do
        m "$a-u32" --algorithm $a --n $big
      done
      m mg-radix-4bit-u32 --algorithm mg-radix --param radix-bits=4 --n $big
      m mg-radix-8bit-u32 --algorithm mg-radix --param radix-bits=8 --n $big
      m odd-even-u32-2e16 --algorithm odd-even --n 2^16
      for a in onesweep merge sample-det sample-rand cub-radix cub-merge; do
        m "$a-u32-pairs" --algorithm $a --n $big --pairs
        m "$a-u64" --algorithm $a --n $big --keys u64
      done
      for a in sample-det cub-merge merge; do
        m "$a-f32-desc-33554467" --algorithm $a --n 33554467 --keys f32 --descending
      done
      python3 tools/dram_bytes.py "$raw" | tee "$out/bytes.md"
      tar -C "$raw" -czf "$out/bytes-raw.tar.gz" . ;;
    matrix)
      # Every key type x keys and pairs x both orders at 2^26 and 2^27 + 1,000,003: one-sweep against
      # cub-radix and, on the key types the comparison sorts take, sample-det and merge against
      # cub-merge, each row one process. MATRIX=radix or MATRIX=merge runs one half; the bench runs'
      # JSON goes to $out/matrix-raw.tar.gz and tools/cub_matrix.py makes the table.
      raw=$(mktemp -d)
      for n in 67108864 135217731; do
        for k in u8 i8 u16 i16 f16 bf16 u32 i32 f32 u64 i64 f64; do
          for pairs in "" --pairs; do
            for order in "" --descending; do
              name="$k-$n${pairs:+-pairs}${order:+-descending}"
              if [ "${MATRIX:-all}" != merge ]; then
                b --repeat ${MATRIX_REPEAT:-10} --warmup 2 --format json --algorithm onesweep,cub-radix --n $n \
                  --keys $k $pairs $order > "$raw/radix-$name.json" 2> /dev/null
              fi
              case $k in u32 | i32 | f32 | u64 | i64 | f64) ;; *) continue ;; esac
              if [ "${MATRIX:-all}" != radix ]; then
                b --repeat ${MATRIX_REPEAT:-10} --warmup 2 --format json --algorithm sample-det,merge,cub-merge \
                  --n $n --keys $k $pairs $order > "$raw/merge-$name.json" 2> /dev/null
              fi
            done
          done
        done
      done
      python3 tools/cub_matrix.py "$raw" | tee "$out/matrix.md"
      tar -C "$raw" -czf "$out/matrix-raw.tar.gz" . ;;
    nvtx)
      # The NVTX ranges as Nsight Systems records them.
      if command -v nsys > /dev/null; then
        timeout 200 nsys profile --trace=cuda,nvtx --force-overwrite true -o /tmp/sortscope_nvtx \
          .gpu/sortscope bench --backend cuda --algorithm onesweep,mg-radix --n 2^22 --repeat 2 --warmup 0 > /dev/null 2>&1
        nsys stats --report nvtx_sum --format csv /tmp/sortscope_nvtx.nsys-rep 2>&1 | cut -c1-160 | head -n 40
      else
        # No Nsight Systems here: Nsight Compute prints each kernel's NVTX range stack instead.
        timeout 200 ncu --nvtx --metrics gpu__time_duration.sum -c 8 .gpu/sortscope bench --backend cuda \
          --algorithm onesweep,mg-radix --n 2^22 --repeat 1 --warmup 0 --kernels 2>&1 | grep -vE "^==PROF==|^\s*$" | cut -c1-160 | head -n 120
      fi 2>&1 | tee "$out/nvtx.txt" ;;
  esac
done
