// The multi-GPU sort on CUDA and NCCL: keys spread over G GPUs of one host (or of several, one
// process a GPU) end as one sorted run on each GPU, the runs in global order, as cuPyNumeric's and
// CCCL's distributed sorts leave them. The steps, each GPU on its own stream:
//
//   1. local sort: each GPU sorts its keys with one-sweep (stable);
//   2. splitters by regular sampling of the sorted runs (Dehne and Zaboli's deterministic sampling
//      at the GPU level): S evenly spaced samples from each run, gathered to every GPU, sorted, and
//      every S-th kept. Items are ordered by (key, GPU, rank in its run), a total order, so equal
//      keys split too and no GPU receives more than about 2n/G (n/G + n/S) keys, whatever the
//      duplicates;
//   3. split points: each GPU finds every splitter in its run by binary search;
//   4. the counts, all-gathered: every GPU knows the G x G matrix of what goes where;
//   5. the exchange: ncclSend/ncclRecv of every pair in one group (all-to-all-v), in rounds that
//      each send the next part of every piece;
//   6. the merge: the G received runs, merged pairwise in log2(G) rounds (merge path), on a stream
//      of its own. Its first round runs beside the exchange: after each exchange round, every key
//      up to the last one landed is merged, so little is left once the last part lands.
//
// Ties keep their input order across GPUs (GPU 0's first), so the result is the stable sort of the
// shards taken in GPU order. NCCL is loaded at run time: without it, open() says why.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sortscope/sort_args.hpp"
#include "sortscope/status.hpp"

namespace sortscope::multi_gpu {

// One GPU's part of the input, resident in its memory. The sort overwrites it.
struct Shard {
  int device = 0;
  void* keys = nullptr;
  void* values = nullptr;  // value_bytes each, or null for keys alone
  uint64_t n = 0;
};

// One GPU's part of the output: its run of the sorted keys, in memory the Sorter owns (valid
// until its next sort or its end).
struct Run {
  int device = 0;
  const void* keys = nullptr;
  const void* values = nullptr;
  uint64_t n = 0;
};

// The steps, in order: the local sort, the splitters (sampling, split points and the counts), the
// exchange and the merge.
constexpr int kSteps = 4;

// Milliseconds of each step on one GPU, from CUDA events on its stream, and when each began, from
// the start of its local sort.
struct StepTimes {
  float local_sort = 0, sampling = 0, exchange = 0, merge = 0;
  float starts[kSteps] = {};
  float total() const { return local_sort + sampling + exchange + merge; }
  float duration(int step) const { return step == 0 ? local_sort : step == 1 ? sampling : step == 2 ? exchange : merge; }
};

struct Report {
  std::vector<Run> runs;                          // one per GPU of this process, in rank order
  std::vector<std::vector<uint64_t>> sent_bytes;  // [from rank][to rank], keys and values
  std::vector<StepTimes> steps;                   // one per GPU of this process
  uint64_t largest_run = 0;                       // over every rank
  uint64_t balance_bound = 0;                     // what regular sampling guarantees for it
  float wall_ms = 0;                              // on the host clock, from the call to every GPU's end
  std::vector<uint64_t> shard_sizes;              // [rank]: the keys it started with
  std::vector<uint64_t> splitters;                // ranks - 1 splitter keys, their raw bits zero-extended
  int exchange_rounds = 0;                        // the rounds the exchange went in
};

// What a step left on one GPU of this process: after the local sort and the splitters its sorted
// run, after the exchange the received runs one after another (in source order), after the merge
// its part of the output.
struct StepKeys {
  int device = 0;
  const void* keys = nullptr;
  uint64_t n = 0;
  void* stream = nullptr;  // the GPU's cudaStream_t: work enqueued there runs before the next step
};
// Called after step `step` (0 to kSteps - 1) is enqueued on every GPU: the work it enqueues on the
// stream runs after the step's, before anything overwrites the keys it is shown. The local sort's
// and the splitters' times leave it out; the exchange's hook comes once the merge beside it is
// enqueued too, and its copies share the GPU with that merge. A viewer copies the keys out here.
using StepHook = std::function<Status(int step, const std::vector<StepKeys>& keys)>;

// Why the multi-GPU sort cannot run here (no NCCL, fewer than two GPUs), or empty when it can.
std::string why_unavailable(int gpus_wanted = 2);

// One data set timed on one GPU (one-sweep) and on G GPUs, in one process: the keys resident on
// the GPUs before the clock starts, medians of `repeat` runs after `warmup`, the last output of
// each verified on the host (order, and every key with its input position, or a hash of the keys).
struct Comparison {
  int gpus = 0;
  std::string device_name;                  // GPU 0's
  double upload_ms = 0;                     // host to the GPUs, once, not in the sorts' times
  double peer_gbps = 0;                     // a 1 GiB copy from GPU 0 to GPU 1, measured first
  double one_gpu_ms = 0, multi_gpu_ms = 0;  // medians
  StepTimes steps;                          // GPU 0's, in the last timed run
  double exchange_gbps = 0;                 // what GPU 0 sent to other GPUs over its exchange step
  int exchange_rounds = 0;                  // the rounds it went in
  uint64_t largest_run = 0, balance_bound = 0;
  std::vector<std::vector<uint64_t>> sent_bytes;  // [from][to]

