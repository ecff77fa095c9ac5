// The Explain panel's content: for the algorithm and pass being viewed, each phase of the pass as a
// short text (what it computes), its formula with this pass's numbers filled in, and where it
// comes from (seed and section). Plain strings, no ImGui, so the text is tested like the rest of
// the model.
#pragma once

#include <string>
#include <vector>

#include "session/view_state.hpp"
#include "sortscope/catalogue.hpp"
#include "sortscope/trace.hpp"

namespace sortscope::app {

struct PhaseText {
  std::string name;     // "Upsweep (reduce)"
  std::string what;     // what it computes, in two or three sentences
  std::string formula;  // with the viewed pass's shift, width and table size
  std::string source;   // "Merrill & Grimshaw 2011, 3.1 and Fig. 5"
  Panel shown_in = Panel::none;  // the panel that draws this phase's output
};

// The phases of one pass of `algorithm`; `trace` and `pass` (the viewed one) fill in the numbers
// and may be null (no trace yet, or an algorithm without one).
std::vector<PhaseText> explain_phases(Algorithm algorithm, const SortTrace* trace, const PassTrace* pass);

}  // namespace sortscope::app
