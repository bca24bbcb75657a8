// The grading child program: trusted code that grades one submission of any exercise this build
// registers (exercise/child_session.hpp says what it does).
//
//   labrun-grade-child --request FILE
//
// FILE (exercise/child_protocol.hpp) names the exercise, the image, the results and phase files
// (all in the working folder) and holds the seed, so that no seed is ever on a command line. It
// runs in its own process so that a kernel that never ends, or a CUDA error that spoils the
// context, ends only this process. Exit status: 0 finished (whatever the submission did), 2 bad
// request, 3 stopped by the submission (a CUDA error, a hang, a kernel that cannot be loaded or
// launched; the results say which), 1 the child itself failed.

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "base/bounded_read.hpp"
#include "base/json_parse.hpp"
#include "exercise/child_protocol.hpp"
#include "registry/registry.hpp"

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--request") {
    std::cerr << "usage: labrun-grade-child --request FILE\n";
    return 2;
  }
  nlohmann::ordered_json document;
  const labrun::LabExercise* exercise = nullptr;
  try {
    document = labrun::read_json_file(argv[2], labrun::kRequestMaxBytes);
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
