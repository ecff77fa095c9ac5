#include "ui/layout_audit.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cwctype>

namespace sortscope::app::ui {
namespace {

// A glyph as drawn: its box on screen, its character, and whether its quad was cut short (by the
// scissor rectangle or by ImGui's own clipping of the quad's texture coordinates).
struct DrawnGlyph {
  ImRect box;
  ImRect clip;
  unsigned codepoint = 0;
  float font_size = 0;
  bool cut_x = false, cut_y = false;
};

// Consecutive glyphs of one line of one text: what a reader sees as a word or a phrase.
struct TextRun {
  std::string text;
  ImRect box;
  ImRect clip;
  float em = 0;
  size_t first = 0, last = 0;  // glyph indices
};

struct AtlasGlyph {
  ImRect uv;
  unsigned codepoint;
  float font_size;
};

std::vector<AtlasGlyph> atlas_glyphs() {
  std::vector<AtlasGlyph> glyphs;
  for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
    for (const ImFontGlyph& g : font->Glyphs)
      if (g.Visible) glyphs.push_back({ImRect(g.U0, g.V0, g.U1, g.V1), g.Codepoint, font->FontSize});
  return glyphs;
}

// Glyph quads are written as vertices v..v+3 (top-left, top-right, bottom-right, bottom-left)
// with indices v, v+1, v+2, v, v+2, v+3; anything else in the list is a shape, not text.
std::vector<DrawnGlyph> drawn_glyphs(const ImDrawList& list, const std::vector<AtlasGlyph>& atlas) {
  std::vector<DrawnGlyph> out;
  const ImTextureID font_texture = ImGui::GetIO().Fonts->TexID;
  constexpr float kUvSlack = 1e-5f;
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback || cmd.TextureId != font_texture) continue;
    const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
    const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
    const ImRect clip(cmd.ClipRect.x, cmd.ClipRect.y, cmd.ClipRect.z, cmd.ClipRect.w);
    for (unsigned t = 0; t + 6 <= cmd.ElemCount; t += 3) {
      const unsigned a = idx[t];
      if (idx[t + 1] != a + 1 || idx[t + 2] != a + 2 || idx[t + 3] != a || idx[t + 4] != a + 2 || idx[t + 5] != a + 3)
        continue;
      const ImDrawVert& tl = vtx[a];
      const ImDrawVert& br = vtx[a + 2];
      const ImRect uv(tl.uv, br.uv);
      if (uv.Max.x <= uv.Min.x || uv.Max.y <= uv.Min.y) continue;  // the white pixel: a filled shape
      for (const AtlasGlyph& g : atlas) {
        if (uv.Min.x < g.uv.Min.x - kUvSlack || uv.Min.y < g.uv.Min.y - kUvSlack || uv.Max.x > g.uv.Max.x + kUvSlack ||
            uv.Max.y > g.uv.Max.y + kUvSlack)
          continue;
        DrawnGlyph d;
        d.box = ImRect(tl.pos, br.pos);
        d.clip = clip;
        d.codepoint = g.codepoint;
        d.font_size = g.font_size;
        // A quad whose texture was trimmed was cut by ImGui before it reached the scissor.
        d.cut_x = uv.Min.x > g.uv.Min.x + kUvSlack || uv.Max.x < g.uv.Max.x - kUvSlack;
        d.cut_y = uv.Min.y > g.uv.Min.y + kUvSlack || uv.Max.y < g.uv.Max.y - kUvSlack;
        // Half a pixel of slack: anti-aliased glyph edges sit on the pixel grid.
        d.cut_x |= d.box.Min.x < clip.Min.x - 0.5f || d.box.Max.x > clip.Max.x + 0.5f;
        d.cut_y |= d.box.Min.y < clip.Min.y - 0.5f || d.box.Max.y > clip.Max.y + 0.5f;
        out.push_back(d);
        break;
      }
      t += 3;  // the quad's second triangle
    }
  }
  return out;
}

void append_utf8(std::string* s, unsigned c) {
  char buf[8];
  ImTextCharToUtf8(buf, c);
  *s += buf;
}

// Glyphs in draw order form runs: each text is drawn left to right, line by line.
std::vector<TextRun> text_runs(const std::vector<DrawnGlyph>& glyphs) {
  std::vector<TextRun> runs;
  for (size_t i = 0; i < glyphs.size(); ++i) {
    const DrawnGlyph& g = glyphs[i];
    const float em = g.font_size;
    bool joins = false;
    if (!runs.empty()) {
      const TextRun& r = runs.back();
      const float gap = g.box.Min.x - r.box.Max.x;
      const float dy = std::fabs(g.box.GetCenter().y - r.box.GetCenter().y);
      joins = gap > -0.3f * r.em && gap < 0.7f * r.em && dy < 0.45f * r.em && g.clip.Min.x == r.clip.Min.x &&
              g.clip.Max.x == r.clip.Max.x;
    }
    if (joins) {
      TextRun& r = runs.back();
      if (g.box.Min.x - r.box.Max.x > 0.22f * r.em) r.text += ' ';
      append_utf8(&r.text, g.codepoint);
      r.box.Add(g.box);
      r.last = i;
      r.em = std::max(r.em, em);
    } else {
      TextRun r;
      append_utf8(&r.text, g.codepoint);
      r.box = g.box;
      r.clip = g.clip;
      r.em = em;
      r.first = r.last = i;
      runs.push_back(r);
    }
  }
  return runs;
}

std::string window_name(const ImGuiWindow* w) {
  std::string name = w->RootWindow ? w->RootWindow->Name : w->Name;
  if (const size_t hashes = name.find("##"); hashes != std::string::npos) name.erase(hashes);
  return name.empty() ? "(unnamed)" : name;
}

