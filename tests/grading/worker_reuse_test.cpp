#include "grading/worker_reuse.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Matchers::ContainsSubstring;

namespace {

labrun::WorkerJobFacts clean_grading() {
  labrun::WorkerJobFacts facts;
  facts.worker_answered = true;
  facts.status = 0;
  facts.outside_calls = std::vector<std::string>{};
  facts.results_clean = true;
  return facts;
}

}  // namespace

TEST_CASE("a worker grades another submission only after a clean grading of an image that calls nothing") {
  CHECK_FALSE(labrun::worker_retires_because(clean_grading()));

  labrun::WorkerJobFacts ended = clean_grading();
  ended.worker_answered = false;
  CHECK_THAT(*labrun::worker_retires_because(ended), ContainsSubstring("ended"));

  labrun::WorkerJobFacts stopped = clean_grading();
  stopped.status = 3;
  CHECK_THAT(*labrun::worker_retires_because(stopped), ContainsSubstring("status 3"));

  labrun::WorkerJobFacts spoiled = clean_grading();
  spoiled.worker_problem = "work left or an error pending: cudaErrorIllegalAddress";
  CHECK_THAT(*labrun::worker_retires_because(spoiled), ContainsSubstring("cudaErrorIllegalAddress"));

  labrun::WorkerJobFacts heap = clean_grading();
  heap.outside_calls = std::vector<std::string>{"malloc", "free"};
  CHECK_THAT(*labrun::worker_retires_because(heap), ContainsSubstring("malloc, free"));

  labrun::WorkerJobFacts unknown = clean_grading();
  unknown.outside_calls.reset();
  CHECK(labrun::worker_retires_because(unknown).has_value());

  labrun::WorkerJobFacts hostile = clean_grading();
  hostile.results_clean = false;
  CHECK(labrun::worker_retires_because(hostile).has_value());
}
