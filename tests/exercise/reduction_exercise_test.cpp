// The staged reduction declaration (exercise/reduction_exercise.hpp) without a GPU: a declaration
// whose contract is not a staged reduction's, or that lacks a part, is refused naming the exercise;
// a record survives its JSON; and every registered reduction exercise derives its mistakes' names
// from its own words. The sum-of-squares tests (tests/labs/fusion-verdicts/grading/) judge records.

#include "exercise/reduction_exercise.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <stdexcept>
#include <string>

#include "support/exercises.hpp"

namespace {

using Catch::Matchers::ContainsSubstring;

// A declaration with every part, doing nothing: the checks at declaration look only at its presence.
labrun::ReductionDeclaration complete_declaration() {
  labrun::ReductionDeclaration d;
  d.reference = [](const float*, float*, float*, std::size_t, cudaStream_t) {};
  d.reference_scratch = [](std::size_t) { return std::size_t{1}; };
  d.lab_inputs = [](float*, std::size_t, std::uint64_t, cudaStream_t) {};
  d.launch_lab_case = [](std::size_t, const float*, const labrun::LabBufferPointers&, std::size_t,
                         cudaStream_t) {};
  return d;
}

labrun::Exercise pair_contract() {
  labrun::Exercise ex;
  ex.name = "a-reduction";
  ex.kernels = {
      {"first",
       {labrun::pointer_parameter("x", "const float*"), labrun::pointer_parameter("partials", "float*"),
        labrun::scalar_parameter<std::size_t>("n", "std::size_t")},
       false},
      {"finish",
       {labrun::pointer_parameter("partials", "const float*"), labrun::pointer_parameter("sum", "float*"),
        labrun::scalar_parameter<std::size_t>("blocks", "std::size_t")},
       true}};
  ex.lab_cases = {{"staged_ms", "lab's staged version", "lab/staged", false}};
  return ex;
}

}  // namespace

TEST_CASE("a staged reduction's declaration is checked, and a mistake in it names the exercise") {
  const labrun::Exercise declared = labrun::reduction_exercise(pair_contract(), complete_declaration());
  CHECK(declared.probes == labrun::kReductionProbes);
  CHECK(declared.watch_own_memory);
  CHECK(declared.child);
  CHECK(declared.judge_probes);

  labrun::ReductionDeclaration no_reference = complete_declaration();
  no_reference.reference = nullptr;
  CHECK_THROWS_WITH(labrun::reduction_exercise(pair_contract(), no_reference),
                    ContainsSubstring("exercise 'a-reduction'") && ContainsSubstring("reference"));

  labrun::Exercise finish_not_one_block = pair_contract();
  finish_not_one_block.kernels[1].one_block = false;
  CHECK_THROWS_WITH(labrun::reduction_exercise(finish_not_one_block, complete_declaration()),
                    ContainsSubstring("one block"));

  labrun::ReductionDeclaration other_words = complete_declaration();
  other_words.words.input = "values";  // the contract calls it x
  CHECK_THROWS_WITH(labrun::reduction_exercise(pair_contract(), other_words), ContainsSubstring("(values,"));

  labrun::ReductionDeclaration no_such_case = complete_declaration();
  no_such_case.after_lab_case = 1;
  CHECK_THROWS_WITH(labrun::reduction_exercise(pair_contract(), no_such_case),
                    ContainsSubstring("after-lab case"));
}

TEST_CASE("a reduction record survives its JSON, and a document that is not one is refused") {
  labrun::ReductionRecord r;
  r.size_label = "odd";
  r.probe = "planted";
  r.elements = 1049187;
  r.call = 4;
  r.blocks = 4099;
  r.output_bits = 0x47000000u;  // 32768
  r.expected = 32768.0;
  r.partials_total = 32768.0;
  CHECK(r.right());
  CHECK(r.partials_right());
  CHECK(labrun::to_json(labrun::reduction_record_from_json(labrun::to_json(r))) == labrun::to_json(r));
  CHECK_THROWS(labrun::reduction_record_from_json(nlohmann::ordered_json{{"probe", "alone"}}));
  r.output_bits = 0xFFFFFFFFu;
  CHECK_FALSE(r.output_written());
  CHECK_FALSE(r.right());
}

TEST_CASE("every registered staged reduction grades with the harness's probes") {
  int found = 0;
  for (const labrun::Exercise* ex : labrun::testing::registered_exercises()) {
    if (ex->probes == labrun::kReductionProbes) {
      INFO(ex->full_name());
      ++found;
      CHECK(ex->kernels.size() == 2);
      CHECK(ex->kernels[1].one_block);
      CHECK(ex->watch_own_memory);
    }
  }
  CHECK(found >= 1);  // fusion-verdicts' sum-of-squares
}