bool word_char(unsigned c) { return c < 128 ? std::isalnum(int(c)) != 0 : std::iswalpha(wint_t(c)) != 0; }

}  // namespace

std::vector<LayoutProblem> audit_rendered_frame() {
  std::vector<LayoutProblem> problems;
  const std::vector<AtlasGlyph> atlas = atlas_glyphs();
  ImGuiContext& context = *ImGui::GetCurrentContext();
  char line[512];
  // Glyphs of each root window (a panel and its child windows) together: text of one panel must
  // not lie over other text of it. Overlays (help, tooltips) are root windows of their own.
  std::vector<std::pair<std::string, std::vector<TextRun>>> panels;
  std::vector<std::vector<DrawnGlyph>> panel_glyphs;
  for (ImGuiWindow* w : context.Windows) {
    if (!w->Active || w->Hidden || !w->DrawList) continue;
    const std::string name = window_name(w);
    if (w->ScrollMax.x > 1.0f && !w->ScrollbarX) {
      std::snprintf(line, sizeof line, "content is %.0f px wider than the panel", w->ScrollMax.x);
      problems.push_back({name, line});
    }
    std::vector<DrawnGlyph> glyphs = drawn_glyphs(*w->DrawList, atlas);
    for (const TextRun& r : text_runs(glyphs)) {
      bool cut_x = false, cut_y = false;
      for (size_t i = r.first; i <= r.last; ++i) {
        cut_x |= glyphs[i].cut_x;
        cut_y |= glyphs[i].cut_y;
      }
      // A list that scrolls cuts its first and last lines: that is what scrolling looks like.
      if (cut_y && w->ScrollbarY) cut_y = false;
      if (cut_x && w->ScrollbarX) cut_x = false;
      if (cut_x || cut_y) {
        std::snprintf(line, sizeof line, "text cut off at its %s edge: \"%s\"", cut_x ? "side" : "top or bottom",
                      r.text.c_str());
        problems.push_back({name, line});
      }
    }
    auto it = std::find_if(panels.begin(), panels.end(), [&](const auto& p) { return p.first == name; });
    if (it == panels.end()) {
      panels.push_back({name, {}});
      panel_glyphs.emplace_back();
      it = panels.end() - 1;
    }
    auto& all = panel_glyphs[size_t(it - panels.begin())];
    all.insert(all.end(), glyphs.begin(), glyphs.end());
  }
  for (size_t p = 0; p < panels.size(); ++p) {
    const std::vector<DrawnGlyph>& glyphs = panel_glyphs[p];
    const std::vector<TextRun> runs = text_runs(glyphs);
    // Text over text: two runs whose glyphs overlap by more than a sliver. A glyph box includes its
    // bearings, so neighbours in one word touch; runs are compared, never a run with itself.
    std::vector<size_t> run_of(glyphs.size());
    for (size_t r = 0; r < runs.size(); ++r)
      for (size_t i = runs[r].first; i <= runs[r].last; ++i) run_of[i] = r;
    std::vector<std::pair<size_t, size_t>> reported;
    for (size_t a = 0; a < runs.size(); ++a)
      for (size_t b = a + 1; b < runs.size(); ++b) {
        if (!runs[a].box.Overlaps(runs[b].box)) continue;
        bool overlap = false;
        for (size_t i = runs[a].first; i <= runs[a].last && !overlap; ++i)
          for (size_t j = runs[b].first; j <= runs[b].last && !overlap; ++j) {
            ImRect x = glyphs[i].box;
            x.ClipWithFull(glyphs[j].box);
            // Only what both scissors let through is seen overlapping.
            x.ClipWithFull(glyphs[i].clip);
            x.ClipWithFull(glyphs[j].clip);
            const float area = std::max(0.0f, x.GetWidth()) * std::max(0.0f, x.GetHeight());
            const float smaller = std::min(glyphs[i].box.GetArea(), glyphs[j].box.GetArea());
            overlap = area > 0.3f * smaller;
          }
        if (!overlap) continue;
        std::snprintf(line, sizeof line, "text over text: \"%s\" and \"%s\"", runs[a].text.c_str(), runs[b].text.c_str());
        problems.push_back({panels[p].first, line});
      }
    // A word broken across two lines: ImGui breaks inside a word only when the word alone is wider
    // than the wrap width, so the first line is one token filling the width and the rest of the
    // word continues at the same x on the next line.
    for (size_t r = 0; r + 1 < runs.size(); ++r) {
      const TextRun& first = runs[r];
      const TextRun& next = runs[r + 1];
      if (first.text.find(' ') != std::string::npos) continue;
      const unsigned end = glyphs[first.last].codepoint, start = glyphs[next.first].codepoint;
      const bool continues = (word_char(end) && word_char(start) && !std::iswupper(wint_t(start))) ||
                             (end == '.' && start < 128 && std::isdigit(int(start)));
      const float dy = next.box.GetCenter().y - first.box.GetCenter().y;
      const bool below = dy > 0.6f * first.em && dy < 2.0f * first.em;
      const bool aligned = std::fabs(next.box.Min.x - first.box.Min.x) < 0.5f * first.em;
      const bool full = first.clip.Max.x - first.box.Max.x < 2.0f * first.em;
      if (continues && below && aligned && full) {
        std::snprintf(line, sizeof line, "a word broken across lines: \"%s\" / \"%s\"", first.text.c_str(),
                      next.text.c_str());
        problems.push_back({panels[p].first, line});
      }
    }
  }
  return problems;
}

}  // namespace sortscope::app::ui
