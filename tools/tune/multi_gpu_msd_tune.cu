// Races a multi-GPU sort whose exchange starts after one MSD pass against one-sweep on one GPU, in
// one process (not part of the normal build: -DSORTSCOPE_BUILD_TUNING=ON). It asks whether the
// exchange can run under the local sort, which the multi-GPU sort's sort-first steps cannot do.
//
// Each GPU holds n / G random u32 keys (u64 in multi_gpu_msd_tune_u64). Steps, every GPU at once:
//   1. the histogram of the top 8 bits (block/msd_waves.cuh's msd_count), its counts to the host;
//   2. the host gives each digit whole to one GPU, its owner: the one whose fair share (n / G keys
//      exactly) holds the digit's first key in the global order (multi_gpu_radix/digit_partition.hpp);
//   3. the MSD pass's scatter (msd_scatter): the digits a GPU owns straight to their place in its
//      run, the others into staging behind it;
//   4. in rounds, one per wave of the owner's digits: each staged piece moved to its place, by
//      ncclSend/ncclRecv or, with MM_COPY, by the copy engines;
//   5. as each round lands, its wave is sorted by the remaining bits in L2 (sort_wave);
//   6. an owner's last digit, where it runs past the owner's share, is handed on sorted: the keys
//      past the share to the front of the next GPUs' runs.
// The runs end sorted on their GPUs, in global order, each n / G keys. Keys are uniform unless
// MM_KEY_MASK skews them; a digit too large for a wave is sorted by one-sweep through DRAM, as the
// hybrid probe's sort_hybrid does.
//
// Usage: [MM_SERIAL=1] [MM_ROUND_WAVES=R] [MM_PEER=0] [MM_LINK=1] [MM_COPY=1|2] [MM_BATCH=1|2] [MM_KEY_MASK=HEX]
//        multi_gpu_msd_tune [GPUS] [log2 n] [L2 share of a wave] [timed runs]
// MM_SERIAL starts no wave before the whole exchange has landed (each part's time alone);
// MM_ROUND_WAVES puts R waves in each NCCL group; MM_PEER=0 leaves peer access off; MM_LINK=1 first
// times the peer link alone (link_probe).
// Every timed output is checked: each run sorted, the runs in order, the multiset of keys kept.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#include "block/msd_waves.cuh"
#include "multi_gpu_radix/digit_partition.hpp"
#include "multi_gpu/nccl_library.hpp"
#include "sortscope/onesweep.hpp"
#include "tune_common.cuh"

namespace {

using namespace sortscope;
namespace hr = sortscope::msd_waves;
// The key width: 4 bytes, or 8 where built with MULTI_GPU_MSD_KEY_BYTES=8 (multi_gpu_msd_tune_u64).
#ifndef MULTI_GPU_MSD_KEY_BYTES
#define MULTI_GPU_MSD_KEY_BYTES 4
#endif
using Bits = std::conditional_t<MULTI_GPU_MSD_KEY_BYTES == 8, uint64_t, uint32_t>;
constexpr KeyType kKeyType = sizeof(Bits) == 8 ? KeyType::u64 : KeyType::u32;
constexpr const char* kKeyName = sizeof(Bits) == 8 ? "u64" : "u32";
using Value = onesweep::device::KeysOnly;
constexpr int kFold = onesweep::device::kOrderedAlready;
constexpr int kKeyBits = 8 * sizeof(Bits);
constexpr int kMsdBegin = kKeyBits - hr::kMsdBits;
constexpr onesweep::KernelShape kPass = onesweep::pass_shape(sizeof(Bits), 0, true);
constexpr uint32_t kTile = kPass.tile_items();

#define NCCL_CHECK(x)                                                                                 \
  do {                                                                                                \
    const ncclResult_t nccl_result = (x);                                                             \
    if (nccl_result != ncclSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, nccl->GetErrorString(nccl_result)); \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

const multi_gpu::NcclLibrary* nccl = nullptr;

struct Gpu {
  int device = 0;
  ncclComm_t comm = nullptr;
  cudaStream_t compute = nullptr, link = nullptr;
  uint64_t n = 0;        // keys it starts with
  uint64_t run = 0;      // keys it ends with
  uint64_t head = 0;     // keys handed to the front of its run; the digits it owns begin there
  uint64_t total = 0;    // keys of the digits it owns, which it sorts
  uint64_t capacity = 0; // keys a wave may hold
  uint64_t out_capacity = 0;
  // A digit too large for a wave (skewed keys) is sorted by one-sweep between its place in the run
  // and the same range of `alt`.
  Bits* alt = nullptr;
  void* large_temp = nullptr;
  size_t large_temp_bytes = 0;
  Bits *in = nullptr, *out = nullptr;
  Bits* staging = nullptr;  // out + out_capacity: the MSD pass's keys to be moved
  // The MSD pass's regions (bins, counter, look-back zeroed before each sort) and its tables.
  hr::MsdRegions msd_regions{};
  void* msd_cleared = nullptr;
  size_t msd_cleared_bytes = 0;
  // The waves' regions (histograms and counters zeroed before each sort) and the output's tables.
  hr::WaveRegions<Bits, Value> wave_regions{};
  void* wave_cleared = nullptr;
  size_t wave_cleared_bytes = 0;
  uint32_t *table_begin = nullptr, *table_tile = nullptr;  // device, [kBuckets + 1] each
  uint32_t* host_tables = nullptr;                          // pinned, 2 x (kBuckets + 1)
  uint32_t* host_counts = nullptr;                          // pinned, kBuckets
  uint32_t* host_starts = nullptr;                          // pinned, kBuckets: the MSD pass's digit starts
  cudaEvent_t counted = nullptr, msd_done = nullptr, start = nullptr, done = nullptr, exchanged = nullptr;
  cudaEvent_t handed = nullptr;  // its waves sorted and its handoffs issued
  std::vector<cudaEvent_t> landed;
  // MM_COPY: a stream to (or from) each GPU (its own unused but for its events), and, per wave, an
  // event on each: wave k's keys between this GPU and GPU p are copied once copied[k * G + p] has
  // passed.
  std::vector<cudaStream_t> peer_streams;
  std::vector<cudaEvent_t> copied;
  // This sort's plan.
  std::vector<hr::Wave> waves;
};

// MM_KEY_MASK=HEX: every key ANDed with the mask, for skewed inputs: 0 gives one key (all in one
// digit), a mask of low bits alone puts every key in top digit 0, and a few bits spread over the
// word give a few distinct keys in a few digits.
const Bits g_key_mask = std::getenv("MM_KEY_MASK") ? Bits(std::strtoull(std::getenv("MM_KEY_MASK"), nullptr, 16))
                                                   : ~Bits(0);

__global__ void mask_keys(Bits* keys, uint64_t n, Bits mask) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x)
    keys[i] &= mask;
}

