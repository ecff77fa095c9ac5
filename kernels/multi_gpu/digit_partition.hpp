// The radix partition of a multi-device sort that spreads its keys before sorting them (RMG sort's
// order): each device counts its keys by their top digit, and from every device's counts alone the
// host decides where each device's keys of each digit go. The global order is digit by digit, and
// within a digit device by device in the order the devices hold their keys, so the sort stays
// stable. Device r receives global positions [n r / G, n (r + 1) / G): every device ends with its
// fair share exactly, whatever the keys, because a digit on the boundary between two devices is
// split between them by position, as sample-det splits equal keys. One header, so that the GPUs
// and the CPU backend's simulated devices cut alike.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace sortscope::multi_gpu {

// The keys of one digit that go from one device to one device: `count` keys starting `from` keys
// into the source's keys of that digit, to `to` keys into the receiver's run.
struct DigitPiece {
  int source = 0;
  int receiver = 0;
  uint32_t digit = 0;
  uint64_t from = 0;
  uint64_t count = 0;
  uint64_t to = 0;
};

struct DigitPartition {
  // Receiver r's run is global positions [run_begin[r], run_begin[r + 1]).
  std::vector<uint64_t> run_begin;
  // Every piece, by receiver, then digit, then source: each receiver's pieces tile its run in order.
  std::vector<DigitPiece> pieces;

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
  // Walk the global order once; `at` is the global position of the next key, `receiver` the device
  // whose run holds it.
  uint64_t at = 0;
  int receiver = 0;
  for (size_t d = 0; d < digits; ++d)
    for (int s = 0; s < devices; ++s) {
      uint64_t from = 0, left = counts[size_t(s)][d];
      while (left > 0) {
        while (at >= p.run_begin[size_t(receiver) + 1]) ++receiver;
        const uint64_t take = std::min(left, p.run_begin[size_t(receiver) + 1] - at);
        p.pieces.push_back({s, receiver, uint32_t(d), from, take, at - p.run_begin[size_t(receiver)]});
        at += take;
        from += take;
        left -= take;
      }
    }
  return p;
}

// Whether piece i is all of its source's keys of its digit, kept on that device: the MSD pass can
// then scatter those keys straight to their place in the run, with nothing to copy afterwards.
inline bool stays_whole(const DigitPartition& p, size_t i, const std::vector<std::vector<uint64_t>>& counts) {
  const DigitPiece& piece = p.pieces[i];
  return piece.source == piece.receiver && piece.from == 0 &&
         piece.count == counts[size_t(piece.source)][piece.digit];
}

// Where the MSD pass puts each device's keys, and what moves after it. Each device has one buffer:
// its run at the front, and from staging_at[s] on, the keys it scatters to be moved. Device s's
// keys of digit d go, in their order, from starts[s][d]: to their place in its own run where they
// all stay there (stays_whole), else into staging at the keys it holds of the digits before d.
// `moves` lists the other pieces: each is copied from starts[source][digit] + from on its source
// to `to` in its receiver's run (a device's own part of a digit it shares is moved too, locally).
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
    if (stays_whole(p, i, counts))
      layout.starts[size_t(piece.source)][piece.digit] = piece.to;
    else
      layout.moves.push_back(i);
  }
  return layout;
}

// How many keys of each digit device r's run holds, in digit order.
inline std::vector<uint64_t> held_by(const DigitPartition& p, int r, size_t digits) {
  std::vector<uint64_t> held(digits, 0);
  for (const DigitPiece& piece : p.pieces)
    if (piece.receiver == r) held[piece.digit] += piece.count;
  return held;
}

}  // namespace sortscope::multi_gpu
