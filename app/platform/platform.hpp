// The platform layer: an OpenGL context with Dear ImGui's platform side attached, either a GLFW
// window for people or an offscreen EGL context for headless rendering and screenshots. Everything
// above it draws with GL and ImGui and never sees GLFW or EGL.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sortscope/status.hpp"

namespace sortscope::app {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;  // top row first
};

struct PlatformOptions {
  int width = 1920;
  int height = 1080;
  std::string title = "SortScope";
};

class Platform {
 public:
  virtual ~Platform() = default;
  virtual bool should_close() const = 0;
  // Polls input and starts ImGui's platform frame (display size, time, input).
  virtual void new_frame() = 0;
  // Binds the framebuffer the UI is drawn into (the window's, or the offscreen one).
  virtual void bind_frame_target() = 0;
  // Shows the finished frame (swaps buffers; a no-op offscreen).
  virtual void present() = 0;
  virtual void framebuffer_size(int* width, int* height) const = 0;
  // A new size for the frame: the window's, or the offscreen framebuffer's.
  virtual Status resize(int width, int height) = 0;
  // The pixels of the frame just drawn, before present().
  virtual Status read_frame(Image* image) = 0;
  // e.g. "OpenGL 4.6.0 NVIDIA 580.159.04 on NVIDIA H100 (EGL device platform)"
  virtual std::string description() const = 0;
  virtual bool interactive() const = 0;
};

Status create_window_platform(const PlatformOptions& options, std::unique_ptr<Platform>* out);
Status create_headless_platform(const PlatformOptions& options, std::unique_ptr<Platform>* out);

Status write_png(const Image& image, const std::string& path);
// A PDF of one page a picture, each page the picture's shape (slides: 1920x1080 makes 16:9 pages),
// the pictures JPEG-compressed.
Status write_pdf(const std::vector<Image>& pages, const std::string& path);
// The part of `image` inside the rectangle (in pixels, top row first), clipped to the image.
Image crop(const Image& image, int x, int y, int width, int height);

}  // namespace sortscope::app
