// An RGBA8 texture filled from host pixels (the scan-table heatmap and other small images).
#pragma once

#include <glad/gl.h>

#include <cstdint>

namespace sortscope::gfx {

class Texture2D {
 public:
  Texture2D() = default;
  ~Texture2D() {
    if (id_) glDeleteTextures(1, &id_);
  }
  Texture2D(const Texture2D&) = delete;
  Texture2D& operator=(const Texture2D&) = delete;

  // Nearest filtering: every table cell stays a crisp block when scaled up.
  void upload_rgba(int width, int height, const uint32_t* pixels) {
    if (!id_) glGenTextures(1, &id_);
    glBindTexture(GL_TEXTURE_2D, id_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, pixels);
  }
  GLuint id() const { return id_; }

 private:
  GLuint id_ = 0;
};

}  // namespace sortscope::gfx
