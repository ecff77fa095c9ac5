// The data folders: SORTSCOPE_DATA_DIR, then PREFIX/share/sortscope beside an installed program,
// then the source tree's assets/ for a program run from its build tree.
#include "session/data_files.hpp"

#include <unistd.h>

#include <cstdlib>
#include <system_error>

namespace sortscope::app {
namespace {

std::filesystem::path executable_dir() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::path() : exe.parent_path();
}

}  // namespace

std::vector<std::filesystem::path> data_dirs() {
  std::vector<std::filesystem::path> dirs;
  if (const char* dir = std::getenv("SORTSCOPE_DATA_DIR"); dir && *dir) dirs.emplace_back(dir);
  if (const std::filesystem::path exe = executable_dir(); !exe.empty())
    dirs.push_back(exe.parent_path() / "share" / "sortscope");
  dirs.emplace_back(SORTSCOPE_SOURCE_ASSETS);
  return dirs;
}

std::optional<std::filesystem::path> find_data_file(const std::filesystem::path& relative) {
  for (const std::filesystem::path& dir : data_dirs()) {
    std::error_code ec;
    const std::filesystem::path candidate = dir / relative;
    if (std::filesystem::exists(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

std::string display_path(const std::filesystem::path& path) {
  std::error_code ec;
  const std::filesystem::path here = std::filesystem::current_path(ec);
  if (!ec) {
    const std::filesystem::path relative = std::filesystem::relative(path, here, ec);
    if (!ec && !relative.empty() && *relative.begin() != "..") return relative.string();
  }
  return path.lexically_normal().string();
}

}  // namespace sortscope::app
