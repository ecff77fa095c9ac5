// The multi-GPU radix sort's steps on the GPUs (multi_gpu_radix_algorithm.hpp names them), for one
// key width; multi_gpu_radix_u*.cu compile it once each.
//
// Every GPU at once: the histogram of its keys' top digit (msd_count), whose counts the host plans
// from (digit_partition.hpp); the scatter (msd_scatter), each digit to where the plan puts it on
// this GPU: the digits it owns in place in its run, the others into staging behind it. Then, wave
// by wave of each owner's digits, the staged pieces go to their owners by the copy engines, and
// each wave is sorted in L2 (sort_wave) once its pieces have landed, so the exchange runs under the
// sort. Last, each owner's last digit, where it runs past the owner's share, is handed on sorted.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "block/msd_waves.cuh"
#include "multi_gpu/cuda_status.hpp"
#include "multi_gpu_radix/multi_gpu_radix_gpus.hpp"
#include "onesweep/onesweep_instances.hpp"
#include "sortscope/key_traits.hpp"

namespace sortscope::multi_gpu_radix {
namespace detail_sort {

namespace mw = sortscope::msd_waves;
static_assert(mw::kMsdBits == kMsdBits, "the plan and the MSD pass take the same top digit");

// A wave's two scratch copies take this many times the L2 cache: larger waves fill the GPU better
// than waves L2 holds (docs/performance.md, "Fewer bytes: MSD-first designs"), and 8 was the
// fastest share in the multi-GPU race.
constexpr double kWaveL2Share = 8.0;

// Two GPUs push their pieces (the sender issues the copies), more pull them (the receiver does):
// the faster way on each in the race (docs/performance.md).
inline bool pushes(int gpus) { return gpus == 2; }

// The copies a wave moves between two GPUs, issued together.
struct CopyBatch {
  std::vector<void*> to;
  std::vector<const void*> from;
  std::vector<size_t> bytes;
  void add(void* t, const void* f, size_t b) {
    if (b == 0) return;
    to.push_back(t);
    from.push_back(f);
    bytes.push_back(b);
  }
  cudaError_t issue(cudaStream_t stream) {
    if (to.empty()) return cudaSuccess;
#if CUDART_VERSION >= 13000
    // One call, the copies in no order among themselves.
    cudaMemcpyAttributes attributes{};
    attributes.srcAccessOrder = cudaMemcpySrcAccessOrderStream;
    size_t first = 0;
    return cudaMemcpyBatchAsync(to.data(), from.data(), bytes.data(), to.size(), &attributes, &first, 1, stream);
#else
    for (size_t i = 0; i < to.size(); ++i)
      if (const cudaError_t e = cudaMemcpyAsync(to[i], from[i], bytes[i], cudaMemcpyDefault, stream); e != cudaSuccess)
        return e;
    return cudaSuccess;
#endif
  }
};

template <typename Bits, typename Value, int KC>
struct Sort {
  static constexpr bool kValues = onesweep::device::kHasValues<Value>;
  static constexpr int kValueBytes = kValues ? int(sizeof(Value)) : 0;
  static constexpr int kKeyBits = 8 * int(sizeof(Bits));
  static constexpr int kMsdBegin = kKeyBits - kMsdBits;
  static constexpr onesweep::KernelShape kPass = onesweep::pass_shape(sizeof(Bits), kValueBytes, true);
  static constexpr uint32_t kTile = kPass.tile_items();
  // The passes below the top digit: none for 8-bit keys, which the MSD pass sorts whole.
  static constexpr int kPasses = (kMsdBegin + onesweep::kRadixBits - 1) / onesweep::kRadixBits;

  Machine& m;
  const SortArgs& a;
  const AfterStep* after_step;
  Outcome* out;
  int G = int(m.gpus.size());
  Twiddle<Bits> twiddle =
      make_twiddle<Bits>(info(a.key_type).is_signed, info(a.key_type).is_float, a.descending);
  std::vector<std::vector<mw::Wave>> waves;  // [gpu]
  std::vector<mw::MsdRegions> msd;            // [gpu]
  uint64_t capacity = 0;                      // the items a wave holds

