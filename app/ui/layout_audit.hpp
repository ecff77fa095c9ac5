// Checks a rendered frame for what makes a panel unreadable on a projector: text cut off by its
// panel's edge, text drawn over other text or across the edge of a bar or other filled shape, a word
// broken across two lines, and content wider than its panel. It reads what ImGui drew (the draw
// lists' glyph quads and filled triangles, and the windows' scroll extents), so it sees every panel
// exactly as the screen does, whatever code drew it.
#pragma once

#include <string>
#include <vector>

namespace sortscope::app::ui {

struct LayoutProblem {
  std::string window;  // the panel (root window) it is in
  std::string what;    // one line, with the text concerned
};

// The frame ImGui::Render() last produced. Call between ImGui::Render() and the next NewFrame().
std::vector<LayoutProblem> audit_rendered_frame();

// The text of that frame as a reader sees it: every line of every text that shows (not scrolled or
// clipped out of sight), panel by panel, in drawing order. Same time to call as the audit.
struct DrawnText {
  std::string window;  // the panel (root window)
  std::string text;
};
std::vector<DrawnText> rendered_text();

}  // namespace sortscope::app::ui
