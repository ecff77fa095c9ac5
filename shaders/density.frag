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

uniform vec3 u_palette[9];  // the digit palette's stops, digit 0 first (gfx/palette.hpp)

// The palette's colour at t in [0, 1], blended between its stops as gfx::palette_color blends them.
vec3 digit_hue(float t) {
  float x = clamp(t, 0.0, 1.0) * 8.0;
  int i = min(int(x), 7);
  return mix(u_palette[i], u_palette[i + 1], x - float(i));
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
