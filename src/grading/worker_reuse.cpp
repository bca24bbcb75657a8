#include "grading/worker_reuse.hpp"

namespace labrun {

std::optional<std::string> worker_retires_because(const WorkerJobFacts& facts) {
  if (!facts.worker_answered) {
    return "the worker ended or was ended during the grading";
  }
  if (facts.status != 0) {
    return "the grading stopped (status " + std::to_string(facts.status) + ")";
  }
  if (!facts.worker_problem.empty()) {
    return "the worker's context after the grading: " + facts.worker_problem;
  }
  if (!facts.outside_calls) {
    return "what the image calls is unknown";
  }
  if (!facts.outside_calls->empty()) {
    std::string names;
    for (const std::string& call : *facts.outside_calls) {
      names += (names.empty() ? "" : ", ") + call;
    }
    return "the image calls the driver's " + names + ", whose state outlives the module";
  }
  if (!facts.results_clean) {
    return "the grading did not finish cleanly";
  }
  return std::nullopt;
}

}  // namespace labrun