  Bits* keys(int r) const { return static_cast<Bits*>(m.gpus[size_t(r)].keys.get()); }
  Value* values(int r) const { return static_cast<Value*>(m.gpus[size_t(r)].values.get()); }
  uint32_t* host_counts(int r) const { return m.gpus[size_t(r)].host_words; }
  uint32_t* host_starts(int r) const { return m.gpus[size_t(r)].host_words + mw::kBuckets; }
  uint32_t* host_tables(int r) const { return m.gpus[size_t(r)].host_words + 2 * mw::kBuckets; }

  // One-sweep over the bits below the top digit, between a digit's place and the same range of the
  // alternate buffers, on the GPU's compute stream.
  ::sortscope::detail::SortCall large_digit_call(int r, uint64_t items) const {
    ::sortscope::detail::SortCall call;
    call.args = a;
    call.args.begin_bit = 0;
    call.args.end_bit = kMsdBegin;
    call.args.n = items;
    call.args.kernel_times = nullptr;
    call.stream = m.gpus[size_t(r)].compute;
    return call;
  }

  Status mark(cudaEvent_t Gpu::*event, cudaStream_t Gpu::*stream) {
    for (Gpu& g : m.gpus) {
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.*event, g.*stream), "cudaEventRecord");
    }
    return Status::Ok();
  }

