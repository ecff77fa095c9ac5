// Labs' text work: lab.txt, the kernels a source defines, the one translation unit a lab compiles
// as, and the first error in a compiler's output.
#include <algorithm>
#include <charconv>
#include <fstream>
#include <regex>
#include <sstream>

#include "sortscope/lab.hpp"

namespace sortscope::labs {

namespace {

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string> words(std::string_view s) {
  std::vector<std::string> out;
  std::istringstream in{std::string(s)};
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

Status line_error(std::string_view name, int line, const std::string& what) {
  return InvalidArgument("lab " + std::string(name) + ", lab.txt line " + std::to_string(line) + ": " + what);
}

// The source with comments and string literals blanked (newlines kept), so that a kernel named in
// a comment is not taken for one defined.
std::string without_comments(std::string_view s) {
  std::string out(s);
  for (size_t i = 0; i < out.size(); ++i) {
    if (out.compare(i, 2, "//") == 0) {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out.compare(i, 2, "/*") == 0) {
      const size_t end = out.find("*/", i + 2);
      const size_t stop = end == std::string::npos ? out.size() : end + 2;
      for (; i < stop; ++i)
        if (out[i] != '\n') out[i] = ' ';
      --i;
    } else if (out[i] == '"') {
      for (++i; i < out.size() && out[i] != '"' && out[i] != '\n'; ++i) {
        if (out[i] == '\\' && i + 1 < out.size()) out[i++] = ' ';
        out[i] = ' ';
      }
    }
  }
  return out;
}

}  // namespace

Status parse_lab_info(std::string_view name, std::string_view text, LabInfo* out) {
  LabInfo info;
  info.name = std::string(name);
  int line_no = 0;
  size_t at = 0;
  bool body = false;
  while (at < text.size()) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (trim(line) == "---") {
      body = true;
      break;
    }
    const std::string_view content = trim(line.substr(0, std::min(line.find('#'), line.size())));
    if (content.empty()) continue;
    const size_t colon = content.find(':');
    if (colon == std::string_view::npos) return line_error(name, line_no, "expected 'key: value'");
    const std::string key(trim(content.substr(0, colon)));
    const std::string_view value = trim(content.substr(colon + 1));
    auto number = [&](double* to) -> Status {
      double v = 0;
      const auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
      if (ec != std::errc() || p != value.data() + value.size() || v <= 0)
        return line_error(name, line_no, key + " must be a positive number, not '" + std::string(value) + "'");
      *to = v;
      return Status::Ok();
    };
    if (key == "title") {
      info.title = value;
    } else if (key == "algorithm") {
      info.algorithm = value;
    } else if (key == "phase") {
      info.phase = value;
    } else if (key == "kernels") {
      info.student_kernels = words(value);
    } else if (key == "key-types") {
      for (const std::string& w : words(value)) {
        const auto type = parse_key_type(w);
        if (!type) return line_error(name, line_no, "'" + w + "' is not a key type");
        info.key_types.push_back(*type);
      }
    } else if (key == "pairs") {
      if (value != "yes" && value != "no") return line_error(name, line_no, "pairs is yes or no");
      info.pairs = value == "yes";
    } else if (key == "tile" || key == "block" || key == "watchdog") {
      double v = 0;
      if (Status s = number(&v); !s) return s;
      if (key == "tile") info.tile_items = uint32_t(v);
      if (key == "block") info.block_threads = uint32_t(v);
      if (key == "watchdog") info.watchdog_s = v;
    } else if (key == "our-phase") {
      // Kernel names have spaces ("local sort"): commas part them.
      info.our_phase.clear();
      for (size_t from = 0; from <= value.size();) {
        const size_t comma = std::min(value.find(',', from), value.size());
        if (const std::string_view name = trim(value.substr(from, comma - from)); !name.empty())
          info.our_phase.emplace_back(name);
        from = comma + 1;
      }
    } else {
      return line_error(name, line_no, "unknown key '" + key + "'");
    }
  }
  if (!body) return line_error(name, line_no, "no '---' line before the task");
  info.task = std::string(trim(text.substr(std::min(at, text.size()))));
  if (info.title.empty() || info.algorithm.empty() || info.student_kernels.empty() || info.key_types.empty())
    return InvalidArgument("lab " + std::string(name) + ": lab.txt needs title, algorithm, kernels and key-types");
  *out = std::move(info);
  return Status::Ok();
}

std::vector<std::string> kernel_names(std::string_view source) {
  const std::string code = without_comments(source);
  static const std::regex kGlobal(R"(__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\()");
  std::vector<std::string> names;
  for (auto it = std::sregex_iterator(code.begin(), code.end(), kGlobal); it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  return names;
}

std::vector<std::string> quoted_includes(std::string_view source) {
  const std::string code = without_comments(source);
  std::vector<std::string> files;
  // without_comments blanks string literals, so the names are read from the source itself.
  static const std::regex kInclude(R"(^[ \t]*#[ \t]*include[ \t]*)");
  std::istringstream original{std::string(source)}, blanked{code};
  for (std::string line, kept; std::getline(original, line) && std::getline(blanked, kept);) {
    std::smatch m;
    if (!std::regex_search(kept, m, kInclude)) continue;
    const size_t open = line.find('"', size_t(m.length()));
    const size_t close = open == std::string::npos ? open : line.find('"', open + 1);
    if (close != std::string::npos) files.push_back(line.substr(open + 1, close - open - 1));
  }
  return files;
}

std::vector<std::string> lab_kernels(const LabSourceFile& harness, const LabSourceFile& student,
                                     const std::string& include_dir) {
  std::vector<std::string> kernels, texts = {harness.text}, seen;
  auto add = [&](std::string_view text) {
    for (const std::string& k : kernel_names(text))
      if (std::find(kernels.begin(), kernels.end(), k) == kernels.end()) kernels.push_back(k);
  };
  for (size_t i = 0; i < texts.size(); ++i) {
    add(texts[i]);
    for (const std::string& file : quoted_includes(texts[i])) {
      if (std::find(seen.begin(), seen.end(), file) != seen.end()) continue;
      seen.push_back(file);
      std::ifstream in(include_dir + "/" + file);
      std::ostringstream text;
      text << in.rdbuf();
      if (in) texts.push_back(text.str());
    }
  }
  // The student's includes are their own business: only the file itself is read.
  add(student.text);
  return kernels;
}

std::string assemble_source(const LabSourceFile& harness, const LabSourceFile& student, bool emulation,
                            const std::vector<std::string>& kernels) {
  auto quoted = [](const std::string& path) {
    std::string q = "\"";
    for (char c : path) {
      if (c == '"' || c == '\\') q += '\\';
      q += c;
    }
    return q + "\"";
  };
  std::string tu = "#include \"sortscope_lab.h\"\n";
  tu += "#line 1 " + quoted(harness.path) + "\n" + harness.text + "\n";
  tu += "#line 1 " + quoted(student.path) + "\n" + student.text + "\n";
  if (emulation) {
    tu += "#line 1 \"<lab exports>\"\n";
    for (const std::string& k : kernels) tu += "SORTSCOPE_LAB_EXPORT(" + k + ")\n";
  }
  return tu;
}

CompileError first_compile_error(std::string_view output) {
  CompileError e;
  e.full = std::string(output);
  // g++/clang: "file:line:col: error: text"; NVRTC: "file(line): error: text".
  static const std::regex kGcc(R"(^(.+?):(\d+):(\d+): (?:fatal )?error: (.*)$)");
  static const std::regex kNvrtc(R"(^(.+?)\((\d+)\): (?:catastrophic )?error: (.*)$)");
  std::istringstream in{std::string(output)};
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, kGcc)) {
      e.file = m[1];
      e.line = std::stoi(m[2]);
      e.column = std::stoi(m[3]);
      e.message = m[4];
      return e;
    }
    if (std::regex_match(line, m, kNvrtc)) {
      e.file = m[1];
      e.line = std::stoi(m[2]);
      e.message = m[3];
      return e;
    }
  }
  // No located error: the first non-empty line says what went wrong.
  std::istringstream again{std::string(output)};
  for (std::string line; std::getline(again, line);)
    if (!trim(line).empty()) {
      e.message = line;
      break;
    }
  return e;
}

}  // namespace sortscope::labs
