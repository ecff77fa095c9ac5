// What a user's window remembers between sessions: the UI scale, theme, digit palette, value axis,
// the hidden and maximised panels, the controls' state and the window's size. A JSON file whose
// keys are the command-line flags that set the same things ("ui-scale", "hide", ...), kept per user
// under the XDG config directory; a flag given on the command line wins over the file.
#pragma once

#include <set>
#include <string>

#include "sortscope/status.hpp"
#include "ui/view_state.hpp"

namespace sortscope::app::ui {

struct WindowSettings {
  ViewState view;
  int width = 1920, height = 1080;
  bool tour_offered = false;  // the welcome offered the tour once, at the first start
};

// $XDG_CONFIG_HOME/sortscope/settings.json, else ~/.config/sortscope/settings.json; "" when
// neither variable is set.
std::string default_settings_path();

// Reads the file into `settings`, leaving alone what the file lacks and the flags in `given`
// ("ui-scale", "theme", "palette", "value-axis", "hide", "maximize", "controls", "width",
// "height") that the command line set. A missing file is no error (nothing is changed); a file
// that is not valid JSON, or a value out of range, is one: the settings read before it stand.
Status load_settings(const std::string& path, const std::set<std::string>& given, WindowSettings* settings);

// Writes the settings, creating the file's directory where it is missing.
Status save_settings(const std::string& path, const WindowSettings& settings);

}  // namespace sortscope::app::ui
