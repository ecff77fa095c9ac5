// A pair of device buffers with a selector, call-compatible with cub::DoubleBuffer.
#pragma once

namespace sortscope {

template <typename T>
struct DoubleBuffer {
  T* d_buffers[2] = {nullptr, nullptr};
  int selector = 0;

  DoubleBuffer() = default;
  DoubleBuffer(T* d_current, T* d_alternate) : d_buffers{d_current, d_alternate} {}

  T* Current() const { return d_buffers[selector]; }
  T* Alternate() const { return d_buffers[selector ^ 1]; }
};

}  // namespace sortscope