  Status finish_step(int step) {
    if (!after_step) return Status::Ok();
    for (Gpu& g : m.gpus) {
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaDeviceSynchronize(), "the multi-GPU radix sort");
    }
    return (*after_step)(step, *out);
  }

  // 1. The top digit's histogram on every GPU, its counts to the host, and the plan.
  Status count_and_plan() {
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaDeviceSynchronize(), "the work before the multi-GPU radix sort");
    }
    SORTSCOPE_RETURN_IF_ERROR(mark(&Gpu::start, &Gpu::compute));
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      // [bins][counter][look-back], each row on 1 KiB of its own, cleared; then the plan and tables.
      constexpr uint64_t kRow = 256;
      const uint64_t tiles = (g.shard_n + kTile - 1) / kTile;
      const uint64_t cleared = (2 * kRow + std::max<uint64_t>(tiles, 1) * onesweep::kDigits) * sizeof(uint32_t);
      SORTSCOPE_CUDA_STATUS(g.msd_words.ensure(cleared), "the MSD pass's counters");
      SORTSCOPE_CUDA_STATUS(g.msd_plan.ensure(sizeof(onesweep::device::PassPlan)), "the MSD pass's plan");
      SORTSCOPE_CUDA_STATUS(g.bucket_begin.ensure((mw::kBuckets + 1) * sizeof(uint32_t)), "the MSD pass's tables");
      SORTSCOPE_CUDA_STATUS(g.bucket_tile.ensure((mw::kBuckets + 1) * sizeof(uint32_t)), "the MSD pass's tables");
      auto* words = static_cast<uint32_t*>(g.msd_words.get());
      msd[size_t(r)] = {words, words + kRow, words + 2 * kRow, static_cast<onesweep::device::PassPlan*>(g.msd_plan.get()),
                        static_cast<uint32_t*>(g.bucket_begin.get()), static_cast<uint32_t*>(g.bucket_tile.get())};
      SORTSCOPE_CUDA_STATUS(cudaMemsetAsync(g.msd_words.get(), 0, cleared, g.compute), "clearing the MSD pass");
      if (g.shard_n == 0) {
        std::fill(host_counts(r), host_counts(r) + mw::kBuckets, 0u);
        SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.counted, g.compute), "cudaEventRecord");
        continue;
      }
      SORTSCOPE_CUDA_STATUS((mw::msd_count<Bits, Value, KC>(msd[size_t(r)], static_cast<const Bits*>(g.shard_keys.get()),
                                                             g.shard_n, twiddle, kMsdBegin, kKeyBits, host_counts(r),
                                                             g.counted, g.compute)),
                            "the MSD pass's histogram");
    }
    std::vector<std::vector<uint64_t>> counts(size_t(G), std::vector<uint64_t>(mw::kBuckets));
    for (int r = 0; r < G; ++r)
      SORTSCOPE_CUDA_STATUS(cudaEventSynchronize(m.gpus[size_t(r)].counted), "the MSD pass's histogram");
    for (int r = 0; r < G; ++r)
      for (int d = 0; d < mw::kBuckets; ++d) counts[size_t(r)][size_t(d)] = m.gpus[size_t(r)].host_words[d];
    out->partition = partition_by_digits(counts);
    layout = scatter_layout(out->partition, counts, out->partition.extent);
    return Status::Ok();
  }

  // Each GPU's memory for what the plan gives it, its waves and their tables.
  Status prepare() {
    capacity = uint64_t(kWaveL2Share * double(mw::l2_bytes())) / (2 * (sizeof(Bits) + kValueBytes)) / kTile * kTile;
    capacity = std::max<uint64_t>(capacity, kTile);
    const DigitPartition& p = out->partition;
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      const uint64_t items = p.extent[size_t(r)] + g.shard_n;
      // The MSD pass's digit starts and the waves' tables are 32-bit.
      if (items > UINT32_MAX)
        return Unsupported("the multi-GPU radix sort holds at most 2^32 - 1 keys a GPU, its share and what it sends");
      SORTSCOPE_CUDA_STATUS(g.keys.ensure(items * sizeof(Bits)), "the run");
      if (after_step)
        SORTSCOPE_CUDA_STATUS(g.landed.ensure((p.extent[size_t(r)] - p.head[size_t(r)]) * sizeof(Bits)),
                              "the keys kept as they landed");
      if constexpr (kValues) SORTSCOPE_CUDA_STATUS(g.values.ensure(items * sizeof(Value)), "the run's values");
      const std::vector<uint64_t> owned = owned_by(p, r, mw::kBuckets);
      uint32_t owned32[mw::kBuckets];
      uint32_t* begin = host_tables(r);
      uint32_t* tile = begin + mw::kBuckets + 1;
      uint64_t at = 0, tiles = 0;
      for (int d = 0; d < mw::kBuckets; ++d) {
        owned32[d] = uint32_t(owned[size_t(d)]);
        begin[d] = uint32_t(at);
        tile[d] = uint32_t(tiles);
        at += owned[size_t(d)];
        tiles += (owned[size_t(d)] + kTile - 1) / kTile;
      }
      begin[mw::kBuckets] = uint32_t(at);
      tile[mw::kBuckets] = uint32_t(tiles);
      waves[size_t(r)] = kPasses > 0 ? mw::plan_waves(owned32, kTile, capacity) : std::vector<mw::Wave>{};
      uint64_t largest = 0;
      for (const mw::Wave& w : waves[size_t(r)])
        if (w.items > capacity) largest = std::max(largest, w.items);
      if (largest > 0) {
        SORTSCOPE_CUDA_STATUS(g.alt_keys.ensure(p.extent[size_t(r)] * sizeof(Bits)), "a large digit's buffer");
        if constexpr (kValues)
          SORTSCOPE_CUDA_STATUS(g.alt_values.ensure(p.extent[size_t(r)] * sizeof(Value)), "a large digit's buffer");
        ::sortscope::detail::SortCall large = large_digit_call(r, largest);
        int selector = 0;
        size_t bytes = 0;
        large.key_selector = &selector;
        large.value_selector = kValues ? &selector : nullptr;
        large.temp_storage_bytes = &bytes;
        SORTSCOPE_CUDA_STATUS(onesweep::instances::sort_class<Bits>(large),
                              "a large digit's temp storage");
        SORTSCOPE_CUDA_STATUS(g.large_temp.ensure(bytes), "a large digit's temp storage");
      }
      if (waves[size_t(r)].empty()) continue;  // none for 8-bit keys: the MSD pass sorted them
      SORTSCOPE_CUDA_STATUS(g.scratch_keys.ensure(2 * capacity * sizeof(Bits)), "the waves' scratch");
      if constexpr (kValues) SORTSCOPE_CUDA_STATUS(g.scratch_values.ensure(2 * capacity * sizeof(Value)), "the waves' scratch");
      const uint64_t lookback_words = ((capacity + kTile - 1) / kTile + mw::kBuckets) * onesweep::kDigits;
      SORTSCOPE_CUDA_STATUS(g.lookback.ensure(2 * lookback_words * sizeof(uint32_t)), "the waves' look-back");
      const uint64_t cleared =
          (uint64_t(mw::kBuckets) * kPasses * onesweep::kDigits + uint64_t(mw::kBuckets) * kPasses) * sizeof(uint32_t);
      SORTSCOPE_CUDA_STATUS(g.wave_words.ensure(cleared), "the waves' histograms");
      SORTSCOPE_CUDA_STATUS(cudaMemsetAsync(g.wave_words.get(), 0, cleared, g.compute), "clearing the waves");
      SORTSCOPE_CUDA_STATUS(g.table_begin.ensure((mw::kBuckets + 1) * sizeof(uint32_t)), "the waves' tables");
      SORTSCOPE_CUDA_STATUS(g.table_tile.ensure((mw::kBuckets + 1) * sizeof(uint32_t)), "the waves' tables");
      SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(g.table_begin.get(), begin, (mw::kBuckets + 1) * sizeof(uint32_t),
                                            cudaMemcpyHostToDevice, g.compute),
                            "the waves' tables");
      SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(g.table_tile.get(), tile, (mw::kBuckets + 1) * sizeof(uint32_t),
                                            cudaMemcpyHostToDevice, g.compute),
                            "the waves' tables");
    }
    return Status::Ok();
  }

  // 1, continued. The MSD pass's scatter, each digit to its start in the plan.
  Status scatter() {
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      if (g.shard_n > 0) {
        for (int d = 0; d < mw::kBuckets; ++d) host_starts(r)[d] = uint32_t(layout.starts[size_t(r)][size_t(d)]);
        SORTSCOPE_CUDA_STATUS((mw::msd_scatter<Bits, Value, KC>(
                                  msd[size_t(r)], static_cast<const Bits*>(g.shard_keys.get()), keys(r),
                                  static_cast<const Value*>(g.shard_values.get()), values(r), g.shard_n, twiddle,
                                  kMsdBegin, kKeyBits, host_starts(r), g.compute)),
                              "the MSD pass's scatter");
      }
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.msd_done, g.compute), "cudaEventRecord");
    }
    return Status::Ok();
  }

  // 2. The pieces to their owners, wave by wave of the owner's digits: for each wave and pair of
  //    GPUs, one batch of copies on the issuing GPU's stream to the other.
  Status exchange() {
    const DigitPartition& p = out->partition;
    const bool push = pushes(G);
    size_t rounds = 0;
    std::vector<std::vector<size_t>> wave_of(size_t(G), std::vector<size_t>(mw::kBuckets, 0));
    for (int r = 0; r < G; ++r) {
      rounds = std::max(rounds, std::max<size_t>(waves[size_t(r)].size(), 1));
      for (size_t k = 0; k < waves[size_t(r)].size(); ++k) {
        const mw::Wave& w = waves[size_t(r)][k];
        for (uint32_t d = w.first_bucket; d < w.first_bucket + w.buckets; ++d) wave_of[size_t(r)][d] = k;
      }
    }
    for (Gpu& g : m.gpus) {
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.link, g.msd_done), "cudaStreamWaitEvent");
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.exchange_begin, g.link), "cudaEventRecord");
      while (g.copied.size() < rounds * size_t(G)) {
        g.copied.emplace_back();
        SORTSCOPE_CUDA_STATUS(cudaEventCreateWithFlags(&g.copied.back(), cudaEventDisableTiming), "cudaEventCreate");
      }
    }
    // Each pair's stream starts once both GPUs' MSD passes are done (the source's staging is full,
    // the receiver's scatter has written its own digits).
    for (int r = 0; r < G; ++r)
      for (int s = 0; s < G; ++s) {
        Gpu& issuer = m.gpus[size_t(push ? s : r)];
        cudaStream_t stream = issuer.peers[size_t(push ? r : s)];
        SORTSCOPE_CUDA_STATUS(cudaSetDevice(issuer.device), "cudaSetDevice");
        SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(stream, m.gpus[size_t(s)].msd_done), "cudaStreamWaitEvent");
        SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(stream, m.gpus[size_t(r)].msd_done), "cudaStreamWaitEvent");
      }
    // Wave k of every receiver, then wave k + 1, so that no GPU's first wave waits behind another's last.
    for (size_t k = 0; k < rounds; ++k)
      for (int r = 0; r < G; ++r)
        for (int s = 0; s < G; ++s) {
          Gpu& issuer = m.gpus[size_t(push ? s : r)];
          const int other = push ? r : s;
          CopyBatch batch;
          for (size_t i : layout.moves) {
            const DigitPiece& piece = p.pieces[i];
            if (piece.source != s || piece.receiver != r || wave_of[size_t(r)][piece.digit] != k) continue;
            const uint64_t from = layout.starts[size_t(s)][piece.digit];
            batch.add(keys(r) + piece.to, keys(s) + from, piece.count * sizeof(Bits));
            if constexpr (kValues) batch.add(values(r) + piece.to, values(s) + from, piece.count * sizeof(Value));
          }
          SORTSCOPE_CUDA_STATUS(cudaSetDevice(issuer.device), "cudaSetDevice");
          SORTSCOPE_CUDA_STATUS(batch.issue(issuer.peers[size_t(other)]), "the exchange's copies");
          SORTSCOPE_CUDA_STATUS(cudaEventRecord(issuer.copied[k * size_t(G) + size_t(other)], issuer.peers[size_t(other)]),
                                "cudaEventRecord");
        }
    // A GPU's exchange ends when every copy into or out of it has landed.
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      for (int o = 0; o < G; ++o) {
        const size_t last = (rounds - 1) * size_t(G);
        SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.link, g.copied[last + size_t(o)]), "cudaStreamWaitEvent");
        SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.link, m.gpus[size_t(o)].copied[last + size_t(r)]),
                              "cudaStreamWaitEvent");
      }
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.exchanged, g.link), "cudaEventRecord");
    }
    return Status::Ok();
  }

  // A traced run's copy of keys that landed, before their sort overwrites them.
  Status keep_landed(Gpu& g, const Bits* base, uint64_t begin, uint64_t items) {
    if (!after_step || items == 0) return Status::Ok();
    SORTSCOPE_CUDA_STATUS(cudaMemcpyAsync(static_cast<Bits*>(g.landed.get()) + begin, base + begin,
                                          items * sizeof(Bits), cudaMemcpyDeviceToDevice, g.compute),
                          "keeping the keys as they landed");
    return Status::Ok();
  }

  // 3. Each owner's waves, each once its copies have landed.
  Status sort_digits() {
    const bool push = pushes(G);
    const DigitPartition& p = out->partition;
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.sort_begin, g.compute), "cudaEventRecord");
      Bits* base = keys(r) + p.head[size_t(r)];
      Value* value_base = kValues ? values(r) + p.head[size_t(r)] : nullptr;
      const mw::BucketTables tables{static_cast<const uint32_t*>(g.table_begin.get()),
                                    static_cast<const uint32_t*>(g.table_tile.get())};
      const uint64_t lookback_words = ((capacity + kTile - 1) / kTile + mw::kBuckets) * onesweep::kDigits;
      auto* wave_words = static_cast<uint32_t*>(g.wave_words.get());
      const mw::WaveRegions<Bits, Value> regions{
          {static_cast<Bits*>(g.scratch_keys.get()), static_cast<Bits*>(g.scratch_keys.get()) + capacity},
          {kValues ? static_cast<Value*>(g.scratch_values.get()) : nullptr,
           kValues ? static_cast<Value*>(g.scratch_values.get()) + capacity : nullptr},
          {static_cast<uint32_t*>(g.lookback.get()), static_cast<uint32_t*>(g.lookback.get()) + lookback_words},
          wave_words,
          wave_words + uint64_t(mw::kBuckets) * kPasses * onesweep::kDigits};
      const uint64_t owned_total = p.extent[size_t(r)] - p.head[size_t(r)];
      for (size_t k = 0; k < waves[size_t(r)].size(); ++k) {
        const mw::Wave& w = waves[size_t(r)][k];
        for (int o = 0; o < G; ++o)
          SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.compute, push ? m.gpus[size_t(o)].copied[k * size_t(G) + size_t(r)]
                                                                    : g.copied[k * size_t(G) + size_t(o)]),
                                "cudaStreamWaitEvent");
        SORTSCOPE_RETURN_IF_ERROR(keep_landed(g, base, w.begin, w.items));
        if (w.items > capacity) {
          ::sortscope::detail::SortCall large = large_digit_call(r, w.items);
          size_t bytes = g.large_temp.bytes();
          large.d_temp_storage = g.large_temp.get();
          large.temp_storage_bytes = &bytes;
          SORTSCOPE_CUDA_STATUS((mw::sort_oversized_wave<Bits, Value, KC>(
                                    large, w, base, value_base, static_cast<Bits*>(g.alt_keys.get()),
                                    kValues ? static_cast<Value*>(g.alt_values.get()) : nullptr)),
                                "a large digit's sort");
          continue;
        }
        SORTSCOPE_CUDA_STATUS((mw::sort_wave<Bits, Value, KC>(regions, tables, w, uint32_t(k), base, value_base,
                                                              owned_total, twiddle, 0, kMsdBegin, g.compute)),
                              "a wave's sort");
      }
      // Every copy into this GPU has landed before its sort is done (an owner of nothing waits too).
      SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.compute, g.exchanged), "cudaStreamWaitEvent");
      // 8-bit keys have no waves: the MSD pass sorted them, and the exchange leaves them in place.
      if (waves[size_t(r)].empty()) SORTSCOPE_RETURN_IF_ERROR(keep_landed(g, base, 0, owned_total));
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.sorted, g.compute), "cudaEventRecord");
    }
    return Status::Ok();
  }

  // 4. The handoffs: each owner's sorted keys past its share to the front of the next runs.
  Status hand_on() {
    const DigitPartition& p = out->partition;
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.hand_begin, g.compute), "cudaEventRecord");
      for (const Handoff& h : p.handoffs) {
        if (h.owner != r) continue;
        const int to = m.gpus[size_t(h.receiver)].device;
        SORTSCOPE_CUDA_STATUS(cudaMemcpyPeerAsync(keys(h.receiver), to, keys(r) + h.from, g.device,
                                                  h.count * sizeof(Bits), g.compute),
                              "the handoff");
        if constexpr (kValues)
          SORTSCOPE_CUDA_STATUS(cudaMemcpyPeerAsync(values(h.receiver), to, values(r) + h.from, g.device,
                                                    h.count * sizeof(Value), g.compute),
                                "the handoff");
      }
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.handed, g.compute), "cudaEventRecord");
    }
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      for (const Handoff& h : p.handoffs)
        if (h.receiver == r)
          SORTSCOPE_CUDA_STATUS(cudaStreamWaitEvent(g.compute, m.gpus[size_t(h.owner)].handed), "cudaStreamWaitEvent");
      SORTSCOPE_CUDA_STATUS(cudaEventRecord(g.done, g.compute), "cudaEventRecord");
    }
    return Status::Ok();
  }

  // Each GPU's four steps on its own clock.
  Status time_steps() {
    out->steps.assign(size_t(G), {});
    for (int r = 0; r < G; ++r) {
      Gpu& g = m.gpus[size_t(r)];
      SORTSCOPE_CUDA_STATUS(cudaSetDevice(g.device), "cudaSetDevice");
      SORTSCOPE_CUDA_STATUS(cudaEventSynchronize(g.done), "the multi-GPU radix sort");
      const cudaEvent_t bounds[kSteps][2] = {
          {g.start, g.msd_done}, {g.exchange_begin, g.exchanged}, {g.sort_begin, g.sorted}, {g.hand_begin, g.done}};
      for (int k = 0; k < kSteps; ++k) {
        float begin = 0, end = 0;
        SORTSCOPE_CUDA_STATUS(cudaEventElapsedTime(&begin, g.start, bounds[k][0]), "cudaEventElapsedTime");
        SORTSCOPE_CUDA_STATUS(cudaEventElapsedTime(&end, g.start, bounds[k][1]), "cudaEventElapsedTime");
        out->steps[size_t(r)].push_back({uint32_t(r), kStepNames[k], begin, std::max(begin, end)});
      }
    }
    return Status::Ok();
  }

  Status run() {
    waves.assign(size_t(G), {});
    msd.assign(size_t(G), {});
    out->shard_sizes.clear();
    for (const Gpu& g : m.gpus) out->shard_sizes.push_back(g.shard_n);
    SORTSCOPE_RETURN_IF_ERROR(count_and_plan());
    SORTSCOPE_RETURN_IF_ERROR(prepare());
    SORTSCOPE_RETURN_IF_ERROR(scatter());
    SORTSCOPE_RETURN_IF_ERROR(finish_step(0));
    SORTSCOPE_RETURN_IF_ERROR(exchange());
    SORTSCOPE_RETURN_IF_ERROR(sort_digits());
    SORTSCOPE_RETURN_IF_ERROR(finish_step(1));
    SORTSCOPE_RETURN_IF_ERROR(finish_step(2));
    SORTSCOPE_RETURN_IF_ERROR(hand_on());
    SORTSCOPE_RETURN_IF_ERROR(time_steps());
    return finish_step(3);
  }

  ScatterLayout layout;
};

}  // namespace detail_sort

