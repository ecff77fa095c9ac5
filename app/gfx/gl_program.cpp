// Shader compilation and linking.
#include "gfx/gl_program.hpp"

#include <vector>

namespace sortscope::gfx {
namespace {

Status compile(GLenum type, const char* source, const std::string& name, GLuint* shader) {
  *shader = glCreateShader(type);
  glShaderSource(*shader, 1, &source, nullptr);
  glCompileShader(*shader);
  GLint ok = 0;
  glGetShaderiv(*shader, GL_COMPILE_STATUS, &ok);
  if (ok) return Status::Ok();
  GLint length = 0;
  glGetShaderiv(*shader, GL_INFO_LOG_LENGTH, &length);
  std::vector<char> log(size_t(length) + 1, 0);
  glGetShaderInfoLog(*shader, length, nullptr, log.data());
  glDeleteShader(*shader);
  return {StatusCode::unsupported, "shader " + name + " does not compile: " + log.data()};
}

}  // namespace

GlProgram::~GlProgram() {
  if (program_) glDeleteProgram(program_);
}

Status GlProgram::build(const char* vertex_source, const char* fragment_source, const std::string& name) {
  GLuint vs = 0, fs = 0;
  SORTSCOPE_RETURN_IF_ERROR(compile(GL_VERTEX_SHADER, vertex_source, name + " (vertex)", &vs));
  if (Status s = compile(GL_FRAGMENT_SHADER, fragment_source, name + " (fragment)", &fs); !s.ok()) {
    glDeleteShader(vs);
    return s;
  }
  program_ = glCreateProgram();
  glAttachShader(program_, vs);
  glAttachShader(program_, fs);
  glLinkProgram(program_);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = 0;
  glGetProgramiv(program_, GL_LINK_STATUS, &ok);
  if (ok) return Status::Ok();
  char log[2048] = {};
  glGetProgramInfoLog(program_, sizeof log, nullptr, log);
  return {StatusCode::unsupported, "shader " + name + " does not link: " + log};
}

}  // namespace sortscope::gfx
