// Lessons on the command line: finding them (the data folders' lessons/), checking each step's
// set-up as the command line checks its own flags, and `sortscope lessons`.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

#include "session/lesson.hpp"
#include "ui/ui.hpp"

namespace sortscope::app::cli {

// The lesson files of every data folder (session/data_files.hpp), in name order; a name two folders
// hold is the first folder's.
std::vector<std::filesystem::path> lesson_files();

// A shipped lesson by name (its file name without .md), or a lesson file by path, read and
// checked. A broken lesson is one line: "PATH:LINE: what is wrong". With `recording_into` (where
// --record-lesson writes), a recording the lesson names need not exist yet.
Status open_lesson(const std::string& name_or_path, LoadedLesson* out, const std::filesystem::path& recording_into = {});

// Every lesson found, checked, tours first and then claims, each group by chapter: the picker's list
// and `sortscope lessons`'.
ui::LessonLibrary lesson_library();

// `sortscope lessons`: every lesson by chapter and paper, with its steps; a broken file is listed
// with its one line. Returns the exit code (1 when a shipped lesson is broken).
int list_lessons(std::ostream& out);

}  // namespace sortscope::app::cli
