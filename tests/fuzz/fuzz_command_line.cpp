// libFuzzer target: the command line and --param parsing on hostile arguments. The bytes split at
// newlines into arguments after the program name; parsing then turning the run options into
// requests must either succeed or fail with one line, and never crash, hang or read a file.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cli/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args{"sortscope"};
  std::string current;
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current.push_back(char(data[i]));
    }
  }
  args.push_back(current);
  if (args.size() > 64) return 0;
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  namespace cli = sortscope::app::cli;
  const cli::Command c = cli::parse_command_line(int(argv.size()), argv.data(), out, err);
  if (c.kind == cli::Command::Kind::exit) {
    // A mistake is always explained, in one line of printable text.
    const std::string e = err.str();
    if (c.exit_code != 0 && (e.empty() || e.find('\n') != e.size() - 1)) std::abort();
    for (const char ch : e)
      if (ch != '\n' && (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f)) std::abort();
    return 0;
  }
  std::vector<sortscope::app::RunRequest> requests;
  const sortscope::Status s = cli::to_requests(c.run, &requests);
  if (s.ok() == requests.empty()) std::abort();
  if (!s.ok() && (s.message().empty() || s.message().find('\n') != std::string::npos)) std::abort();
  for (const sortscope::app::RunRequest& r : requests) {
    sortscope::ParamValues values;
    if (!sortscope::resolve_params(*r.sort.algorithm, r.sort.params, &values).ok()) std::abort();
  }
  return 0;
}
