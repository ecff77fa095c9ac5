// The radix partition of a multi-device sort that spreads its keys before sorting them (RMG sort's
// order): each device counts its keys by their top digit, and from every device's counts alone the
// host decides where each device's keys of each digit go. The global order is digit by digit, and
// within a digit device by device in the order the devices hold their keys, so the sort stays
// stable. Device r ends with global positions [n r / G, n (r + 1) / G): its fair share exactly,
// whatever the keys.
//
// Keys of one digit are not in order until the digit is sorted, so a digit cannot be cut between
// two devices before that: the runs would overlap. Each digit goes whole to one device, its owner:
// the device whose share holds the digit's first key. A digit that runs past its owner's share (one
// at most per device) is sorted there whole, and its sorted keys past the share are then handed to
// the front of the next devices' runs. One header, so that the GPUs and the CPU backend's simulated
// devices cut alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sortscope::multi_gpu_radix {

// All of one source's keys of one digit, sent to the digit's owner: `count` keys to `to` keys into
// the owner's run.
struct DigitPiece {
  int source = 0;
  int receiver = 0;
  uint32_t digit = 0;
  uint64_t count = 0;
  uint64_t to = 0;
};

// Sorted keys of a digit that runs past its owner's share: `count` keys from `from` keys into the
// owner's run (past its end) to the front of the receiver's run.
struct Handoff {
  int owner = 0;
  int receiver = 0;
  uint32_t digit = 0;
  uint64_t from = 0;
  uint64_t count = 0;
};

struct DigitPartition {
  // Receiver r's run is global positions [run_begin[r], run_begin[r + 1]).
  std::vector<uint64_t> run_begin;
  // Every piece, by digit, then source: each owner's pieces tile [head[r], extent[r]) in order.
  std::vector<DigitPiece> pieces;
  // In the order of the owners' digits.
  std::vector<Handoff> handoffs;
  // head[r]: the keys handed to the front of r's run; the digits r owns begin there.
  std::vector<uint64_t> head;
  // extent[r]: where the digits r owns end in its run, at least its run's size; past the run's end
  // lie the sorted keys it hands on.
  std::vector<uint64_t> extent;

  uint64_t run_size(int r) const { return run_begin[size_t(r) + 1] - run_begin[size_t(r)]; }
};

// counts[s][d]: how many of device s's keys have top digit d (every device the same number of
// digits). Pieces of zero keys are left out.
inline DigitPartition partition_by_digits(const std::vector<std::vector<uint64_t>>& counts) {
  DigitPartition p;
  const int devices = int(counts.size());
  const size_t digits = devices ? counts[0].size() : 0;
  uint64_t n = 0;
  for (const std::vector<uint64_t>& c : counts)
    for (uint64_t k : c) n += k;
  for (int r = 0; r <= devices; ++r) p.run_begin.push_back(devices ? n * uint64_t(r) / uint64_t(devices) : 0);
  for (int r = 0; r < devices; ++r) {
    p.head.push_back(p.run_size(r));  // until r is found to own a digit
    p.extent.push_back(p.run_size(r));
  }
  std::vector<bool> owns(size_t(devices), false);
  // `begin` is the global position of digit d's first key, `owner` the device whose run holds it.
  uint64_t begin = 0;
  int owner = 0;
  for (size_t d = 0; d < digits; ++d) {
    uint64_t total = 0;
    for (int s = 0; s < devices; ++s) total += counts[size_t(s)][d];
    if (total == 0) continue;
    while (begin >= p.run_begin[size_t(owner) + 1]) ++owner;
    const uint64_t local = begin - p.run_begin[size_t(owner)], end = begin + total;
    if (!owns[size_t(owner)]) p.head[size_t(owner)] = local;
    owns[size_t(owner)] = true;
    uint64_t to = local;
    for (int s = 0; s < devices; ++s)
      if (const uint64_t count = counts[size_t(s)][d]) {
        p.pieces.push_back({s, owner, uint32_t(d), count, to});
        to += count;
      }
    p.extent[size_t(owner)] = std::max(p.extent[size_t(owner)], end - p.run_begin[size_t(owner)]);
    for (int h = owner + 1; h < devices && p.run_begin[size_t(h)] < end; ++h)
      if (const uint64_t count = std::min(end, p.run_begin[size_t(h) + 1]) - p.run_begin[size_t(h)])
        p.handoffs.push_back({owner, h, uint32_t(d), p.run_begin[size_t(h)] - p.run_begin[size_t(owner)], count});
    begin = end;
  }
  return p;
}

// Where the MSD pass puts each device's keys, and what moves after it. Each device has one buffer:
// its run at the front (extent keys, with what it hands on), and from staging_at[s] on, the keys it
// sends. Device s's keys of digit d go, in their order, from starts[s][d]: to their place in its
// own run when s owns d, else into staging at the keys it holds of the digits before d. `moves`
// lists the pieces that then go from staging to their owners.
struct ScatterLayout {
  std::vector<std::vector<uint64_t>> starts;  // [device][digit]
  std::vector<size_t> moves;                  // indices into DigitPartition::pieces
};

inline ScatterLayout scatter_layout(const DigitPartition& p, const std::vector<std::vector<uint64_t>>& counts,
                                    const std::vector<uint64_t>& staging_at) {
  ScatterLayout layout;
  for (size_t s = 0; s < counts.size(); ++s) {
    std::vector<uint64_t> starts(counts[s].size());
    uint64_t before = 0;
    for (size_t d = 0; d < counts[s].size(); ++d) {
      starts[d] = staging_at[s] + before;
      before += counts[s][d];
    }
    layout.starts.push_back(std::move(starts));
  }
  for (size_t i = 0; i < p.pieces.size(); ++i) {
    const DigitPiece& piece = p.pieces[i];
    if (piece.source == piece.receiver)
      layout.starts[size_t(piece.source)][piece.digit] = piece.to;
    else
      layout.moves.push_back(i);
  }
  return layout;
}

// How many keys of each digit device r owns and sorts, in digit order (from head[r] in its run).
inline std::vector<uint64_t> owned_by(const DigitPartition& p, int r, size_t digits) {
  std::vector<uint64_t> owned(digits, 0);
  for (const DigitPiece& piece : p.pieces)
    if (piece.receiver == r) owned[piece.digit] += piece.count;
  return owned;
}

}  // namespace sortscope::multi_gpu_radix
