// A lesson caption's {fields} filled with the numbers of the run on the screen, so the text always
// agrees with the picture beside it. No ImGui: the lesson tests check the words headless.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "session/session.hpp"

namespace sortscope::app {

struct CaptionInputs {
  const SessionState* shown = nullptr;       // the run the step shows
  int view_stage = -1;                       // the stage on the screen (ViewState's encoding; -1: the last)
  const SessionState* challenger = nullptr;  // the sort it races, if any
  std::string measure = "keys/s";            // what the step's experiment plots: keys/s, ms or GB/s
};

// Every field (session/lesson.hpp's caption_fields) this run can give, as the screen writes it.
std::map<std::string, std::string> caption_values(const CaptionInputs& in);

// The caption with each {field} replaced; a field the run cannot give (yet) reads "...", and is
// added to `unfilled` when given.
std::string fill_caption(const std::string& caption, const std::map<std::string, std::string>& values,
                         std::vector<std::string>* unfilled = nullptr);

}  // namespace sortscope::app
