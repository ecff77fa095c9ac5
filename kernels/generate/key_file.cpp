// Reading user key files: raw little-endian binary, NumPy .npy, or text (keys separated by
// whitespace or commas, any number a line).
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <type_traits>

#include "sortscope/data.hpp"
#include "sortscope/half_float.hpp"

namespace sortscope {
namespace {

std::string extension_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string e = path.substr(dot + 1);
  for (char& c : e) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

Status read_all(const std::string& path, std::string* bytes) {
  // A device or a pipe (/dev/zero, a FIFO) could be read forever: only regular files are keys.
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
    return InvalidArgument("'" + path + "' is not a regular file");
  std::ifstream f(path, std::ios::binary);
  if (!f) return IoError("cannot open '" + path + "': " + std::strerror(errno));
  std::ostringstream ss;
  ss << f.rdbuf();
  if (f.bad()) return IoError("cannot read '" + path + "'");
  *bytes = std::move(ss).str();
  return Status::Ok();
}

Status take_raw(const std::string& path, const char* data, size_t size, KeyType k, HostKeys* out) {
  const size_t width = static_cast<size_t>(info(k).bytes);
  if (size % width != 0)
    return InvalidArgument("'" + path + "' holds " + std::to_string(size) + " bytes, not a whole number of " +
                           std::string(info(k).name) + " keys (" + std::to_string(width) + " bytes each)");
  out->key_type = k;
  out->n = size / width;
  out->bytes.resize(size);
  if (size) std::memcpy(out->bytes.data(), data, size);  // an empty file has no data pointer to copy from
  return Status::Ok();
}

// NumPy's dtype descriptor for our key types (little-endian only).
std::string npy_descr(KeyType k) {
  switch (k) {
    case KeyType::u32: return "<u4";
    case KeyType::i32: return "<i4";
    case KeyType::f32: return "<f4";
    case KeyType::u64: return "<u8";
    case KeyType::i64: return "<i8";
    case KeyType::f64: return "<f8";
    case KeyType::u8: return "|u1";
    case KeyType::i8: return "|i1";
    case KeyType::u16: return "<u2";
    case KeyType::i16: return "<i2";
    case KeyType::f16: return "<f2";
    case KeyType::bf16: break;  // NumPy has no bfloat16 dtype of its own
  }
  return "";
}

// The text of 'key' in a .npy header dictionary, without its quotes or parentheses:
// "{'descr': '<u4', 'fortran_order': False, 'shape': (10,), }" gives "<u4", "False", "10,".
std::string npy_field(const std::string& header, const std::string& key) {
  auto at = header.find("'" + key + "'");
  if (at == std::string::npos) return "";
  auto colon = header.find(':', at);
  if (colon == std::string::npos) return "";
  auto begin = header.find_first_not_of(' ', colon + 1);
  if (begin == std::string::npos) return "";
  const char open = header[begin];
  if (open == '\'' || open == '(') {
    auto end = header.find(open == '(' ? ')' : '\'', begin + 1);
    if (end == std::string::npos) return "";
    return header.substr(begin + 1, end - begin - 1);
  }
  auto end = header.find_first_of(",}", begin);
  return header.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

Status parse_npy(const std::string& path, const std::string& file, KeyType k, HostKeys* out) {
  const std::string bad = "'" + path + "' is not a valid .npy file";
  if (file.compare(0, 6, "\x93NUMPY") != 0) return InvalidArgument(bad + " (no NumPy magic)");
  if (file.size() < 10) return InvalidArgument(bad + " (truncated header)");
  const int major = static_cast<unsigned char>(file[6]);
  size_t header_len, header_at;
  if (major == 1) {
    header_len = static_cast<unsigned char>(file[8]) | (static_cast<unsigned char>(file[9]) << 8);
    header_at = 10;
  } else {
    if (file.size() < 12) return InvalidArgument(bad);
    header_len = 0;
    for (int b = 0; b < 4; ++b) header_len |= size_t(static_cast<unsigned char>(file[8 + b])) << (8 * b);
    header_at = 12;
  }
  if (header_at + header_len > file.size()) return InvalidArgument(bad + " (truncated header)");
  const std::string header = file.substr(header_at, header_len);
  const std::string descr = npy_field(header, "descr");
  if (descr.empty()) return InvalidArgument(bad + " (no dtype)");
  if (npy_field(header, "fortran_order").find("True") != std::string::npos)
    return InvalidArgument("'" + path + "' is Fortran-ordered; save it C-ordered");
  if (npy_descr(k).empty())
    return InvalidArgument("'" + path + "': NumPy has no " + std::string(info(k).name) +
                           " dtype; give " + std::string(info(k).name) + " keys as raw bits (.bin) or as text");
  if (descr != npy_descr(k))
    return InvalidArgument("'" + path + "' holds dtype " + descr + " but --keys is " + std::string(info(k).name) +
                           " (" + npy_descr(k) + "); pass the matching --keys");
  const std::string shape = npy_field(header, "shape");
  // The product of the dimensions, in keys; a header promising more bytes than the file holds is
  // truncated, however large the numbers (no product may wrap around).
  const size_t data_at = header_at + header_len;
  const uint64_t fits = (file.size() - data_at) / static_cast<uint64_t>(info(k).bytes);
  uint64_t count = 1;
  bool too_many = false;
  for (size_t i = 0; i < shape.size();) {
    if (std::isdigit(static_cast<unsigned char>(shape[i]))) {
      uint64_t d = 0;
      auto [p, ec] = std::from_chars(shape.data() + i, shape.data() + shape.size(), d);
      if (ec != std::errc()) return InvalidArgument(bad + " (bad shape)");
      if (d != 0 && count > fits / d) too_many = true;
      count *= d;
      i = static_cast<size_t>(p - shape.data());
    } else {
      ++i;
    }
  }
  // (No dimension at all: a 0-d array, which holds one value.)
  const size_t need = static_cast<size_t>(count) * static_cast<size_t>(info(k).bytes);
  if (too_many || count > fits)
    return InvalidArgument("'" + path + "' is truncated: its header promises more keys (shape " + shape.substr(0, 40) +
                           ") than its " + std::to_string(fits) + " hold");
  return take_raw(path, file.data() + data_at, need, k, out);
}

// The start of a token that is not a key, as it may appear in a message: printable, and short even
// when a binary file without a newline makes the whole file one line.
std::string excerpt(std::string_view line) {
  constexpr size_t kShown = 40;
  return line.size() > kShown ? printable(line.substr(0, kShown)) + "..." : printable(line);
}

// One whole token as a number; from_chars also reads "nan", "inf" and "-0" for float keys.
template <typename T>
bool parse_number(std::string_view s, T* v) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size();
}

// Whether a token that is not a key of type T is a number all the same, one outside T's range
// (-5 or 5000000000 for u32, 1e999 for f32): then the message says so rather than "not a key".
template <typename T>
bool out_of_range(std::string_view s) {
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) s.remove_prefix(1);
  if constexpr (std::is_floating_point_v<T>) {
    long double v;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return (ec == std::errc() || ec == std::errc::result_out_of_range) && p == s.data() + s.size();
  } else {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string_view::npos;
  }
}

// "n u32 key (0..4294967295)": the key type and, for integers, the values it holds (after "a").
template <typename T>
std::string type_and_range(KeyType k) {
  const std::string type(info(k).name);
  std::string text = (type[0] == 'i' || type[0] == 'f' ? "n " : " ") + type + " key";  // an i32, a u32
  if constexpr (!std::is_floating_point_v<T>)
    text += " (" + std::to_string(std::numeric_limits<T>::min()) + ".." + std::to_string(std::numeric_limits<T>::max()) + ")";
  return text;
}

// Where a decimal comma stands between two digits on a line without a decimal point, or npos.
size_t decimal_comma(std::string_view line) {
  if (line.find('.') != std::string_view::npos) return std::string_view::npos;
  for (size_t i = 1; i + 1 < line.size(); ++i)
    if (line[i] == ',' && std::isdigit(static_cast<unsigned char>(line[i - 1])) &&
        std::isdigit(static_cast<unsigned char>(line[i + 1])))
      return i;
  return std::string_view::npos;
}

bool separates(char c) { return c == ',' || std::isspace(static_cast<unsigned char>(c)); }

// Keys separated by whitespace or commas, any number a line ("170, 45, 75" or one a line); '#'
// starts a comment that runs to the end of its line. `where(line)` names the place in messages:
// "'keys.txt' line 3" for a file, "--keys-list" for a list.
template <typename T, typename Where>
Status parse_text_as(const std::string& text, const Where& where, bool decimal_commas_refused, HostKeys* out) {
  std::vector<T> keys;
  size_t line_no = 0;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + at, end - at);
    ++line_no;
    at = end + 1;
    line = line.substr(0, line.find('#'));
    if (std::is_floating_point_v<T> && decimal_commas_refused) {
      // "2,5" with no decimal point on the line is a decimal comma far more often than two keys.
      const size_t comma = decimal_comma(line);
      if (comma != std::string_view::npos) {
        const size_t from = line.find_last_of(" \t", comma) == std::string_view::npos ? 0 : line.find_last_of(" \t", comma) + 1;
        return InvalidArgument(where(line_no) + ": '" + excerpt(line.substr(from, line.find_first_of(" \t", comma) - from)) +
                               "' looks like a decimal comma; write the point (2.5), or put a space after a comma "
                               "that separates keys");
      }
    }
    for (size_t i = 0; i < line.size();) {
      if (separates(line[i])) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < line.size() && !separates(line[j])) ++j;
      const std::string_view token = line.substr(i, j - i);
      i = j;
      T v;
      if (!parse_number(token, &v)) {
        if (out_of_range<T>(token))
          return InvalidArgument(where(line_no) + ": '" + excerpt(token) + "' does not fit a" +
                                 type_and_range<T>(out->key_type) + "; choose a --keys type that holds it");
        const std::string type(info(out->key_type).name);
        const char* article = type[0] == 'i' || type[0] == 'f' ? "an " : "a ";  // an i32, an f32, a u32
        return InvalidArgument(where(line_no) + ": '" + excerpt(token) + "' is not " + article + type + " key");
      }
      keys.push_back(v);
    }
  }
  out->n = keys.size();
  out->bytes.resize(keys.size() * sizeof(T));
  if (!keys.empty()) std::memcpy(out->bytes.data(), keys.data(), out->bytes.size());
  return Status::Ok();
}

