// `sortscope lab`: list the labs, start one, check a student's file as a grader would, and the
// hidden worker process a lab's kernels run in.
#include <fstream>
#include <iostream>

#include "cli/options.hpp"
#include "session/data_files.hpp"
#include "session/lab_runner.hpp"

namespace sortscope::app::cli {

namespace {

// auto: the GPU where there is one, else the CPU emulation.
BackendKind lab_backend(const std::string& choice, std::string* note) {
  if (choice == "cpu") return BackendKind::cpu;
  if (choice == "cuda") return BackendKind::cuda;
  std::unique_ptr<Backend> gpu;
  if (Status s = make_cuda_backend(&gpu); s) return BackendKind::cuda;
  *note = "no GPU here: the lab runs on the CPU emulation, slower than a GPU";
  return BackendKind::cpu;
}

int list_labs(std::ostream& out) {
  const std::vector<std::string> names = lab_names();
  if (names.empty()) {
    out << "no labs installed\n";
    return 1;
  }
  for (const std::string& name : names) {
    LabFiles lab;
    if (Status s = open_lab_files(name, &lab); !s) {
      out << name << ": " << s.message() << "\n";
      continue;
    }
    out << name << "\n    " << lab.info.title << "\n    you write: " << lab.info.phase << " ("
        << lab.info.algorithm << ")\n";
  }
  out << "\nsortscope lab start NAME DIR    writes the starter file and the task\n"
         "sortscope lab check NAME --student FILE    runs the fixed cases (exit 0: all pass)\n"
         "sortscope --lab NAME --student FILE    opens it in the window, rerun on every save\n";
  return 0;
}

}  // namespace

int run_lab_command(const LabCommand& command) {
  switch (command.action) {
    case LabCommand::Action::worker:
      return lab_worker_main(command.request, command.result);
    case LabCommand::Action::list:
      return list_labs(std::cout);
    case LabCommand::Action::start: {
      std::vector<std::filesystem::path> written;
      if (Status s = start_lab(command.name, command.dir, &written); !s) {
        std::cerr << "sortscope: lab start: " << s.message() << "\n";
        return 2;
      }
      for (const auto& path : written) std::cout << "wrote " << path.string() << "\n";
      std::cout << "check it with: sortscope lab check " << command.name << " --student " << written.front().string()
                << "\n";
      return 0;
    }
    case LabCommand::Action::check: {
      LabFiles lab;
      if (Status s = open_lab_files(command.name, &lab); !s) {
        std::cerr << "sortscope: lab check: " << s.message() << "\n";
        return 2;
      }
      if (!std::filesystem::is_regular_file(command.student)) {
        std::cerr << "sortscope: lab check: --student '" << command.student << "': no such file\n";
        return 2;
      }
      LabRequest request;
      request.lab = command.name;
      request.student = command.student;
      request.check = true;
      request.large_n = command.large;
      request.watchdog_s = command.watchdog;
      std::string note;
      request.backend = lab_backend(command.backend, &note);
      if (!note.empty()) std::cout << note << "\n";
      const LabOutcome outcome = run_lab(request);
      std::cout << lab_report_text(request, outcome);
      if (!command.json.empty()) {
        const std::string json = lab_report_json(request, outcome);
        if (command.json == "-") {
          std::cout << json;
        } else {
          std::ofstream out(command.json);
          out << json;
          if (!out) {
            std::cerr << "sortscope: lab check: cannot write " << command.json << "\n";
            return 2;
          }
        }
      }
      return outcome.kind == LabOutcomeKind::passed ? 0 : 1;
    }
  }
  return 2;
}

}  // namespace sortscope::app::cli
