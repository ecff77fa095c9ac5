// The GLSL sources from shaders/, embedded at build time (cmake/EmbedShaders.cmake).
#pragma once

namespace sortscope::gfx::shaders {
extern const char* const fullscreen_vert;
extern const char* const density_frag;
}  // namespace sortscope::gfx::shaders
