// A triangle covering the viewport, from gl_VertexID alone (no vertex buffers).
#version 430 core
void main() {
  vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
