// Colours the array view's density grid: one fragment per cell, brightness from how many keys fell
// in it (log scale), hue from the mean digit of the viewed pass.
#version 430 core
layout(std430, binding = 0) readonly buffer Cells { uint cells[]; };  // {count, digit_sum} per cell
uniform ivec2 u_grid;        // columns, rows
uniform float u_full_count;  // keys per column: a column whose keys share one cell is brightest
uniform float u_digits;      // digit values of the colouring pass (0 or 1: no digit colour)
uniform int u_radius;        // cells to grow each key by when keys are sparse (small n)
out vec4 frag_color;

const vec3 kBackground = vec3(0.055, 0.063, 0.078);

// A perceptually even hue wheel (blue, cyan, green, yellow, orange, red, magenta): neighbouring
// digits differ visibly, so buckets stand apart at a projector.
vec3 digit_hue(float t) {
  vec3 c = 0.5 + 0.5 * cos(6.28318 * (vec3(0.0, 0.33, 0.67) - t * 0.85));
  return mix(vec3(0.55), c, 0.9);
}

void main() {
  ivec2 p = ivec2(gl_FragCoord.xy);
  uint count = 0u, digit_sum = 0u;
  for (int dy = -u_radius; dy <= u_radius; ++dy) {
    for (int dx = -u_radius; dx <= u_radius; ++dx) {
      ivec2 q = p + ivec2(dx, dy);
      if (q.x < 0 || q.y < 0 || q.x >= u_grid.x || q.y >= u_grid.y) continue;
      uint i = uint(q.y * u_grid.x + q.x);
      count += cells[2u * i];
      digit_sum += cells[2u * i + 1u];
    }
  }
  if (count == 0u) {
    frag_color = vec4(kBackground, 1.0);
    return;
  }
  float density = clamp(log(1.0 + float(count)) / log(1.0 + max(u_full_count, 1.0)), 0.0, 1.0);
  vec3 hue = u_digits > 1.5 ? digit_hue(float(digit_sum) / float(count) / (u_digits - 1.0)) : vec3(0.85, 0.9, 1.0);
  frag_color = vec4(mix(kBackground, hue, 0.45 + 0.55 * density), 1.0);
}
