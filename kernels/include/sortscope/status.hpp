// Error reporting for the sort library: every call returns a Status; nothing throws or exits.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace sortscope {

enum class StatusCode {
  ok,
  invalid_argument,  // a bad name, size, bit range or combination of options
  out_of_memory,     // the data set does not fit in device (or host) memory
  unsupported,       // this algorithm or key type is not available on this backend
  no_device,         // the CUDA backend was asked for but no usable GPU exists
  cuda_error,        // a CUDA call failed
  device_lost,       // a CUDA call failed with a sticky error: this process cannot use the GPU again
  io_error,          // a file could not be read or written
  verification_failed,
};

class Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status Ok() { return {}; }
  bool ok() const { return code_ == StatusCode::ok; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::ok;
  std::string message_;
};

inline Status InvalidArgument(std::string m) { return {StatusCode::invalid_argument, std::move(m)}; }
inline Status Unsupported(std::string m) { return {StatusCode::unsupported, std::move(m)}; }
inline Status OutOfMemory(std::string m) { return {StatusCode::out_of_memory, std::move(m)}; }
inline Status IoError(std::string m) { return {StatusCode::io_error, std::move(m)}; }
// How a device_lost message begins; what follows is the CUDA call and its error.
constexpr std::string_view kGpuStoppedWorking = "the GPU stopped working: ";

// Text as it may appear in a one-line message: anything but printable ASCII (a newline typed into
// an argument, a terminal's escape sequence in a file name, the bytes of a binary file) as \xNN,
// so a message stays one line and sends nothing but text to the terminal.
inline std::string printable(std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    }
  }
  return out;
}

}  // namespace sortscope

// Propagates a failed Status to the caller.
#define SORTSCOPE_RETURN_IF_ERROR(expr)          \
  do {                                           \
    ::sortscope::Status sortscope_status_ = (expr); \
    if (!sortscope_status_.ok()) return sortscope_status_; \
  } while (0)
