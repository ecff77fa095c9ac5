// libFuzzer target: the key-file loaders (text, raw binary, NumPy .npy) on hostile bytes. The
// first byte picks the key type and the format; the rest is the file. A load either fails with a
// message or yields a whole number of keys of the asked type, and never reads past the bytes.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "sortscope/data.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  using sortscope::KeyType;
  const KeyType types[] = {KeyType::u32, KeyType::i32, KeyType::f32, KeyType::u64, KeyType::i64, KeyType::f64};
  const char* names[] = {"keys.txt", "keys.bin", "keys.npy", "keys"};
  const KeyType k = types[data[0] % 6];
  const std::string path = names[(data[0] / 6) % 4];
  const std::string file(reinterpret_cast<const char*>(data + 1), size - 1);
  sortscope::HostKeys keys;
  const sortscope::Status s = sortscope::parse_key_file(path, file, k, &keys);
  if (s.ok()) {
    const size_t width = size_t(sortscope::info(k).bytes);
    if (keys.key_type != k || keys.bytes.size() != keys.n * width) std::abort();
    if (path == "keys.bin" && keys.bytes.size() != file.size()) std::abort();
    if (path == "keys.npy" && keys.bytes.size() > file.size()) std::abort();
  } else if (s.message().empty()) {
    std::abort();  // every failure says why
  }
  return 0;
}
