// The headless platform: an offscreen OpenGL context through EGL, drawn into a framebuffer object.
// On an NVIDIA machine it uses the EGL device platform (OpenGL 4.6, CUDA-GL interop works); on a
// machine without one, Mesa's surfaceless platform (llvmpipe, OpenGL 4.5).
#include <glad/egl.h>
#include <glad/gl.h>
#include <imgui.h>

#include <chrono>
#include <string>
#include <vector>

#include "platform/gl_info.hpp"
#include "platform/platform.hpp"

namespace sortscope::app {
namespace {

struct Candidate {
  EGLDisplay display;
  std::string name;
};

// NVIDIA reports EGL_EXT_device_base rather than EXT_device_enumeration, so glad's flags read 0:
// fetch the two entry points by name.
std::vector<Candidate> candidate_displays() {
  std::vector<Candidate> out;
  auto query_devices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
  auto platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (query_devices && platform_display) {
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (query_devices(16, devices, &count))
      for (EGLint i = 0; i < count; ++i) {
        EGLDisplay d = platform_display(EGL_PLATFORM_DEVICE_EXT, devices[i], nullptr);
        if (d != EGL_NO_DISPLAY) out.push_back({d, "EGL device platform"});
      }
  }
  if (platform_display) {
    EGLDisplay d = platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr);
    if (d != EGL_NO_DISPLAY) out.push_back({d, "EGL surfaceless platform"});
  }
  EGLDisplay d = eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (d != EGL_NO_DISPLAY) out.push_back({d, "EGL default display"});
  return out;
}

class EglHeadlessPlatform final : public Platform {
 public:
  ~EglHeadlessPlatform() override {
    if (context_ != EGL_NO_CONTEXT) {
      if (fbo_) glDeleteFramebuffers(1, &fbo_);
      if (color_) glDeleteRenderbuffers(1, &color_);
      eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
      eglDestroyContext(display_, context_);
    }
    if (display_ != EGL_NO_DISPLAY) eglTerminate(display_);
  }

  Status init(const PlatformOptions& o) {
    width_ = o.width;
    height_ = o.height;
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) return {StatusCode::unsupported, "no EGL library (libEGL.so.1) found"};
    std::string tried;
    for (const Candidate& c : candidate_displays()) {
      if (try_display(c)) break;
      tried += (tried.empty() ? "" : ", ") + c.name;
    }
    if (context_ == EGL_NO_CONTEXT)
      return {StatusCode::unsupported, "no offscreen OpenGL 4.3+ context through EGL (tried: " + (tried.empty() ? std::string("no displays") : tried) + ")"};
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)))
      return {StatusCode::unsupported, "cannot load OpenGL functions through EGL"};
    description_ = current_gl_description() + " (" + platform_name_ + ", offscreen)";

    glGenFramebuffers(1, &fbo_);
    glGenRenderbuffers(1, &color_);
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width_, height_);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      return {StatusCode::unsupported, "offscreen framebuffer is incomplete"};
    last_ = std::chrono::steady_clock::now();
    return Status::Ok();
  }

  bool should_close() const override { return false; }
  void new_frame() override {
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(float(width_), float(height_));
    io.DisplayFramebufferScale = ImVec2(1, 1);
    const auto now = std::chrono::steady_clock::now();
    io.DeltaTime = std::max(1e-4f, std::chrono::duration<float>(now - last_).count());
    last_ = now;
  }
  void bind_frame_target() override { glBindFramebuffer(GL_FRAMEBUFFER, fbo_); }
  void present() override { glFlush(); }
  void framebuffer_size(int* w, int* h) const override {
    *w = width_;
    *h = height_;
  }
  Status resize(int w, int h) override {
    glBindRenderbuffer(GL_RENDERBUFFER, color_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    if (glGetError() != GL_NO_ERROR) return {StatusCode::unsupported, "the offscreen framebuffer cannot be resized"};
    width_ = w;
    height_ = h;
    return Status::Ok();
  }
  Status read_frame(Image* image) override {
    image->width = width_;
    image->height = height_;
    glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_);
    glReadBuffer(GL_COLOR_ATTACHMENT0);
    read_bound_framebuffer(width_, height_, &image->rgba);
    return Status::Ok();
  }
  std::string description() const override { return description_; }
  bool interactive() const override { return false; }

 private:
  bool try_display(const Candidate& c) {
    EGLint major = 0, minor = 0;
    if (!eglInitialize(c.display, &major, &minor)) return false;
    gladLoaderLoadEGL(c.display);  // now with the display's extensions
    if (!eglBindAPI(EGL_OPENGL_API)) {
      eglTerminate(c.display);
      return false;
    }
    const EGLint config_attribs[] = {EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8,
                                     EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint configs = 0;
    if (!eglChooseConfig(c.display, config_attribs, &config, 1, &configs) || configs < 1) config = nullptr;
    // Mesa llvmpipe gives 4.5; NVIDIA 4.6. The array view's SSBOs need 4.3.
    const int versions[][2] = {{4, 6}, {4, 5}, {4, 3}};
    for (const auto& v : versions) {
      const EGLint context_attribs[] = {EGL_CONTEXT_MAJOR_VERSION, v[0], EGL_CONTEXT_MINOR_VERSION, v[1],
                                        EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                                        EGL_NONE};
      EGLContext ctx = eglCreateContext(c.display, config, EGL_NO_CONTEXT, context_attribs);
      if (ctx == EGL_NO_CONTEXT) continue;
      if (eglMakeCurrent(c.display, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) {
        display_ = c.display;
        context_ = ctx;
        platform_name_ = c.name;
        return true;
      }
      eglDestroyContext(c.display, ctx);
    }
    eglTerminate(c.display);
    return false;
  }

  int width_ = 0, height_ = 0;
  EGLDisplay display_ = EGL_NO_DISPLAY;
  EGLContext context_ = EGL_NO_CONTEXT;
  GLuint fbo_ = 0, color_ = 0;
  std::string platform_name_, description_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace

Status create_headless_platform(const PlatformOptions& options, std::unique_ptr<Platform>* out) {
  auto p = std::make_unique<EglHeadlessPlatform>();
  SORTSCOPE_RETURN_IF_ERROR(p->init(options));
  *out = std::move(p);
  return Status::Ok();
}

}  // namespace sortscope::app