uint64_t max_tiles(uint64_t keys) { return (keys + kTile - 1) / kTile + hr::kBuckets; }

// One-sweep by the bits below the top digit over `items` keys, between g.out and g.alt (the
// DoubleBuffer form), on the GPU's compute stream.
detail::SortCall large_digit_call(const Gpu& g, uint64_t items, int* selector = nullptr) {
  detail::SortCall call;
  call.args.key_type = kKeyType;
  call.args.keys_in = g.out;
  call.args.keys_out = g.alt;
  call.args.n = items;
  call.args.end_bit = kMsdBegin;
  call.key_selector = selector;
  call.stream = g.compute;
  return call;
}

void allocate(Gpu& g, int gpus, uint64_t n, uint64_t out_capacity, double l2_share, uint64_t seed) {
  CHECK(cudaSetDevice(g.device));
  int lowest = 0, highest = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&lowest, &highest));
  CHECK(cudaStreamCreateWithFlags(&g.compute, cudaStreamNonBlocking));
  // The exchange's copies go first where they and the sort share the GPU.
  CHECK(cudaStreamCreateWithPriority(&g.link, cudaStreamNonBlocking, highest));
  g.peer_streams.resize(gpus);
  for (cudaStream_t& stream : g.peer_streams) CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, highest));
  g.n = n;
  g.capacity = uint64_t(l2_share * double(hr::l2_bytes())) / (2 * sizeof(Bits)) / kTile * kTile;
  CHECK(cudaMalloc(&g.in, n * sizeof(Bits)));
  // One allocation, the run then the staging, so that one 32-bit digit start reaches either: the
  // MSD pass lays the digits a GPU keeps whole straight into its run.
  if (out_capacity + n > UINT32_MAX) {
    std::fprintf(stderr, "%llu keys a GPU is more than 32-bit digit starts reach\n", (unsigned long long)n);
    std::exit(2);
  }
  CHECK(cudaMalloc(&g.out, (out_capacity + n) * sizeof(Bits)));
  g.staging = g.out + out_capacity;
  g.out_capacity = out_capacity;
  tune::fill_random_words<<<4096, 256, 0, g.compute>>>(reinterpret_cast<uint32_t*>(g.in), n * sizeof(Bits) / 4, seed);
  if (g_key_mask != ~Bits(0)) mask_keys<<<4096, 256, 0, g.compute>>>(g.in, n, g_key_mask);
  const uint64_t msd_tiles = (n + kTile - 1) / kTile;
  // [bins][counter][look-back] cleared, each on its own 1 KiB; then the plan and the MSD pass's own
  // tables.
  constexpr uint64_t kRow = 256;
  g.msd_cleared_bytes = (2 * kRow + msd_tiles * onesweep::kDigits) * sizeof(uint32_t);
  CHECK(cudaMalloc(&g.msd_cleared, g.msd_cleared_bytes));
  auto* words = static_cast<uint32_t*>(g.msd_cleared);
  g.msd_regions.bins = words;
  g.msd_regions.counter = words + kRow;
  g.msd_regions.lookback = words + 2 * kRow;
  CHECK(cudaMalloc(&g.msd_regions.plan, sizeof(onesweep::device::PassPlan)));
  CHECK(cudaMalloc(&g.msd_regions.bucket_begin, (hr::kBuckets + 1) * sizeof(uint32_t)));
  CHECK(cudaMalloc(&g.msd_regions.bucket_tile, (hr::kBuckets + 1) * sizeof(uint32_t)));
  // The waves: two scratch regions, two look-back rows, then [histograms][counters] cleared.
  const int passes = radix_pass_count(0, kMsdBegin, onesweep::kRadixBits);
  Bits* scratch = nullptr;
  CHECK(cudaMalloc(&scratch, 2 * g.capacity * sizeof(Bits)));
  g.wave_regions.scratch_keys[0] = scratch;
  g.wave_regions.scratch_keys[1] = scratch + g.capacity;
  for (uint32_t*& row : g.wave_regions.lookback)
    CHECK(cudaMalloc(&row, max_tiles(g.capacity) * onesweep::kDigits * sizeof(uint32_t)));
  g.wave_cleared_bytes = (uint64_t(hr::kBuckets) * passes * onesweep::kDigits + hr::kBuckets * passes) * sizeof(uint32_t);
  CHECK(cudaMalloc(&g.wave_cleared, g.wave_cleared_bytes));
  g.wave_regions.histograms = static_cast<uint32_t*>(g.wave_cleared);
  g.wave_regions.counters = g.wave_regions.histograms + uint64_t(hr::kBuckets) * passes * onesweep::kDigits;
  CHECK(cudaMalloc(&g.table_begin, (hr::kBuckets + 1) * sizeof(uint32_t)));
  CHECK(cudaMalloc(&g.table_tile, (hr::kBuckets + 1) * sizeof(uint32_t)));
  CHECK(cudaMallocHost(&g.host_tables, 2 * (hr::kBuckets + 1) * sizeof(uint32_t)));
  CHECK(cudaMallocHost(&g.host_counts, hr::kBuckets * sizeof(uint32_t)));
  CHECK(cudaMallocHost(&g.host_starts, hr::kBuckets * sizeof(uint32_t)));
  CHECK(cudaMalloc(&g.alt, out_capacity * sizeof(Bits)));
  int selector = 0;  // the temp storage of the DoubleBuffer form, which sort_oversized_wave takes
  detail::SortCall large = large_digit_call(g, out_capacity, &selector);
  large.temp_storage_bytes = &g.large_temp_bytes;
  CHECK((onesweep::instances::sort_instance<Bits, Value, kFold, false>(large)));
  CHECK(cudaMalloc(&g.large_temp, g.large_temp_bytes));
  CHECK(cudaEventCreateWithFlags(&g.counted, cudaEventDisableTiming));
  CHECK(cudaEventCreate(&g.msd_done));
  CHECK(cudaEventCreate(&g.start));
  CHECK(cudaEventCreate(&g.done));
  CHECK(cudaEventCreate(&g.exchanged));
  CHECK(cudaEventCreateWithFlags(&g.handed, cudaEventDisableTiming));
  while (g.copied.size() < size_t(gpus)) {
    g.copied.emplace_back();
    CHECK(cudaEventCreateWithFlags(&g.copied.back(), cudaEventDisableTiming));
  }
}

