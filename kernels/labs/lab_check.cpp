// What `lab check` runs and how it judges a case: the fixed case list, the verdict against the
// input stably sorted, and the coalescing meter's arithmetic over a store log.
#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>

#include "common/coalescing.hpp"
#include "sortscope/key_traits.hpp"
#include "sortscope/lab.hpp"

namespace sortscope::labs {

std::vector<LabCase> check_cases(const LabInfo& info, uint64_t large_n) {
  std::vector<LabCase> cases;
  const KeyType first = info.key_types.front();
  auto add = [&](std::string label, uint64_t n, Distribution d = Distribution::uniform, KeyType type = KeyType::u32,
                 bool descending = false) {
    cases.push_back({std::move(label), type, n, d, descending, 1 + cases.size()});
  };
  add("n = 0", 0, Distribution::uniform, first);
  add("n = 1", 1, Distribution::uniform, first);
  add("n = 2", 2, Distribution::uniform, first);
  add("n = 37 (odd, less than a tile)", 37, Distribution::uniform, first);
  const uint64_t tile = std::max<uint32_t>(info.tile_items, 1);
  for (uint64_t tiles : {uint64_t(1), uint64_t(4)}) {
    const std::string what = tiles == 1 ? "a tile" : std::to_string(tiles) + " tiles";
    add("n = " + std::to_string(tile * tiles - 1) + " (" + what + " - 1)", tile * tiles - 1, Distribution::uniform, first);
    add("n = " + std::to_string(tile * tiles) + " (" + what + ")", tile * tiles, Distribution::uniform, first);
    add("n = " + std::to_string(tile * tiles + 1) + " (" + what + " + 1)", tile * tiles + 1, Distribution::uniform, first);
  }
  for (KeyType type : info.key_types)
    add(std::string(sortscope::info(type).name) + " keys, n = 65,536", 65536, Distribution::uniform, type);
  add("many duplicates (det-dup)", 65536, Distribution::det_dup, first);
  add("all keys equal", 4099, Distribution::zero, first);
  add("sorted input", 65536, Distribution::sorted, first);
  add("reverse-sorted input", 65536, Distribution::reverse, first);
  add("descending order", 65536, Distribution::uniform, first, true);
  std::string large = std::to_string(large_n);
  for (int i = int(large.size()) - 3; i > 0; i -= 3) large.insert(size_t(i), ",");
  add("n = " + large + " (large, not a power of two)", large_n, Distribution::uniform, first);
  return cases;
}

namespace {

template <typename Bits>
std::string key_text(KeyType type, Bits bits) {
  const KeyTypeInfo& k = info(type);
  char text[48];
  const uint64_t wide = bits;
  if (k.is_float && k.bytes == 4) {
    const uint32_t word = uint32_t(wide);
    float f;
    std::memcpy(&f, &word, 4);
    std::snprintf(text, sizeof text, "%g", double(f));
  } else if (k.is_float && k.bytes == 8) {
    double d;
    std::memcpy(&d, &wide, 8);
    std::snprintf(text, sizeof text, "%g", d);
  } else if (k.is_float) {
    std::snprintf(text, sizeof text, "0x%04llx", static_cast<unsigned long long>(bits));
  } else if (k.is_signed) {
    const int shift = 64 - 8 * k.bytes;
    std::snprintf(text, sizeof text, "%lld", static_cast<long long>(int64_t(uint64_t(bits) << shift) >> shift));
  } else {
    std::snprintf(text, sizeof text, "%llu", static_cast<unsigned long long>(bits));
  }
  return text;
}

template <typename Bits>
CaseVerdict verify_typed(KeyType type, bool descending, const std::vector<uint8_t>& input_bytes,
                         const std::vector<uint8_t>& output_bytes, const std::vector<uint32_t>* values) {
  CaseVerdict v;
  const KeyTypeInfo& k = info(type);
  const Twiddle<Bits> twiddle = make_twiddle<Bits>(k.is_signed, k.is_float, descending);
  const uint64_t n = input_bytes.size() / sizeof(Bits);
  std::vector<Bits> in(n), out(output_bytes.size() / sizeof(Bits));
  if (n) std::memcpy(in.data(), input_bytes.data(), n * sizeof(Bits));
  if (!out.empty()) std::memcpy(out.data(), output_bytes.data(), out.size() * sizeof(Bits));
  if (out.size() != n) {
    v.summary = "the output has " + std::to_string(out.size()) + " keys, the input " + std::to_string(n);
    return v;
  }
  auto order = [&](Bits raw) { return twiddle.in(raw); };
  std::vector<uint32_t> index(n);
  for (uint64_t i = 0; i < n; ++i) index[i] = uint32_t(i);
  std::stable_sort(index.begin(), index.end(), [&](uint32_t a, uint32_t b) { return order(in[a]) < order(in[b]); });
  v.sorted = true;
  for (uint64_t i = 0; i + 1 < n && v.sorted; ++i) v.sorted = order(out[i]) <= order(out[i + 1]);
  std::vector<Bits> a(in), b(out);
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  v.permutation = a == b;
  if (values) {
    v.stable = values->size() == n;
    for (uint64_t i = 0; i < n && v.stable; ++i) v.stable = (*values)[i] == index[i];
  }
  for (uint64_t i = 0; i < n && v.first_wrong < 0; ++i)
    if (out[i] != in[index[i]]) v.first_wrong = int64_t(i);
  if (v.first_wrong < 0 && values && !v.stable)
    for (uint64_t i = 0; i < n && v.first_wrong < 0; ++i)
      if ((*values)[i] != index[i]) v.first_wrong = int64_t(i);
  v.passed = v.sorted && v.permutation && v.stable && v.first_wrong < 0;
  if (v.first_wrong >= 0) {
    const uint64_t at = uint64_t(v.first_wrong);
    v.around_begin = at >= 3 ? at - 3 : 0;
    for (uint64_t i = v.around_begin; i < std::min<uint64_t>(n, at + 4); ++i) {
      v.got.push_back(key_text(type, out[i]) + (values ? " (from " + std::to_string((*values)[i]) + ")" : ""));
      v.expected.push_back(key_text(type, in[index[i]]) + (values ? " (from " + std::to_string(index[i]) + ")" : ""));
    }
  }
  if (v.passed) {
    v.summary = values ? "sorted, a permutation, stable" : "sorted, a permutation";
  } else {
    std::string what = !v.sorted ? "not sorted" : !v.permutation ? "sorted, but not a permutation of the input"
                                                                 : "sorted keys, but equal keys out of input order";
    if (v.first_wrong >= 0) {
      const uint64_t at = uint64_t(v.first_wrong), slot = at - v.around_begin;
      what += "; first wrong index " + std::to_string(at) + ": " + v.got[slot] + " where " + v.expected[slot] +
              " belongs";
    }
    v.summary = what;
  }
  return v;
}

}  // namespace

CaseVerdict verify_case(KeyType key_type, bool descending, const std::vector<uint8_t>& input,
                        const std::vector<uint8_t>& output, const std::vector<uint32_t>* values) {
  return with_key_bits(info(key_type).bytes, [&](auto bits) {
    return verify_typed<decltype(bits)>(key_type, descending, input, output, values);
  });
}

StoreLogSummary summarize_store_log(const void* records, uint64_t count) {
  struct Record {
    uint32_t block, thread, seq, buffer;
    uint64_t offset;
  };
  static_assert(sizeof(Record) == 24);
  const Record* r = static_cast<const Record*>(records);
  // One warp store instruction: the same buffer, block, warp and per-thread store count.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, std::vector<uint64_t>> stores;
  for (uint64_t i = 0; i < count; ++i) stores[{r[i].buffer, r[i].block, r[i].thread / 32, r[i].seq}].push_back(r[i].offset);
  StoreLogSummary s;
  for (auto& [key, offsets] : stores) {
    for (size_t first = 0; first < offsets.size(); first += 32) {
      s.warp_stores += 1;
      s.segments += distinct_segments(offsets.data() + first, int(std::min<size_t>(32, offsets.size() - first)), 1);
    }
  }
  return s;
}

}  // namespace sortscope::labs
