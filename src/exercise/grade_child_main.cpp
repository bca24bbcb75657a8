// The grading child program: trusted code that grades submissions of any exercise this build
// registers (exercise/child_session.hpp says what it does).
//
//   labrun-grade-child --request FILE     one grading, in a process of its own
//   labrun-grade-child --serve CONTROL    a grading worker: one grading after another in one CUDA
//                                         context, as labrun hands them over in the folder CONTROL
//                                         (exercise/worker_protocol.hpp); under compute-sanitizer,
//                                         the screening of a group (exercise/sanitizer_screen.hpp)
//
// A request file (exercise/child_protocol.hpp) names the exercise, the image, the results and phase
// files (all in its own folder, which is the working folder while it is graded) and holds the
// seed, so that no seed is ever on a command line. It runs in its own process so that a kernel that
// never ends, or a CUDA error that spoils the context, ends only this process. Exit status: 0
// finished (whatever the submission did), 2 bad request, 3 stopped by the submission (a CUDA error,
// a hang, a kernel that cannot be loaded or launched; the results say which), 1 the child itself
// failed (or, for a worker, its context is unfit for another grading).

#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "base/bounded_read.hpp"
#include "base/json_parse.hpp"
#include "exercise/child_protocol.hpp"
#include "exercise/grade_worker.hpp"
#include "exercise/worker_protocol.hpp"
#include "registry/registry.hpp"

namespace {

// One request, as the one-shot child grades it: its exit status.
int grade_request(const std::filesystem::path& request_file) {
  nlohmann::ordered_json document;
  const labrun::LabExercise* exercise = nullptr;
  try {
    document = labrun::read_json_file(request_file, labrun::kRequestMaxBytes);
    const labrun::ChildRequest request = labrun::request_from_json(document);
    exercise = labrun::registered_labs().find_exercise(request.lab + "/" + request.exercise);
    if (exercise == nullptr) {
      throw std::runtime_error("no exercise " + request.lab + "/" + request.exercise + " in this build");
    }
  } catch (const std::exception& error) {
    std::cerr << "grade-child: " << error.what() << "\n";
    return 2;
  }
  try {
    return exercise->run_child(document);
  } catch (const std::exception& error) {
    std::cerr << "grade-child: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc == 3 ? argv[1] : "";
  if (mode != "--request" && mode != "--serve") {
    std::cerr << "usage: labrun-grade-child --request FILE | --serve CONTROL\n";
    return 2;
  }
  if (mode == "--request") {
    return grade_request(argv[2]);
  }
  if (const std::string problem = labrun::open_worker_context(); !problem.empty()) {
    std::cerr << "grade-child: " << problem << "\n";
    return 1;
  }
  try {
    return labrun::serve_grading_jobs(std::filesystem::absolute(argv[2]), grade_request,
                                      labrun::worker_context_problem);
  } catch (const std::exception& error) {
    std::cerr << "grade-child: " << error.what() << "\n";
    return 1;
  }
}