struct Timing {
  double total_ms = 0, msd_ms = 0, exchanged_ms = 0, sorted_ms = 0;  // GPU 0's events but the total
  double slowest_ms = 0;  // the last GPU's sort, from its own start
};

// MM_SERIAL=1: no wave starts before the whole exchange has landed (the parts' times alone).
const bool g_serial = std::getenv("MM_SERIAL") && std::atoi(std::getenv("MM_SERIAL")) == 1;
// MM_COPY=1: the exchange by the copy engines (cudaMemcpyPeerAsync, a digit's keys from one source a
// copy) in place of NCCL, issued by the receiver (pull); MM_COPY=2 issues them on the sender (push).
const int g_copy = std::getenv("MM_COPY") ? std::atoi(std::getenv("MM_COPY")) : 0;
// MM_BATCH=1 (with MM_COPY): a wave's copies between two GPUs in one cudaMemcpyBatchAsync, in no
// order among themselves; MM_BATCH=2 adds the hint that they overlap compute.
const int g_batch = std::getenv("MM_BATCH") ? std::atoi(std::getenv("MM_BATCH")) : 0;

// One sort over every GPU; returns the host's wall time from the first launch to the last GPU done.
Timing sort_once(std::vector<Gpu>& gpus) {
  const int G = int(gpus.size());
  const auto t0 = std::chrono::steady_clock::now();
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(false, false, false);
  // 1. The MSD pass on every GPU, its counts to the host.
  for (Gpu& g : gpus) {
    CHECK(cudaSetDevice(g.device));
    CHECK(cudaEventRecord(g.start, g.compute));
    CHECK(cudaMemsetAsync(g.msd_cleared, 0, g.msd_cleared_bytes, g.compute));
    CHECK(cudaMemsetAsync(g.wave_cleared, 0, g.wave_cleared_bytes, g.compute));
    CHECK((hr::msd_count<Bits, Value, kFold>(g.msd_regions, g.in, g.n, twiddle, kMsdBegin, kKeyBits, g.host_counts,
                                             g.counted, g.compute)));
  }
  // 2. The plan, from every GPU's counts: each digit whole to its owner, each GPU's run a fair share
  //    exactly (multi_gpu_radix/digit_partition.hpp).
  std::vector<std::vector<uint64_t>> counts(G);
  for (int r = 0; r < G; ++r) {
    CHECK(cudaEventSynchronize(gpus[r].counted));
    counts[r].assign(gpus[r].host_counts, gpus[r].host_counts + hr::kBuckets);
  }
  const multi_gpu_radix::DigitPartition partition = multi_gpu_radix::partition_by_digits(counts);
  std::vector<uint64_t> staging_at;
  for (const Gpu& g : gpus) staging_at.push_back(g.out_capacity);
  // The pieces' places and the owners' tables count from the front of each run; the tables and the
  // waves from where the digits a GPU owns begin (g.head).
  const multi_gpu_radix::ScatterLayout layout = multi_gpu_radix::scatter_layout(partition, counts, staging_at);
  // The pieces each receiver's wave k waits for: moves[r][k].
  std::vector<std::vector<std::vector<size_t>>> moves(G);
  size_t rounds = 0;
  for (int r = 0; r < G; ++r) {
    Gpu& g = gpus[r];
    const std::vector<uint64_t> held = multi_gpu_radix::owned_by(partition, r, hr::kBuckets);
    uint32_t owned[hr::kBuckets];
    uint32_t* begin = g.host_tables;
    uint32_t* tile = g.host_tables + hr::kBuckets + 1;
    uint64_t at = 0, tiles = 0;
    for (int d = 0; d < hr::kBuckets; ++d) {
      owned[d] = uint32_t(held[d]);
      begin[d] = uint32_t(at);
      tile[d] = uint32_t(tiles);
      at += owned[d];
      tiles += (owned[d] + kTile - 1) / kTile;
    }
    begin[hr::kBuckets] = uint32_t(at);
    tile[hr::kBuckets] = uint32_t(tiles);
    g.total = at;
    g.head = partition.head[r];
    g.run = partition.run_size(r);
    if (partition.extent[r] > g.out_capacity) {
      std::fprintf(stderr, "GPU %d would hold %llu keys, more than its output's %llu\n", r,
                   (unsigned long long)partition.extent[r], (unsigned long long)g.out_capacity);
      std::exit(1);
    }
    g.waves = hr::plan_waves(owned, kTile, g.capacity);
    rounds = std::max(rounds, g.waves.size());
    std::vector<size_t> wave_of(hr::kBuckets, 0);
    for (size_t k = 0; k < g.waves.size(); ++k)
      for (uint32_t d = g.waves[k].first_bucket; d < g.waves[k].first_bucket + g.waves[k].buckets; ++d) wave_of[d] = k;
    moves[r].resize(g.waves.size());
    for (size_t i : layout.moves)
      if (partition.pieces[i].receiver == r) moves[r][wave_of[partition.pieces[i].digit]].push_back(i);
    CHECK(cudaSetDevice(g.device));
    CHECK(cudaMemcpyAsync(g.table_begin, begin, (hr::kBuckets + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice, g.compute));
    CHECK(cudaMemcpyAsync(g.table_tile, tile, (hr::kBuckets + 1) * sizeof(uint32_t), cudaMemcpyHostToDevice, g.compute));
  }
  // Where a piece's keys are on its source, and where they go.
  const auto source_keys = [&](const multi_gpu_radix::DigitPiece& piece) {
    return gpus[piece.source].out + layout.starts[piece.source][piece.digit];
  };
  const auto receiver_keys = [&](const multi_gpu_radix::DigitPiece& piece) { return gpus[piece.receiver].out + piece.to; };
  // 3. The MSD pass's scatter: the digits a GPU owns straight to their place in its run, the others
  //    into staging behind it, to be moved.
  for (int r = 0; r < G; ++r) {
    Gpu& g = gpus[r];
    for (int d = 0; d < hr::kBuckets; ++d) g.host_starts[d] = uint32_t(layout.starts[r][d]);
    CHECK(cudaSetDevice(g.device));
    CHECK((hr::msd_scatter<Bits, Value, kFold>(g.msd_regions, g.in, g.out, nullptr, nullptr, g.n, twiddle, kMsdBegin,
                                               kKeyBits, g.host_starts, g.compute)));
    CHECK(cudaEventRecord(g.msd_done, g.compute));
    CHECK(cudaStreamWaitEvent(g.link, g.msd_done));
  }
  for (Gpu& g : gpus) {
    CHECK(cudaSetDevice(g.device));
    while (g.landed.size() < rounds) {
      g.landed.emplace_back();
      CHECK(cudaEventCreateWithFlags(&g.landed.back(), cudaEventDisableTiming));
    }
    while (g.copied.size() < rounds * G) {
      g.copied.emplace_back();
      CHECK(cudaEventCreateWithFlags(&g.copied.back(), cudaEventDisableTiming));
    }
  }
  if (g_copy) {
    // 4'. The moves by the copy engines: wave k of every receiver, then wave k + 1 (the host issues
    //     copies in this order, so no GPU's first wave waits behind another's last), a stream for
    //     each pair of GPUs (a GPU's own part of a digit it shares is copied on its own stream).
    for (int r = 0; r < G; ++r)
      for (int s = 0; s < G; ++s) {
        Gpu& issuer = gpus[g_copy == 2 ? s : r];
        CHECK(cudaSetDevice(issuer.device));
        cudaStream_t stream = issuer.peer_streams[g_copy == 2 ? r : s];
        CHECK(cudaStreamWaitEvent(stream, gpus[s].msd_done));
        CHECK(cudaStreamWaitEvent(stream, gpus[r].msd_done));  // the receiver's run is free
      }
    for (size_t k = 0; k < rounds; ++k)
      for (int r = 0; r < G; ++r) {
        if (k >= gpus[r].waves.size()) continue;
        for (int s = 0; s < G; ++s) {
          Gpu& issuer = gpus[g_copy == 2 ? s : r];
          const int other = g_copy == 2 ? r : s;
          cudaStream_t stream = issuer.peer_streams[other];
          CHECK(cudaSetDevice(issuer.device));
          std::vector<void*> dsts;
          std::vector<const void*> srcs;
          std::vector<size_t> sizes;
          for (size_t i : moves[r][k]) {
            const multi_gpu_radix::DigitPiece& piece = partition.pieces[i];
            if (piece.source != s) continue;
            if (g_batch) {
              dsts.push_back(receiver_keys(piece));
              srcs.push_back(source_keys(piece));
              sizes.push_back(piece.count * sizeof(Bits));
            } else if (s == r) {
              CHECK(cudaMemcpyAsync(receiver_keys(piece), source_keys(piece), piece.count * sizeof(Bits),
                                    cudaMemcpyDeviceToDevice, stream));
            } else {
              CHECK(cudaMemcpyPeerAsync(receiver_keys(piece), r, source_keys(piece), s, piece.count * sizeof(Bits),
                                        stream));
            }
          }
          if (!dsts.empty()) {
            cudaMemcpyAttributes attributes{};
            attributes.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
            attributes.flags = g_batch == 2 ? cudaMemcpyFlagPreferOverlapWithCompute : 0;
            size_t first = 0;
            CHECK(cudaMemcpyBatchAsync(dsts.data(), srcs.data(), sizes.data(), dsts.size(), &attributes, &first, 1,
                                       stream));
          }
          CHECK(cudaEventRecord(issuer.copied[k * G + other], stream));
        }
      }
    for (int r = 0; r < G; ++r) {
      Gpu& g = gpus[r];
      CHECK(cudaSetDevice(g.device));
      for (int p = 0; p < G && !g.waves.empty(); ++p) {
        const size_t last = g.waves.size() - 1;
        CHECK(cudaStreamWaitEvent(g.link, g_copy == 2 ? gpus[p].copied[last * G + r] : g.copied[last * G + p]));
      }
      CHECK(cudaEventRecord(g.exchanged, g.link));
    }
  }
  // 4. The moves by NCCL, a round per MM_ROUND_WAVES wave indices (1 by default): every receiver's
  //    waves k, from every other GPU (a GPU's own part of a shared digit copied on its link stream).
  static const size_t waves_a_round =
      std::max(1, std::getenv("MM_ROUND_WAVES") ? std::atoi(std::getenv("MM_ROUND_WAVES")) : 1);
  for (size_t round_first = 0; !g_copy && round_first < rounds; round_first += waves_a_round) {
    const size_t round_end = std::min(rounds, round_first + waves_a_round);
    NCCL_CHECK(nccl->GroupStart());
    for (size_t k = round_first; k < round_end; ++k)
      for (int r = 0; r < G; ++r) {
        if (k >= gpus[r].waves.size()) continue;
        for (size_t i : moves[r][k]) {
          const multi_gpu_radix::DigitPiece& piece = partition.pieces[i];
          const size_t bytes = piece.count * sizeof(Bits);
          const int s = piece.source;
          if (s == r) {
            CHECK(cudaSetDevice(gpus[r].device));
            CHECK(cudaMemcpyAsync(receiver_keys(piece), source_keys(piece), bytes, cudaMemcpyDeviceToDevice,
                                  gpus[r].link));
            continue;
          }
          NCCL_CHECK(nccl->Send(source_keys(piece), bytes, ncclUint8, r, gpus[s].comm, gpus[s].link));
          NCCL_CHECK(nccl->Recv(receiver_keys(piece), bytes, ncclUint8, s, gpus[r].comm, gpus[r].link));
        }
      }
    NCCL_CHECK(nccl->GroupEnd());
    for (Gpu& g : gpus) {
      CHECK(cudaSetDevice(g.device));
      for (size_t k = round_first; k < round_end; ++k) CHECK(cudaEventRecord(g.landed[k], g.link));
    }
  }
  for (Gpu& g : gpus) {
    if (g_copy) break;
    CHECK(cudaSetDevice(g.device));
    CHECK(cudaEventRecord(g.exchanged, g.link));
  }
  // 5. Each wave sorted once its round has landed.
  for (int r = 0; r < G; ++r) {
    Gpu& g = gpus[r];
    CHECK(cudaSetDevice(g.device));
    if (g_serial) CHECK(cudaStreamWaitEvent(g.compute, g.exchanged));
    const hr::BucketTables tables{g.table_begin, g.table_tile};
    for (size_t k = 0; k < g.waves.size(); ++k) {
      const hr::Wave& w = g.waves[k];
      if (!g_copy) CHECK(cudaStreamWaitEvent(g.compute, g.landed[k]));
      for (int p = 0; g_copy && p < G; ++p)
        CHECK(cudaStreamWaitEvent(g.compute, g_copy == 2 ? gpus[p].copied[k * G + r] : g.copied[k * G + p]));
      if (w.items > g.capacity) {
        size_t bytes = g.large_temp_bytes;
        detail::SortCall large = large_digit_call(g, w.items);
        large.d_temp_storage = g.large_temp;
        large.temp_storage_bytes = &bytes;
        CHECK((hr::sort_oversized_wave<Bits, Value, kFold>(large, w, g.out + g.head, nullptr, g.alt + g.head,
                                                           nullptr)));
        continue;
      }
      CHECK((hr::sort_wave<Bits, Value, kFold>(g.wave_regions, tables, w, uint32_t(k), g.out + g.head, nullptr,
                                               g.total, twiddle, 0, kMsdBegin, g.compute)));
    }
  }
  // 6. The handoffs, once their owner's waves are sorted: the sorted keys past its share to the front
  //    of the next GPUs' runs.
  for (int r = 0; r < G; ++r) {
    Gpu& g = gpus[r];
    CHECK(cudaSetDevice(g.device));
    for (const multi_gpu_radix::Handoff& h : partition.handoffs)
      if (h.owner == r)
        CHECK(cudaMemcpyPeerAsync(gpus[h.receiver].out, gpus[h.receiver].device, g.out + h.from, g.device,
                                  h.count * sizeof(Bits), g.compute));
    CHECK(cudaEventRecord(g.handed, g.compute));
  }
  for (int r = 0; r < G; ++r) {
    Gpu& g = gpus[r];
    CHECK(cudaSetDevice(g.device));
    for (const multi_gpu_radix::Handoff& h : partition.handoffs)
      if (h.receiver == r) CHECK(cudaStreamWaitEvent(g.compute, gpus[h.owner].handed));
    CHECK(cudaEventRecord(g.done, g.compute));
  }
  for (Gpu& g : gpus) {
    CHECK(cudaSetDevice(g.device));
    CHECK(cudaStreamSynchronize(g.link));
    CHECK(cudaStreamSynchronize(g.compute));
    for (cudaStream_t stream : g.peer_streams) CHECK(cudaStreamSynchronize(stream));
  }
  Timing t;
  t.total_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  float msd = 0, exchanged = 0, sorted = 0;
  CHECK(cudaSetDevice(gpus[0].device));
  CHECK(cudaEventElapsedTime(&msd, gpus[0].start, gpus[0].msd_done));
  CHECK(cudaEventElapsedTime(&exchanged, gpus[0].start, gpus[0].exchanged));
  CHECK(cudaEventElapsedTime(&sorted, gpus[0].start, gpus[0].done));
  for (Gpu& g : gpus) {
    float ms = 0;
    CHECK(cudaSetDevice(g.device));
    CHECK(cudaEventElapsedTime(&ms, g.start, g.done));
    t.slowest_ms = std::max(t.slowest_ms, double(ms));
  }
  t.msd_ms = msd;
  t.exchanged_ms = exchanged;
  t.sorted_ms = sorted;
  return t;
}

// MM_LINK=1: before the race, the peer link alone. Each GPU sends half its keys (`staging`) to the next
// GPU's `out` in the ways the exchange could: one NCCL message, many in one group, many in one
// group each, and cudaMemcpyPeerAsync whole or in pieces. Wall time over every GPU, median of 9.
void link_probe(std::vector<Gpu>& gpus) {
  const int G = int(gpus.size());
  const uint64_t bytes = gpus[0].n * sizeof(Bits) / 2;
  const auto wall = [&](auto&& issue) {
    std::vector<double> ms;
    for (int i = 0; i < 11; ++i) {
      for (Gpu& g : gpus) {
        CHECK(cudaSetDevice(g.device));
        CHECK(cudaDeviceSynchronize());
      }
      const auto t0 = std::chrono::steady_clock::now();
      issue();
      for (Gpu& g : gpus) {
        CHECK(cudaSetDevice(g.device));
        CHECK(cudaStreamSynchronize(g.link));
      }
      if (i >= 2) ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  };
  const auto nccl_pieces = [&](uint64_t pieces, bool group_each, ncclDataType_t type, size_t word) {
    const uint64_t piece = (bytes / pieces + word - 1) / word * word;
    if (!group_each) NCCL_CHECK(nccl->GroupStart());
    for (uint64_t at = 0; at < bytes; at += piece) {
      const uint64_t count = std::min(piece, bytes - at) / word;
      if (group_each) NCCL_CHECK(nccl->GroupStart());
      for (int s = 0; s < G; ++s) {
        const int r = (s + 1) % G;
        NCCL_CHECK(nccl->Send(reinterpret_cast<char*>(gpus[s].staging) + at, count, type, r, gpus[s].comm, gpus[s].link));
        NCCL_CHECK(nccl->Recv(reinterpret_cast<char*>(gpus[r].out) + at, count, type, s, gpus[r].comm, gpus[r].link));
      }
      if (group_each) NCCL_CHECK(nccl->GroupEnd());
    }
    if (!group_each) NCCL_CHECK(nccl->GroupEnd());
  };
  const auto peer_pieces = [&](uint64_t pieces) {
    const uint64_t piece = (bytes / pieces + 15) / 16 * 16;
    for (int s = 0; s < G; ++s) {
      const int r = (s + 1) % G;
      CHECK(cudaSetDevice(gpus[s].device));
      for (uint64_t at = 0; at < bytes; at += piece)
        CHECK(cudaMemcpyPeerAsync(reinterpret_cast<char*>(gpus[r].out) + at, gpus[r].device,
                                  reinterpret_cast<char*>(gpus[s].staging) + at, gpus[s].device, std::min(piece, bytes - at),
                                  gpus[s].link));
    }
  };
  const auto report = [&](const char* what, double ms) {
    std::printf("  %-44s %8.2f ms  %6.1f GB/s each way\n", what, ms, double(bytes) / ms / 1e6);
  };
  std::printf("the link alone: %.0f MiB from each GPU to the next\n", double(bytes) / (1 << 20));
  report("NCCL, one message (uint8)", wall([&] { nccl_pieces(1, false, ncclUint8, 1); }));
  report("NCCL, one message (uint32)", wall([&] { nccl_pieces(1, false, ncclUint32, 4); }));
  for (uint64_t pieces : {4, 19, 64, 256}) {
    char what[64];
    std::snprintf(what, sizeof what, "NCCL, %llu messages in one group", (unsigned long long)pieces);
    report(what, wall([&] { nccl_pieces(pieces, false, ncclUint32, 4); }));
    std::snprintf(what, sizeof what, "NCCL, %llu messages, a group each", (unsigned long long)pieces);
    report(what, wall([&] { nccl_pieces(pieces, true, ncclUint32, 4); }));
  }
  report("cudaMemcpyPeerAsync, one copy", wall([&] { peer_pieces(1); }));
  report("cudaMemcpyPeerAsync, 19 copies", wall([&] { peer_pieces(19); }));
  report("cudaMemcpyPeerAsync, 256 copies", wall([&] { peer_pieces(256); }));
  if (G < 3) return;
  // All to all, as the exchange is: each GPU sends (G - 1) / G of its keys, a share to every other.
  const uint64_t pair = gpus[0].n * sizeof(Bits) / G;
  std::printf("all to all: %.0f MiB from each GPU to each other, %.0f MiB out of each\n", double(pair) / (1 << 20),
              double(pair) * (G - 1) / (1 << 20));
  const auto all_to_all = [&](bool by_nccl) {
    if (by_nccl) NCCL_CHECK(nccl->GroupStart());
    for (int s = 0; s < G; ++s)
      for (int r = 0; r < G; ++r) {
        if (r == s) continue;
        char* to = reinterpret_cast<char*>(gpus[r].out) + s * pair;
        const char* src = reinterpret_cast<const char*>(gpus[s].staging) + r * pair;
        if (by_nccl) {
          NCCL_CHECK(nccl->Send(src, pair, ncclUint8, r, gpus[s].comm, gpus[s].link));
          NCCL_CHECK(nccl->Recv(to, pair, ncclUint8, s, gpus[r].comm, gpus[r].link));
        } else {
          CHECK(cudaSetDevice(gpus[s].device));
          CHECK(cudaMemcpyPeerAsync(to, r, src, s, pair, gpus[s].peer_streams[r]));
          CHECK(cudaEventRecord(gpus[s].copied[r], gpus[s].peer_streams[r]));
          CHECK(cudaStreamWaitEvent(gpus[s].link, gpus[s].copied[r]));
        }
      }
    if (by_nccl) NCCL_CHECK(nccl->GroupEnd());
  };
  const auto each_way = [&](const char* what, double ms) {
    std::printf("  %-44s %8.2f ms  %6.1f GB/s out of each GPU\n", what, ms, double(pair) * (G - 1) / ms / 1e6);
  };
  each_way("NCCL, a message a pair, one group", wall([&] { all_to_all(true); }));
  each_way("cudaMemcpyPeerAsync, a copy a pair (push)", wall([&] { all_to_all(false); }));
}

// Every run sorted, the runs in order, and the multiset of keys that of the input (by count, sum and
// sum of squares of a mix of each key, modulo 2^64).
bool verify(std::vector<Gpu>& gpus, uint64_t n, std::vector<uint64_t>* run_sizes) {
  auto fingerprint = [](const std::vector<Bits>& keys, uint64_t (&f)[2]) {
    for (Bits k : keys) {
      const uint64_t m = gen::mix64(k);
      f[0] += m;
      f[1] += m * m;
    }
  };
  uint64_t want[2] = {0, 0}, got[2] = {0, 0}, total = 0;
  bool ok = true;
  Bits last = 0;
  for (size_t r = 0; r < gpus.size(); ++r) {
    Gpu& g = gpus[r];
    CHECK(cudaSetDevice(g.device));
    std::vector<Bits> in(g.n), out(g.run);
    CHECK(cudaMemcpy(in.data(), g.in, g.n * sizeof(Bits), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(out.data(), g.out, g.run * sizeof(Bits), cudaMemcpyDeviceToHost));
    fingerprint(in, want);
    fingerprint(out, got);
    total += g.run;
    run_sizes->push_back(g.run);
    if (!std::is_sorted(out.begin(), out.end())) {
      std::printf("GPU %zu's run is not sorted\n", r);
      ok = false;
    }
    if (!out.empty()) {
      if (r > 0 && out.front() < last) {
        std::printf("GPU %zu's run starts below GPU %zu's last key\n", r, r - 1);
        ok = false;
      }
      last = out.back();
    }
  }
  if (total != n || want[0] != got[0] || want[1] != got[1]) {
    std::printf("the runs hold %llu keys, not the input's %llu, or other keys\n", (unsigned long long)total,
                (unsigned long long)n);
    ok = false;
  }
  return ok;
}

// One-sweep on GPU 0 over all n keys (every GPU's input, gathered there), CUDA events, median.
double one_gpu_ms(std::vector<Gpu>& gpus, uint64_t n, int runs) {
  Gpu& g0 = gpus[0];
  CHECK(cudaSetDevice(g0.device));
  Bits *in = nullptr, *out = nullptr;
  CHECK(cudaMalloc(&in, n * sizeof(Bits)));
  CHECK(cudaMalloc(&out, n * sizeof(Bits)));
  uint64_t at = 0;
  for (Gpu& g : gpus) {
    CHECK(cudaMemcpyPeer(in + at, g0.device, g.in, g.device, g.n * sizeof(Bits)));
    at += g.n;
  }
  detail::SortCall call;
  call.args.key_type = kKeyType;
  call.args.keys_in = in;
  call.args.keys_out = out;
  call.args.n = n;
  size_t bytes = 0;
  call.temp_storage_bytes = &bytes;
  CHECK(detail::sort_any(onesweep::dispatch, call));
  void* temp = nullptr;
  CHECK(cudaMalloc(&temp, bytes));
  call.d_temp_storage = temp;
  tune::g_timed_runs = runs;
  const double ms = tune::median_ms([&] { CHECK(detail::sort_any(onesweep::dispatch, call)); }, runs);
  std::vector<Bits> host(n);
  CHECK(cudaMemcpy(host.data(), out, n * sizeof(Bits), cudaMemcpyDeviceToHost));
  if (!std::is_sorted(host.begin(), host.end())) std::printf("one-sweep's output is not sorted\n");
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(temp));
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  const int G = argc > 1 ? std::atoi(argv[1]) : 2;
  // The MSD pass takes one-sweep's portion at most on each GPU.
  const uint64_t asked = uint64_t(1) << (argc > 2 ? std::atoi(argv[2]) : 31);
  const uint64_t n = std::min<uint64_t>(asked / G, onesweep::kPortionLimit) * G;
  const double share = argc > 3 ? std::atof(argv[3]) : 4.0;
  const int runs = argc > 4 ? std::atoi(argv[4]) : 10;
  std::string why;
  nccl = multi_gpu::nccl(&why);
  if (!nccl) {
    std::fprintf(stderr, "no NCCL: %s\n", why.c_str());
    return 2;
  }
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  if (devices < G) {
    std::fprintf(stderr, "%d GPUs asked for, %d here\n", G, devices);
    return 2;
  }
  std::vector<Gpu> gpus(G);
  std::vector<int> ids(G);
  for (int r = 0; r < G; ++r) gpus[r].device = ids[r] = r;
  // MM_PEER=0 leaves peer access off (NCCL then copies through its own buffers).
  if (!std::getenv("MM_PEER") || std::atoi(std::getenv("MM_PEER")) != 0)
    for (int r = 0; r < G; ++r) {
      CHECK(cudaSetDevice(r));
      for (int p = 0; p < G; ++p)
        if (p != r && cudaDeviceEnablePeerAccess(p, 0) != cudaSuccess) (void)cudaGetLastError();
    }
  std::vector<ncclComm_t> comms(G);
  NCCL_CHECK(nccl->CommInitAll(comms.data(), G, ids.data()));
  const uint64_t per = n / G;
  for (int r = 0; r < G; ++r) {
    gpus[r].comm = comms[r];
    // An owner holds its run and the rest of its last digit: with uniform keys a digit is n / 256,
    // with skewed ones it may be every key.
    const uint64_t out_capacity = g_key_mask == ~Bits(0) ? per + per / 16 : n;
    allocate(gpus[r], G, per, out_capacity, share, 7 + uint64_t(r) * n);
  }
  for (Gpu& g : gpus) {
    CHECK(cudaSetDevice(g.device));
    CHECK(cudaDeviceSynchronize());
  }
  std::printf("%d GPUs, n = %llu %s keys, waves of %llu keys (%.2f of L2 for two scratch copies)\n", G,
              (unsigned long long)n, kKeyName, (unsigned long long)gpus[0].capacity, share);
  if (std::getenv("MM_LINK") && std::atoi(std::getenv("MM_LINK")) == 1) link_probe(gpus);
  for (int i = 0; i < 2; ++i) sort_once(gpus);
  std::vector<Timing> times;
  for (int i = 0; i < runs; ++i) times.push_back(sort_once(gpus));
  std::sort(times.begin(), times.end(), [](const Timing& a, const Timing& b) { return a.total_ms < b.total_ms; });
  const Timing median = times[times.size() / 2];
  std::vector<uint64_t> sizes;
  bool ok = verify(gpus, n, &sizes);
  uint64_t most_sorted = 0;  // the keys of the digits a GPU owns, which it sorts
  for (const Gpu& g : gpus) most_sorted = std::max(most_sorted, g.total);
  for (int r = 0; r < G; ++r)
    if (sizes[r] != n / G) {
      std::printf("GPU %d's run is %llu keys, not its share\n", r, (unsigned long long)sizes[r]);
      ok = false;
    }
  const double one = one_gpu_ms(gpus, n, runs);
  std::printf("MSD-first on %d GPUs%s: %.2f ms; GPU 0 from its start: MSD pass done %.2f ms, exchange landed %.2f, "
              "sorted %.2f (the slowest GPU %.2f); %llu waves on GPU 0, most keys a GPU sorts / mean %.4f, %s\n",
              G, g_serial ? " (waves after the exchange)" : "", median.total_ms, median.msd_ms, median.exchanged_ms,
              median.sorted_ms, median.slowest_ms, (unsigned long long)gpus[0].waves.size(), double(most_sorted) * G / double(n),
              ok ? "verified" : "WRONG");
  std::printf("one-sweep on one GPU: %.2f ms; ratio %.3fx\n", one, one / median.total_ms);
  return ok ? 0 : 1;
}
