// The interactive platform: a GLFW window with an OpenGL 4.x core context and ImGui's GLFW backend.
#include <glad/gl.h>
// glad first: it stands in for the system GL header GLFW would include.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

#include <string>
#include <vector>

#include "platform/gl_info.hpp"
#include "platform/key_latch.hpp"
#include "platform/platform.hpp"

namespace sortscope::app {
namespace {

std::string glfw_error_text() {
  const char* text = nullptr;
  glfwGetError(&text);
  return text ? text : "unknown GLFW error";
}

class GlfwPlatform final : public Platform {
 public:
  ~GlfwPlatform() override {
    if (imgui_initialised_) ImGui_ImplGlfw_Shutdown();
    if (window_) glfwDestroyWindow(window_);
    glfwTerminate();
  }

  Status init(const PlatformOptions& o) {
    if (!glfwInit()) return {StatusCode::unsupported, "cannot open a window (" + glfw_error_text() + "); use --headless to render offscreen"};
    // The newest core profile the driver gives; 4.3 is the least the SSBO renderers need.
    const int versions[][2] = {{4, 6}, {4, 5}, {4, 3}};
    for (const auto& v : versions) {
      glfwDefaultWindowHints();
      glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, v[0]);
      glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, v[1]);
      glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
      glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
      window_ = glfwCreateWindow(o.width, o.height, o.title.c_str(), nullptr, nullptr);
      if (window_) break;
    }
    if (!window_) return {StatusCode::unsupported, "cannot create an OpenGL 4.3+ window: " + glfw_error_text()};
    glfwMakeContextCurrent(window_);
    glfwSwapInterval(1);
    if (!gladLoadGL(glfwGetProcAddress)) return {StatusCode::unsupported, "cannot load OpenGL functions"};
    description_ = current_gl_description() + " (GLFW window)";
    // Set before ImGui's backend, which calls it after its own: the latch sees every key event.
    glfwSetWindowUserPointer(window_, this);
    glfwSetKeyCallback(window_, [](GLFWwindow* w, int key, int, int action, int) {
      if (action == GLFW_PRESS || action == GLFW_RELEASE)
        static_cast<GlfwPlatform*>(glfwGetWindowUserPointer(w))->latch_.on_key(key, action == GLFW_PRESS);
    });
    imgui_initialised_ = ImGui_ImplGlfw_InitForOpenGL(window_, true);
    return Status::Ok();
  }

  bool should_close() const override { return glfwWindowShouldClose(window_); }
  void new_frame() override {
    ImGuiIO& io = ImGui::GetIO();
    for (int key : latched_)
      if (!latch_.down(key)) io.KeysDown[key] = false;
    glfwPollEvents();
    latched_ = latch_.take_taps();
    for (int key : latched_)
      if (key >= 0 && key < int(IM_ARRAYSIZE(io.KeysDown))) io.KeysDown[key] = true;
    ImGui_ImplGlfw_NewFrame();
  }
  void bind_frame_target() override { glBindFramebuffer(GL_FRAMEBUFFER, 0); }
  void present() override { glfwSwapBuffers(window_); }
  void framebuffer_size(int* w, int* h) const override { glfwGetFramebufferSize(window_, w, h); }
  Status resize(int w, int h) override {
    glfwSetWindowSize(window_, w, h);
    return Status::Ok();
  }
  Status read_frame(Image* image) override {
    framebuffer_size(&image->width, &image->height);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
    glReadBuffer(GL_BACK);
    read_bound_framebuffer(image->width, image->height, &image->rgba);
    return Status::Ok();
  }
  std::string description() const override { return description_; }
  bool interactive() const override { return true; }

 private:
  GLFWwindow* window_ = nullptr;
  bool imgui_initialised_ = false;
  KeyLatch latch_;
  std::vector<int> latched_;  // taps held down for the current frame
  std::string description_;
};

}  // namespace

Status create_window_platform(const PlatformOptions& options, std::unique_ptr<Platform>* out) {
  auto p = std::make_unique<GlfwPlatform>();
  SORTSCOPE_RETURN_IF_ERROR(p->init(options));
  *out = std::move(p);
  return Status::Ok();
}

}  // namespace sortscope::app
