// A linked GL program from vertex and fragment sources, with the compiler's log on failure.
#pragma once

#include <glad/gl.h>

#include <string>

#include "sortscope/status.hpp"

namespace sortscope::gfx {

class GlProgram {
 public:
  GlProgram() = default;
  ~GlProgram();
  GlProgram(const GlProgram&) = delete;
  GlProgram& operator=(const GlProgram&) = delete;

  Status build(const char* vertex_source, const char* fragment_source, const std::string& name);
  GLuint id() const { return program_; }
  GLint uniform(const char* name) const { return glGetUniformLocation(program_, name); }

 private:
  GLuint program_ = 0;
};

}  // namespace sortscope::gfx
