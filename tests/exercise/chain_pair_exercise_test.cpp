// The chain-pair declaration (exercise/chain_pair_exercise.hpp) without a GPU: a declaration whose
// contract is not a chain pair's, or that lacks a part, is refused naming the exercise; a record
// survives its JSON, keyed by the contract's names; and every registered chain pair grades with the
// harness's probes. Day 48's tests (tests/labs/day48-fusion/) judge records.

#include "exercise/chain_pair_exercise.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cmath>
#include <stdexcept>
#include <string>

#include "support/exercises.hpp"

namespace {

using Catch::Matchers::ContainsSubstring;

// Checks that do nothing: the declaration looks only at their presence.
void no_inputs(float*, float*, std::size_t, std::uint64_t, std::uint64_t, cudaStream_t) {}
void no_plant(float*, std::size_t, std::uint64_t, cudaStream_t) {}
void no_output(const float*, std::size_t, std::uint64_t, std::uint64_t, double, double, bool,
               labrun::ChainOutputCounters*, cudaStream_t) {}
void no_intermediate(const float*, std::size_t, std::uint64_t, double, double,
                     labrun::ChainIntermediateCounters*, cudaStream_t) {}
void no_changes(const float*, const float*, std::size_t, std::uint64_t, std::uint64_t, unsigned long long*,
                cudaStream_t) {}
double no_value(std::uint64_t, std::uint64_t, std::uint64_t) {
  return 0.0;
}

labrun::ChainPairDeclaration chain_declaration() {
  labrun::ChainPairDeclaration d;
  d.checks = {1, no_inputs, no_plant, no_output, no_intermediate, no_changes, no_value};
  d.compositions = {{"twice", "stage-applied-twice", "the stage was applied twice"}};
  d.launch_lab_case = [](std::size_t, const float*, const float*, const std::vector<float*>&, std::size_t,
                         cudaStream_t) {};
  return d;
}

labrun::Exercise chain_contract() {
  labrun::Exercise ex;
  ex.name = "a-pair";
  const labrun::ContractParameter n = labrun::scalar_parameter<std::size_t>("n", "std::size_t");
  ex.kernels = {
      {"first",
       {labrun::pointer_parameter("a", "const float*"), labrun::pointer_parameter("mid", "float*"), n},
       false},
      {"second",
       {labrun::pointer_parameter("mid", "const float*"), labrun::pointer_parameter("b", "const float*"),
        labrun::pointer_parameter("out", "float*"), n},
       false}};
  ex.lab_cases = {{"staged_ms", "lab's staged chain", "lab/staged", false}};
  return ex;
}

}  // namespace

TEST_CASE("a chain pair's declaration is checked, and a mistake in it names the exercise") {
  const labrun::Exercise declared = labrun::chain_pair_exercise(chain_contract(), chain_declaration());
  CHECK(declared.probes == labrun::kChainPairProbes);
  CHECK(declared.child);
  CHECK(declared.judge_probes);
  const labrun::ChainPairNames names = labrun::chain_pair_names(declared);
  CHECK(names.input == "a");
  CHECK(names.intermediate == "mid");
  CHECK(names.second == "b");
  CHECK(names.output == "out");

  labrun::ChainPairDeclaration no_checks = chain_declaration();
  no_checks.checks.inspect_output = nullptr;
  CHECK_THROWS_WITH(labrun::chain_pair_exercise(chain_contract(), no_checks),
                    ContainsSubstring("exercise 'a-pair'") && ContainsSubstring("checks"));

  labrun::ChainPairDeclaration unnamed = chain_declaration();
  unnamed.compositions.clear();
  CHECK_THROWS_WITH(labrun::chain_pair_exercise(chain_contract(), unnamed), ContainsSubstring("composition"));

  labrun::ChainPairDeclaration no_such_case = chain_declaration();
  no_such_case.staged_case = 1;
  CHECK_THROWS_WITH(labrun::chain_pair_exercise(chain_contract(), no_such_case),
                    ContainsSubstring("staged chain"));

  labrun::Exercise other_intermediate = chain_contract();
  other_intermediate.kernels[1].parameters[0].name = "t";  // not the first kernel's output
  CHECK_THROWS_WITH(labrun::chain_pair_exercise(other_intermediate, chain_declaration()),
                    ContainsSubstring("exercise 'a-pair'") && ContainsSubstring("intermediate"));
  labrun::Exercise three_kernels = chain_contract();
  three_kernels.kernels.push_back(three_kernels.kernels[0]);
  CHECK_THROWS_WITH(labrun::chain_pair_exercise(three_kernels, chain_declaration()),
                    ContainsSubstring("two kernels"));
}

TEST_CASE("a chain-pair record survives its JSON, keyed by the contract's names") {
  const labrun::ChainPairNames names{"a", "mid", "b", "out"};
  // The wire format, as the child writes it: the guards and the replaced input's matches keyed by name.
  const auto document = nlohmann::ordered_json::parse(R"({
    "size_label": "odd", "probe": "planted", "elements": 1049187, "call": 3,
    "output": {"elements": 1049187, "mismatches": 1, "unwritten": 0, "trailing_unwritten": 0,
               "non_finite": 0, "max_abs_error": "nan", "first_bad_index": 7, "first_bad_got": 2.0,
               "first_bad_expected": 1.0, "compositions": {"twice": 5}},
    "intermediate": null,
    "guards": {"out": 1, "mid": 2, "a": 3, "b": 4},
    "input_elements_changed": 0, "staged_buffers_written": ["t1"], "matches_chain_of_a": 9,
    "launches_writing_outside": 0})");
  const labrun::ChainPairRecord r = labrun::chain_pair_record_from_json(document, names);
  CHECK(r.guards.output == 1);
  CHECK(r.guards.intermediate == 2);
  CHECK(r.guards.input == 3);
  CHECK(r.guards.second == 4);
  CHECK(r.matches_chain_of_input == 9);
  CHECK(std::isnan(r.output.max_abs_error));
  CHECK(r.output.compositions.front().matching == 5);
  CHECK_FALSE(r.intermediate);
  CHECK(labrun::to_json(r, names) == document);
  CHECK_THROWS(labrun::chain_pair_record_from_json(document, {"x", "mid", "b", "out"}));
  CHECK_THROWS(labrun::chain_pair_record_from_json(nlohmann::ordered_json{{"probe", "alone"}}, names));
}

TEST_CASE("every registered chain pair grades with the harness's probes") {
  int found = 0;
  for (const labrun::Exercise* ex : labrun::testing::registered_exercises()) {
    if (ex->probes == labrun::kChainPairProbes) {
      INFO(ex->full_name());
      ++found;
      CHECK_NOTHROW(labrun::chain_pair_names(*ex));
      CHECK(ex->record_checks.probe);
      CHECK(ex->child);
    }
  }
  CHECK(found >= 1);  // day 48's half-way pair
}
