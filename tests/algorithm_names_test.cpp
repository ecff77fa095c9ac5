// Nothing outside an algorithm's folder and the registry names an algorithm in code: a name written
// as a string literal anywhere else is knowledge of that algorithm that belongs in its descriptor
// or in the registry's data (ladder rungs, race presets). The names come from the registry, so an
// algorithm is covered as soon as it is registered. Tests name algorithms to run them, and lessons
// are data, not code: neither is read.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "sortscope/algorithm.hpp"

namespace sortscope {
namespace {

namespace fs = std::filesystem;

struct Literal {
  std::string text;
  int line = 0;
};

// The string literals of a C++ or CUDA source, with the line each starts on; comments and
// character literals are skipped, raw strings read whole. Escapes are kept as written: a name has none.
std::vector<Literal> string_literals(const std::string& source) {
  std::vector<Literal> literals;
  int line = 1;
  const size_t n = source.size();
  auto is_identifier = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < n; ++i) {
    const char c = source[i];
    if (c == '\n') {
      ++line;
    } else if (c == '/' && i + 1 < n && source[i + 1] == '/') {
      while (i < n && source[i] != '\n') ++i;
      --i;
    } else if (c == '/' && i + 1 < n && source[i + 1] == '*') {
      for (i += 2; i + 1 < n && !(source[i] == '*' && source[i + 1] == '/'); ++i)
        if (source[i] == '\n') ++line;
      ++i;
    } else if (c == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(source[i - 1])))) {
      // A character literal ('"' among them); a quote after a digit separates digits (1'000).
      for (++i; i < n && source[i] != '\''; ++i)
        if (source[i] == '\\') ++i;
    } else if (c == 'R' && i + 1 < n && source[i + 1] == '"' && !(i > 0 && is_identifier(source[i - 1]))) {
      const size_t open = source.find('(', i + 2);
      if (open == std::string::npos) break;
      const std::string close = ")" + source.substr(i + 2, open - i - 2) + "\"";
      const size_t end = source.find(close, open + 1);
      if (end == std::string::npos) break;
      literals.push_back({source.substr(open + 1, end - open - 1), line});
      for (size_t k = i; k < end; ++k) line += source[k] == '\n';
      i = end + close.size() - 1;
    } else if (c == '"') {
      Literal literal{"", line};
      for (++i; i < n && source[i] != '"' && source[i] != '\n'; ++i) {
        if (source[i] == '\\' && i + 1 < n) literal.text += source[i++];
        literal.text += source[i];
      }
      if (i < n && source[i] == '\n') --i;  // unterminated: the line still counts
      literals.push_back(std::move(literal));
    }
  }
  return literals;
}

bool is_code(const fs::path& file) {
  static const std::set<std::string> kCodeExtensions = {".cpp", ".hpp", ".h", ".cu", ".cuh", ".inc"};
  return kCodeExtensions.count(file.extension().string()) > 0;
}

// A folder of kernels/ that holds a descriptor (kernels/<algorithm>/<algorithm>_descriptor.cpp), at
// any depth, is an algorithm's folder.
bool is_algorithm_folder(const fs::path& dir) {
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string().find("_descriptor") != std::string::npos) return true;
  return false;
}

// The algorithm's folder a file lies in (kernels/<algorithm>/...), if any.
bool in_algorithm_folder(const fs::path& root, const fs::path& relative) {
  auto part = relative.begin();
  if (part == relative.end() || *part != "kernels" || ++part == relative.end()) return false;
  const fs::path folder = root / "kernels" / *part;
  return fs::is_directory(folder) && is_algorithm_folder(folder);
}

std::string read_file(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Words that name an algorithm and, in these files alone, something else: the merge-path panel
// (--focus merge) and a trace's merge section in JSON. Each must still be there, so that the list
// cannot outlive its reason.
struct OtherMeaning {
  std::string_view file;
  std::string_view word;
};
constexpr OtherMeaning kOtherMeanings[] = {
    {"app/ui/layout.hpp", "merge"},
    {"kernels/trace/trace_json.cpp", "merge"},
};

TEST(AlgorithmNames, NoCodeOutsideTheAlgorithmFoldersNamesOne) {
  std::set<std::string> names;
  for (const AlgorithmDescriptor* a : algorithms()) names.insert(std::string(a->name));
  ASSERT_GE(names.size(), 2u);
  const fs::path root = SORTSCOPE_SOURCE_DIR;
  ASSERT_TRUE(fs::exists(root / "kernels" / "registry")) << root;

  std::set<std::string> named_in_algorithm_folders;  // every descriptor writes its own name
  std::set<std::pair<std::string, std::string>> other_meanings_seen;
  size_t files_read = 0;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& path = it->path();
    const std::string relative = fs::relative(path, root).generic_string();
    if (it->is_directory()) {
      const std::string name = path.filename().string();
      // Hidden folders, build trees, and the tests, which name algorithms to run them.
      if (name.starts_with(".") || fs::exists(path / "CMakeCache.txt") || relative == "tests" ||
          relative == "kernels/registry")
        it.disable_recursion_pending();
      continue;
    }
    if (!it->is_regular_file() || !is_code(path)) continue;
    const bool algorithm_file = in_algorithm_folder(root, relative);
    ++files_read;
    for (const Literal& literal : string_literals(read_file(path))) {
      if (!names.count(literal.text)) continue;
      if (algorithm_file) {
        named_in_algorithm_folders.insert(literal.text);
        continue;
      }
      bool other_meaning = false;
      for (const OtherMeaning& m : kOtherMeanings)
        if (relative == m.file && literal.text == m.word) {
          other_meanings_seen.insert({relative, literal.text});
          other_meaning = true;
        }
      if (!other_meaning)
        ADD_FAILURE() << relative << ":" << literal.line << ": \"" << literal.text
                      << "\" names an algorithm outside its folder: say it with data in the descriptor or the "
                         "registry (kernels/registry/)";
    }
  }
  EXPECT_GT(files_read, 50u) << "the source tree was not read";
  // The scan sees the names where they belong: the scanner is not blind.
  for (const std::string& name : names)
    EXPECT_TRUE(named_in_algorithm_folders.count(name)) << name << " is not found in any algorithm's folder";
  for (const OtherMeaning& m : kOtherMeanings)
    EXPECT_TRUE(other_meanings_seen.count({std::string(m.file), std::string(m.word)}))
        << m.file << " no longer says \"" << m.word << "\" for something else: remove it from kOtherMeanings";
}

TEST(AlgorithmNames, StringLiteralsAreReadLikeACompilerReadsThem) {
  const std::vector<Literal> literals = string_literals(
      "// \"commented\"\n"
      "/* \"blocked\"\n\"out\" */ a(\"one\", '\"', 1'000, \"two \\\" three\");\n"
      "b(R\"x(raw \"quoted\"\n)x\"); c(\"four\");\n");
  ASSERT_EQ(literals.size(), 4u);
  EXPECT_EQ(literals[0].text, "one");
  EXPECT_EQ(literals[0].line, 3);
  EXPECT_EQ(literals[1].text, "two \\\" three");
  EXPECT_EQ(literals[2].text, "raw \"quoted\"\n");
  EXPECT_EQ(literals[2].line, 4);
  EXPECT_EQ(literals[3].text, "four");
  EXPECT_EQ(literals[3].line, 5);
}

}  // namespace
}  // namespace sortscope