namespace detail_sort {

template <typename Bits, typename Value>
Status sort_with_values(Machine& m, const SortArgs& a, const AfterStep* after_step, Outcome* out) {
  using namespace onesweep::device;
  const KeyTypeInfo& k = info(a.key_type);
  switch (key_class_of(k.is_signed, k.is_float, a.descending)) {
    case kOrderedAlready: return Sort<Bits, Value, kOrderedAlready>{m, a, after_step, out}.run();
    case kTwiddled: return Sort<Bits, Value, kTwiddled>{m, a, after_step, out}.run();
    default:
      // Floats are 16 bits wide or more.
      if constexpr (sizeof(Bits) >= 2) return Sort<Bits, Value, kFloat>{m, a, after_step, out}.run();
      else return Unsupported("no 8-bit float keys");
  }
}

}  // namespace detail_sort

template <typename Bits>
Status sort_on_gpus(Machine& m, const SortArgs& a, const AfterStep* after_step, Outcome* out) {
  switch (a.value_bytes) {
    case 0: return detail_sort::sort_with_values<Bits, onesweep::device::KeysOnly>(m, a, after_step, out);
    case 4: return detail_sort::sort_with_values<Bits, uint32_t>(m, a, after_step, out);
    case 8: return detail_sort::sort_with_values<Bits, uint64_t>(m, a, after_step, out);
    default: return Unsupported("the multi-GPU radix sort moves values of 4 or 8 bytes");
  }
}

}  // namespace sortscope::multi_gpu_radix
