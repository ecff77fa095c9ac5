// Reads the current GL context's identity, for the platform descriptions.
#pragma once

#include <glad/gl.h>

#include <string>
#include <vector>

namespace sortscope::app {

inline std::string current_gl_description() {
  auto text = [](GLenum e) {
    const auto* s = reinterpret_cast<const char*>(glGetString(e));
    return std::string(s ? s : "?");
  };
  return "OpenGL " + text(GL_VERSION) + " on " + text(GL_RENDERER);
}

// Reads the bound read framebuffer, flipped so the top row comes first.
void read_bound_framebuffer(int width, int height, std::vector<uint8_t>* rgba);

}  // namespace sortscope::app
