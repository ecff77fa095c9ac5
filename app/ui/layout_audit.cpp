#include "ui/layout_audit.hpp"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
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
  ImU32 colour = 0;
  bool cut_x = false, cut_y = false;
};

// A filled shape as drawn (a bar, a cell, a gauge, a button's frame, a dot): the part of its box
// the scissor lets show. `window_ground` marks a window's own background, which holds every text
// of the window and so says nothing about any of them.
struct DrawnShape {
  ImRect box;
  bool window_ground = false;
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
        d.colour = tl.col;
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

// Filled shapes are triangles whose three corners all sample the atlas's white pixel (glyphs and
// textured lines sample elsewhere). ImGui writes each primitive's vertices after the previous
// primitive's, and its indices refer to its own vertices only, so a triangle that uses no vertex of
// the shape being gathered starts the next shape. A shape counts when its triangles fill most of
// their box (a bar, a rounded frame, a dot): a diagonal line's box is mostly empty, and what lies in
// that box is not under the line.
std::vector<DrawnShape> drawn_shapes(const ImGuiWindow& window, const ImDrawList& list) {
  std::vector<DrawnShape> out;
  const ImTextureID font_texture = ImGui::GetIO().Fonts->TexID;
  const ImVec2 white = ImGui::GetIO().Fonts->TexUvWhitePixel;
  // The window's background covers its whole inner area; a shape drawn over all of it is ground too.
  ImRect inner = window.InnerRect;
  inner.Expand(-2.0f);
  const bool has_inner = inner.GetWidth() > 0 && inner.GetHeight() > 0;
  constexpr float kFilled = 0.7f;  // a disc fills pi/4 of its box; a diagonal line far less
  for (const ImDrawCmd& cmd : list.CmdBuffer) {
    if (cmd.UserCallback || cmd.TextureId != font_texture) continue;
    const ImDrawIdx* idx = list.IdxBuffer.Data + cmd.IdxOffset;
    const ImDrawVert* vtx = list.VtxBuffer.Data + cmd.VtxOffset;
    const ImRect clip(cmd.ClipRect.x, cmd.ClipRect.y, cmd.ClipRect.z, cmd.ClipRect.w);
    ImRect box;
    float area = 0;
    unsigned last_vertex = 0;
    bool open = false;
    auto close = [&] {
      if (!open) return;
      open = false;
      if (box.GetArea() <= 0 || area < kFilled * box.GetArea()) return;
      ImRect shown = box;
      shown.ClipWithFull(clip);
      if (shown.GetWidth() < 1 || shown.GetHeight() < 1) return;
      out.push_back({shown, has_inner && box.Contains(inner)});
    };
    for (unsigned t = 0; t + 3 <= cmd.ElemCount; t += 3) {
      const unsigned a = idx[t], b = idx[t + 1], c = idx[t + 2];
      auto is_white = [&](unsigned v) { return vtx[v].uv.x == white.x && vtx[v].uv.y == white.y; };
      if (!is_white(a) || !is_white(b) || !is_white(c)) {
        close();
        continue;
      }
      if (open && std::min({a, b, c}) > last_vertex) close();
      if (!open) {
        box = ImRect(vtx[a].pos, vtx[a].pos);
        area = 0;
        last_vertex = 0;
        open = true;
      }
      const ImVec2 p = vtx[a].pos, q = vtx[b].pos, r = vtx[c].pos;
      box.Add(p);
      box.Add(q);
      box.Add(r);
      area += 0.5f * std::fabs((q.x - p.x) * (r.y - p.y) - (r.x - p.x) * (q.y - p.y));
      last_vertex = std::max({last_vertex, a, b, c});
    }
    close();
  }
  return out;
}

void append_utf8(std::string* s, unsigned c) {
  char buf[8];
  ImTextCharToUtf8(buf, c);
  *s += buf;
}

// Wider than the gaps inside a word, narrower than a space (in ems).
constexpr float kWordGap = 0.22f;

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
      if (g.box.Min.x - r.box.Max.x > kWordGap * r.em) r.text += ' ';
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

// Text over a filled shape. Text drawn on a shape as its label (a count inside its bar, a number in
// a table cell, a button's caption, the reading inside a gauge) lies wholly inside that shape: the
// shape is its ground. Text that a shape covers only in part (a colour bar running into "digit 15",
// a bar's top through a count) has the shape's edge across its letters: that is an overlap. One
// exception keeps a gauge's reading a label: a shape lying wholly inside the text's ground (the
// gauge's level inside its trough, a slider's grab inside its frame) is part of that ground. A
// window's background is ground to every text in it, so it never excuses anything. Text is judged
// word by word (letters of one colour with no space between): a reader reads words, neighbouring
// labels (tabs, table cells) each have their own ground, and a highlighted digit group on its own
// mark is apart from the plain digits beside it.
std::vector<std::string> text_over_shape_edges(const std::vector<DrawnGlyph>& glyphs, const std::vector<TextRun>& runs,
                                               const std::vector<DrawnShape>& shapes) {
  std::vector<std::string> found;
  // Glyph boxes include a pixel of padding and anti-aliased edges: a label may touch its ground's edge.
  auto within = [](const ImRect& outer, const ImRect& inner, float slack) {
    ImRect grown = outer;
    grown.Expand(slack);
    return grown.Contains(inner);
  };
  auto shown = [&](size_t i) {
    ImRect box = glyphs[i].box;
    box.ClipWithFull(glyphs[i].clip);
    return box;
  };
  for (const TextRun& run : runs) {
    for (size_t first = run.first; first <= run.last;) {
      size_t last = first;
      while (last < run.last && glyphs[last + 1].colour == glyphs[first].colour &&
             glyphs[last + 1].box.Min.x - glyphs[last].box.Max.x <= kWordGap * run.em)
        ++last;
      ImRect piece(FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX);
      for (size_t i = first; i <= last; ++i)
        if (const ImRect box = shown(i); box.GetWidth() > 0 && box.GetHeight() > 0) piece.Add(box);
      const float slack = std::max(1.5f, 0.1f * run.em);
      if (piece.GetWidth() > 0 && piece.GetHeight() > 0) {
        std::vector<const DrawnShape*> grounds, across;
        for (const DrawnShape& s : shapes) {
          if (!s.box.Overlaps(piece)) continue;
          if (within(s.box, piece, slack)) {
            if (!s.window_ground) grounds.push_back(&s);
            continue;
          }
          // Across the text: a fifth of one letter or more under the shape, not a touching edge.
          bool covers = false;
          for (size_t i = first; i <= last && !covers; ++i) {
            ImRect x = shown(i);
            x.ClipWithFull(s.box);
            covers = x.GetWidth() > 0 && x.GetHeight() > 0 && x.GetArea() >= 0.2f * glyphs[i].box.GetArea();
          }
          if (covers) across.push_back(&s);
        }
        const bool overlap = std::any_of(across.begin(), across.end(), [&](const DrawnShape* s) {
          return std::none_of(grounds.begin(), grounds.end(),
                              [&](const DrawnShape* g) { return within(g->box, s->box, slack); });
        });
        if (overlap) {
          found.push_back(run.text);
          break;
        }
      }
      first = last + 1;
    }
  }
  return found;
}

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
  std::vector<std::vector<DrawnShape>> panel_shapes;
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
      panel_shapes.emplace_back();
      it = panels.end() - 1;
    }
    auto& all = panel_glyphs[size_t(it - panels.begin())];
    all.insert(all.end(), glyphs.begin(), glyphs.end());
    const std::vector<DrawnShape> shapes = drawn_shapes(*w, *w->DrawList);
    auto& all_shapes = panel_shapes[size_t(it - panels.begin())];
    all_shapes.insert(all_shapes.end(), shapes.begin(), shapes.end());
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
    for (const std::string& text : text_over_shape_edges(glyphs, runs, panel_shapes[p])) {
      std::snprintf(line, sizeof line, "text over the edge of a bar or shape: \"%s\"", text.c_str());
      problems.push_back({panels[p].first, line});
    }
    // A word broken across two lines: ImGui breaks inside a word only when the word alone is wider
    // than the wrap width, so the first line is one token filling the width and the rest of the
    // word continues at the same x on the next line.
    // A number wrapped at its grouping comma ("3," / "932,160 keys"), which ImGui allows after any
    // comma: the reader sees two numbers.
    const auto digit = [](unsigned c) { return c < 128 && std::isdigit(int(c)); };
    for (size_t r = 0; r + 1 < runs.size(); ++r) {
      const TextRun& first = runs[r];
      const TextRun& next = runs[r + 1];
      const unsigned end = glyphs[first.last].codepoint, start = glyphs[next.first].codepoint;
      const unsigned before_end = first.last > first.first ? glyphs[first.last - 1].codepoint : 0;
      const float dy = next.box.GetCenter().y - first.box.GetCenter().y;
      const bool below = dy > 0.6f * first.em && dy < 2.0f * first.em;
      // Three digits after the comma and no more: a thousands group, not a list ("0, 1, 2").
      const std::string& t = next.text;
      const bool group = t.size() >= 3 && digit(uint8_t(t[0])) && digit(uint8_t(t[1])) && digit(uint8_t(t[2])) &&
                         (t.size() == 3 || !digit(uint8_t(t[3])));
      if (end == ',' && digit(before_end) && digit(start) && group && below) {
        std::snprintf(line, sizeof line, "a number broken across lines: \"%s\" / \"%s\"", first.text.c_str(),
                      next.text.c_str());
        problems.push_back({panels[p].first, line});
        continue;
      }
      if (first.text.find(' ') != std::string::npos) continue;
      const bool continues = (word_char(end) && word_char(start) && !std::iswupper(wint_t(start))) ||
                             (end == '.' && start < 128 && std::isdigit(int(start)));
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

std::vector<DrawnText> rendered_text() {
  const std::vector<AtlasGlyph> atlas = atlas_glyphs();
  std::vector<std::pair<std::string, std::vector<DrawnGlyph>>> panels;
  for (ImGuiWindow* w : ImGui::GetCurrentContext()->Windows) {
    if (!w->Active || w->Hidden || !w->DrawList) continue;
    const std::string name = window_name(w);
    auto it = std::find_if(panels.begin(), panels.end(), [&](const auto& p) { return p.first == name; });
    if (it == panels.end()) it = panels.insert(panels.end(), {name, {}});
    for (const DrawnGlyph& g : drawn_glyphs(*w->DrawList, atlas)) {
      ImRect shown = g.box;
      shown.ClipWithFull(g.clip);
      if (shown.GetWidth() > 0 && shown.GetHeight() > 0) it->second.push_back(g);
    }
  }
  std::vector<DrawnText> out;
  for (const auto& [name, glyphs] : panels)
    for (const TextRun& r : text_runs(glyphs)) out.push_back({name, r.text});
  return out;
}

}  // namespace sortscope::app::ui
