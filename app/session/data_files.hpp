// Where the program's data files are (the recordings, the lessons): installed beside the program
// (PREFIX/bin/sortscope finds PREFIX/share/sortscope), or, for a program run from its build tree,
// the source tree's assets/. SORTSCOPE_DATA_DIR overrides both.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sortscope::app {

// The folders searched, in order, whether they exist or not.
std::vector<std::filesystem::path> data_dirs();

// The first data folder holding `relative` (e.g. "recordings/onesweep-2e24-h200.ssrec"), as a path
// a user can type; nullopt when none does.
std::optional<std::filesystem::path> find_data_file(const std::filesystem::path& relative);

// A path as a user should read it: relative to the working directory when it lies below it.
std::string display_path(const std::filesystem::path& path);

}  // namespace sortscope::app
