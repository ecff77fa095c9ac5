#include "ui/settings.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gfx/palette.hpp"

namespace sortscope::app::ui {
namespace {

constexpr const char* kFormatKey = "sortscope settings";
constexpr int kFormat = 1;

const char* controls_name(ControlsMode mode) {
  switch (mode) {
    case ControlsMode::open: return "open";
    case ControlsMode::strip: return "strip";
    default: return "automatic";
  }
}

Status bad_value(const std::string& key, const nlohmann::json& value, const std::string& rule) {
  return InvalidArgument("'" + key + "' is " + value.dump() + ", not " + rule);
}

}  // namespace

std::string default_settings_path() {
  namespace fs = std::filesystem;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) return (fs::path(xdg) / "sortscope" / "settings.json").string();
  if (const char* home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".config" / "sortscope" / "settings.json").string();
  return "";
}

Status load_settings(const std::string& path, const std::set<std::string>& given, WindowSettings* settings) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return Status::Ok();
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("cannot read '" + path + "'");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) return InvalidArgument("'" + path + "' is not a JSON object");
  if (!j.contains(kFormatKey) || j[kFormatKey] != kFormat)
    return InvalidArgument("'" + path + "' does not say \"" + kFormatKey + "\": " + std::to_string(kFormat));
  ViewState& view = settings->view;
  auto wanted = [&](const char* key) { return j.contains(key) && !given.count(key); };
  if (wanted("ui-scale")) {
    const nlohmann::json& v = j["ui-scale"];
    if (!v.is_number() || v.get<double>() < 0.5 || v.get<double>() > 4) return bad_value("ui-scale", v, "a number in 0.5..4");
    view.ui_scale = v.get<float>();
  }
  if (wanted("theme")) {
    const nlohmann::json& v = j["theme"];
    const std::optional<Theme> theme = v.is_string() ? theme_named(v.get<std::string>()) : std::nullopt;
    if (!theme) return bad_value("theme", v, "dark or high-contrast");
    view.theme = *theme;
  }
  if (wanted("palette")) {
    const nlohmann::json& v = j["palette"];
    if (!v.is_string() || !gfx::find_palette(v.get<std::string>())) return bad_value("palette", v, "one of " + gfx::palette_names());
    view.palette = v.get<std::string>();
  }
  if (wanted("value-axis")) {
    const nlohmann::json& v = j["value-axis"];
    if (v != "data" && v != "full") return bad_value("value-axis", v, "data or full");
    view.value_axis_data = v == "data";
  }
  if (wanted("hide")) {
    const nlohmann::json& v = j["hide"];
    unsigned hidden = 0;
    if (!v.is_array()) return bad_value("hide", v, "a list of panels");
    for (const nlohmann::json& name : v) {
      const std::optional<PanelId> id = name.is_string() ? panel_named(name.get<std::string>()) : std::nullopt;
      if (!id) return bad_value("hide", name, "a panel");
      hidden |= panel_bit(*id);
    }
    view.layout.hidden = hidden;
  }
  if (wanted("maximize")) {
    const nlohmann::json& v = j["maximize"];
    if (v.is_null()) {
      view.layout.maximized.reset();
    } else {
      const std::optional<PanelId> id = v.is_string() ? panel_named(v.get<std::string>()) : std::nullopt;
      if (!id) return bad_value("maximize", v, "a panel or null");
      view.layout.maximized = id;
    }
  }
  if (wanted("controls")) {
    const nlohmann::json& v = j["controls"];
    bool found = false;
    for (ControlsMode mode : {ControlsMode::automatic, ControlsMode::open, ControlsMode::strip})
      if (v == controls_name(mode)) {
        view.layout.controls = mode;
        found = true;
      }
    if (!found) return bad_value("controls", v, "automatic, open or strip");
  }
  if (j.contains("tour-offered")) {
    const nlohmann::json& v = j["tour-offered"];
    if (!v.is_boolean()) return bad_value("tour-offered", v, "true or false");
    settings->tour_offered = v.get<bool>();
  }
  if (wanted("line-width")) {
    const nlohmann::json& v = j["line-width"];
    if (!v.is_number() || v.get<double>() < 0.5 || v.get<double>() > 4) return bad_value("line-width", v, "a number in 0.5..4");
    view.line_width = v.get<float>();
  }
  for (const auto& [key, field, least] : {std::tuple{"width", &settings->width, 320}, std::tuple{"height", &settings->height, 240}}) {
    if (!wanted(key)) continue;
    const nlohmann::json& v = j[key];
    if (!v.is_number_integer() || v.get<int64_t>() < least || v.get<int64_t>() > 8192)
      return bad_value(key, v, "an integer in " + std::to_string(least) + "..8192");
    *field = v.get<int>();
  }
  return Status::Ok();
}

Status save_settings(const std::string& path, const WindowSettings& settings) {
  const ViewState& view = settings.view;
  nlohmann::json j;
  j[kFormatKey] = kFormat;
  j["ui-scale"] = view.ui_scale;
  j["theme"] = theme_name(view.theme);
  j["palette"] = view.palette;
  j["value-axis"] = view.value_axis_data ? "data" : "full";
  j["hide"] = nlohmann::json::array();
  for (int i = 0; i < kPanelCount; ++i)
    if (view.layout.hidden & panel_bit(PanelId(i))) j["hide"].push_back(panel_name(PanelId(i)));
  j["maximize"] = view.layout.maximized ? nlohmann::json(panel_name(*view.layout.maximized)) : nlohmann::json(nullptr);
  j["controls"] = controls_name(view.layout.controls);
  j["width"] = settings.width;
  j["height"] = settings.height;
  j["tour-offered"] = settings.tour_offered;
  j["line-width"] = view.line_width;
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return IoError("cannot write '" + path + "'");
  out << j.dump(2) << "\n";
  return out ? Status::Ok() : IoError("cannot write '" + path + "'");
}

}  // namespace sortscope::app::ui
