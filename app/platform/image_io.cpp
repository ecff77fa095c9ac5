// Framebuffer read-back and PNG output (stb_image_write from Debian's libstb).
#include <glad/gl.h>
#include <stb/stb_image_write.h>

#include <algorithm>
#include <cstring>

#include "platform/gl_info.hpp"
#include "platform/platform.hpp"

namespace sortscope::app {

void read_bound_framebuffer(int width, int height, std::vector<uint8_t>* rgba) {
  rgba->resize(size_t(width) * height * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba->data());
  // Blended UI leaves alpha below 1 in places; a screenshot is what the eye sees: opaque.
  for (size_t i = 3; i < rgba->size(); i += 4) (*rgba)[i] = 255;
  // GL's rows run bottom-up; images run top-down.
  std::vector<uint8_t> row(size_t(width) * 4);
  for (int y = 0; y < height / 2; ++y) {
    uint8_t* a = rgba->data() + size_t(y) * width * 4;
    uint8_t* b = rgba->data() + size_t(height - 1 - y) * width * 4;
    std::memcpy(row.data(), a, row.size());
    std::memcpy(a, b, row.size());
    std::memcpy(b, row.data(), row.size());
  }
}

Status write_png(const Image& image, const std::string& path) {
  if (image.width <= 0 || image.height <= 0) return InvalidArgument("empty image");
  if (!stbi_write_png(path.c_str(), image.width, image.height, 4, image.rgba.data(), image.width * 4))
    return IoError("cannot write '" + path + "'");
  return Status::Ok();
}

Image crop(const Image& image, int x, int y, int width, int height) {
  const int x0 = std::clamp(x, 0, image.width), y0 = std::clamp(y, 0, image.height);
  const int x1 = std::clamp(x + width, x0, image.width), y1 = std::clamp(y + height, y0, image.height);
  Image out;
  out.width = x1 - x0;
  out.height = y1 - y0;
  out.rgba.resize(size_t(out.width) * out.height * 4);
  for (int row = 0; row < out.height; ++row)
    std::memcpy(out.rgba.data() + size_t(row) * out.width * 4, image.rgba.data() + (size_t(y0 + row) * image.width + x0) * 4,
                size_t(out.width) * 4);
  return out;
}

}  // namespace sortscope::app