// A file may come from a locale that writes 2,5; a list's commas are its separators, as documented.
template <typename Where>
Status parse_text(const std::string& text, KeyType k, const Where& where, bool decimal_commas_refused, HostKeys* out) {
  out->key_type = k;
  const bool refused = decimal_commas_refused;
  switch (k) {
    case KeyType::u32: return parse_text_as<uint32_t>(text, where, refused, out);
    case KeyType::i32: return parse_text_as<int32_t>(text, where, refused, out);
    case KeyType::f32: return parse_text_as<float>(text, where, refused, out);
    case KeyType::u64: return parse_text_as<uint64_t>(text, where, refused, out);
    case KeyType::i64: return parse_text_as<int64_t>(text, where, refused, out);
    case KeyType::f64: return parse_text_as<double>(text, where, refused, out);
    case KeyType::u8: return parse_text_as<uint8_t>(text, where, refused, out);
    case KeyType::i8: return parse_text_as<int8_t>(text, where, refused, out);
    case KeyType::u16: return parse_text_as<uint16_t>(text, where, refused, out);
    case KeyType::i16: return parse_text_as<int16_t>(text, where, refused, out);
    case KeyType::f16:
    case KeyType::bf16: {
      // Read as f32, then rounded to the nearest 16-bit float (beyond its range: infinity).
      SORTSCOPE_RETURN_IF_ERROR(parse_text_as<float>(text, where, refused, out));
      std::vector<std::byte> halves(out->n * 2);
      const int mantissa = info(k).mantissa_bits;
      for (uint64_t i = 0; i < out->n; ++i) {
        const uint16_t h = half_from_float(out->as<float>()[i], mantissa);
        std::memcpy(halves.data() + 2 * i, &h, 2);
      }
      out->bytes = std::move(halves);
      return Status::Ok();
    }
  }
  return InvalidArgument("unknown key type");
}

}  // namespace