  // The multi-GPU radix sort (multi-gpu-radix) on the same keys, resident the same way.
  struct TimedStep {
    std::string name;
    double begin_ms = 0, end_ms = 0;  // from GPU 0's start
  };
  double radix_ms = 0;                         // median, on the host clock, from the call to every GPU's end
  std::vector<TimedStep> radix_steps;          // GPU 0's, in the last timed run
  double radix_exchange_gbps = 0;              // what GPU 0 sent over its exchange step
  uint64_t radix_most_received = 0, radix_bound = 0;  // keys a GPU received to sort, and the partition's bound
  std::vector<std::vector<uint64_t>> radix_sent_bytes;  // [from][to]
};
// `keys` in host memory: `args` gives their type and order, and value_bytes 4 for pairs (values:
// the keys' input positions).
struct HostKeysView {
  const void* keys = nullptr;
  uint64_t n = 0;
};
// `exchange_rounds`: as Sorter::set_exchange_rounds.
Status compare_with_one_gpu(HostKeysView keys, const SortArgs& args, int gpus, int repeat, int warmup,
                            int exchange_rounds, Comparison* out);

class Sorter {
 public:
  // One process driving `devices` (ncclCommInitAll).
  static Status open_all(const std::vector<int>& devices, std::unique_ptr<Sorter>* out);
  // One process per GPU: this process is `rank` of `ranks`, on `device`; `unique_id` is rank 0's
  // ncclUniqueId (new_unique_id), carried to every rank by the launcher.
  static Status open_rank(const std::string& unique_id, int ranks, int rank, int device, std::unique_ptr<Sorter>* out);
  static Status new_unique_id(std::string* unique_id);
  ~Sorter();

  int ranks() const;
  // The exchange goes in rounds, each sending the next part of every piece while the merge takes
  // what has landed. 0, the default, takes on two GPUs one round per 64 MiB of the whole data
  // set, at most 2, and on more GPUs one; a number sets them (1 to 16), the same on every rank.
  void set_exchange_rounds(int rounds);
  // Sorts the shards of this process's GPUs, one per GPU in the order they were opened.
  // `args` gives the key type, the value width (0, 4 or 8) and the order; its pointers and n are
  // the shards'. Collective: every rank calls it.
  Status sort(const SortArgs& args, const std::vector<Shard>& shards, Report* report,
              const StepHook* after_step = nullptr);

  struct Impl;

 private:
  explicit Sorter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace sortscope::multi_gpu
