// Window flags of the fixed layout: panels stay where the layout puts them.
#pragma once

#include <imgui.h>

namespace sortscope::app::ui {

constexpr ImGuiWindowFlags kPanelFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;

}  // namespace sortscope::app::ui