Status load_key_file(const std::string& path, KeyType k, HostKeys* out) {
  std::string file;
  SORTSCOPE_RETURN_IF_ERROR(read_all(path, &file));
  return parse_key_file(path, file, k, out);
}

Status parse_key_file(const std::string& path, const std::string& file, KeyType k, HostKeys* out) {
  const std::string ext = extension_of(path);
  out->key_type = k;
  if (ext == "npy") return parse_npy(path, file, k, out);
  if (ext == "bin" || ext == "raw") return take_raw(path, file.data(), file.size(), k, out);
  if (file.find('\0') != std::string::npos)
    return InvalidArgument("'" + path + "' looks binary; name it .bin (raw little-endian) or .npy");
  return parse_text(file, k, [&](size_t line) { return "'" + path + "' line " + std::to_string(line); }, true, out);
}

Status parse_key_list(std::string_view source, std::string_view text, KeyType k, HostKeys* out) {
  const std::string name(source);
  // A list is one line of keys: a newline separates keys like a space, and nothing is a comment.
  if (text.find('#') != std::string_view::npos)
    return InvalidArgument(name + ": '#' is not part of a key (a list of keys has no comments)");
  std::string keys(text);
  std::replace(keys.begin(), keys.end(), '\n', ' ');
  SORTSCOPE_RETURN_IF_ERROR(parse_text(keys, k, [&](size_t) { return name; }, false, out));
  if (out->n == 0) return InvalidArgument(name + ": no keys (write them separated by commas, e.g. 170,45,75)");
  return Status::Ok();
}

Status load_given_keys(const DataSpec& spec, HostKeys* out) {
  if (spec.dist.id == Distribution::list) return parse_key_list("the key list", spec.dist.list, spec.key_type, out);
  return load_key_file(spec.dist.path, spec.key_type, out);
}

}  // namespace sortscope
