// The lab's declaration against the committed H200 run (written before the lab was declared case by
// case): the same cases with the same specs, versions with the same tolerances, the same bitwise
// pairs in the same order, and the same attributes where computing them needs no device.

#include "fusion-verdicts/declarations.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cases/seeded_uniform.hpp"
#include "evidence/transcript_file.hpp"
#include "fusion-verdicts/case_names.hpp"
#include "fusion-verdicts/constants.hpp"
#include "fusion-verdicts/lab.hpp"
#include "fusion-verdicts/reference.hpp"
#include "support/test_data.hpp"

namespace {

using labrun::CaseDeclaration;
using labrun::CheckDeclaration;
using labrun::LabDeclaration;

labrun::Transcript committed_run() {
  return labrun::read_transcript_file(
      labrun::testing::evidence_folder() / "fusion-verdicts" / "nvidia-h200" / "2026-11-30T07-12-10Z.json.gz",
      labrun::testing::registered_lab);
}

const CaseDeclaration& declared_case(const LabDeclaration& lab, const std::string& name) {
  const auto found = std::find_if(lab.cases().begin(), lab.cases().end(),
                                  [&](const CaseDeclaration& c) { return c.spec.name == name; });
  REQUIRE(found != lab.cases().end());
  return *found;
}

const CheckDeclaration& declared_check(const LabDeclaration& lab, const std::string& version) {
  const auto found = std::find_if(lab.checks().begin(), lab.checks().end(),
                                  [&](const CheckDeclaration& c) { return c.name == version; });
  REQUIRE(found != lab.checks().end());
  return *found;
}

// The declared inputs' first n values, as the harness fills them, by buffer index and by name.
std::map<std::size_t, std::vector<float>> indexed_inputs(const LabDeclaration& lab, std::uint64_t seed,
                                                         std::size_t n) {
  std::map<std::size_t, std::vector<float>> inputs;
  for (std::size_t b = 0; b < lab.buffers().size(); ++b) {
    const LabDeclaration::Buffer& buffer = lab.buffers()[b];
    if (buffer.input) {
      std::vector<float> values(n);
      for (std::size_t i = 0; i < n; ++i) {
        values[i] = labrun::seeded_uniform(seed, buffer.seed_stream, i, buffer.low, buffer.high);
      }
      inputs.emplace(b, std::move(values));
    }
  }
  return inputs;
}

std::map<std::string, std::vector<float>> named_inputs(const LabDeclaration& lab, std::uint64_t seed,
                                                       std::size_t n) {
  std::map<std::string, std::vector<float>> named;
  for (auto& [index, values] : indexed_inputs(lab, seed, n)) {
    named.emplace(lab.buffers()[index].name, std::move(values));
  }
  return named;
}

labrun::HostInputs host_inputs(const LabDeclaration& lab, std::uint64_t seed, std::size_t n) {
  return labrun::HostInputs(indexed_inputs(lab, seed, n));
}

}  // namespace

TEST_CASE("every case the committed run timed is declared with the same spec") {
  const LabDeclaration lab = verdicts::declare_lab();
  const labrun::Transcript t = committed_run();
  std::set<std::string> timed;
  for (const labrun::CaseResult& result : t.cases) {
    INFO(result.name);
    const labrun::CaseSpec& spec = declared_case(lab, result.name).spec;
    CHECK(spec.part == result.part);
    CHECK(spec.label == result.label);
    CHECK(spec.model.read_bytes_per_element == result.model.read_bytes_per_element);
    CHECK(spec.model.write_bytes_per_element == result.model.write_bytes_per_element);
    CHECK(spec.model.launches == result.model.launches);
    CHECK(spec.launches_per_sample == result.launches_per_sample);
    timed.insert(result.name);
  }
  // Every case but the roofline's peak-FMA case (cases/reference_cases.hpp), declared after that run.
  CHECK(timed.size() + 1 == lab.cases().size());
  CHECK(declared_case(lab, "fusion-verdicts/roofline/peak-fma").spec.part == "roofline");
  CHECK(verdicts::make_lab().cases.size() == lab.cases().size());
}

TEST_CASE("every case is verified by its own version, declared once, named <part>-<name>") {
  const LabDeclaration lab = verdicts::declare_lab();
  std::set<std::string> versions;
  for (const CaseDeclaration& c : lab.cases()) {
    REQUIRE(c.verified_by.has_value());
    CHECK(lab.check_of(*c.verified_by).name == c.spec.verified_by);
    // The harness's peak-FMA case names its own check ("peak-fma"); each of the lab's, <part>-<name>.
    CHECK(c.spec.verified_by ==
          (c.spec.part == "roofline"
               ? std::string("peak-fma")
               : verdicts::version_name(c.spec.part, c.spec.name.substr(c.spec.name.rfind('/') + 1))));
    CHECK(c.region);
    CHECK(c.attributes);
    versions.insert(c.spec.verified_by);
  }
  CHECK(versions.size() == lab.checks().size());
}

TEST_CASE("the committed run's versions are declared with the same tolerances and output lengths") {
  const LabDeclaration lab = verdicts::declare_lab();
  const labrun::Transcript t = committed_run();
  // The peak-FMA check, declared last and after that run, is not among the run's.
  REQUIRE(t.correctness.size() + 1 == lab.checks().size());
  CHECK(lab.checks().back().name == "peak-fma");
  constexpr std::size_t kSmall = 1001;  // odd, and enough groups for every R
  const labrun::HostInputs inputs = host_inputs(lab, 48, kSmall);
  for (std::size_t i = 0; i < t.correctness.size(); ++i) {
    const labrun::CorrectnessCheck& recorded = t.correctness[i];
    INFO(recorded.version);
    CHECK(lab.checks()[i].name == recorded.version);  // the order the runner checks them in
    const CheckDeclaration& check = declared_check(lab, recorded.version);
    CHECK(check.tolerance.describe() == recorded.tolerance);
    // The sum is one float (elements 1 in the run); every other output n floats.
    const bool one_value = recorded.elements == 1;
    CHECK(lab.buffers()[check.output.index()].name == (one_value ? "sum" : "y"));
    CHECK(check.reference(inputs, kSmall).size() == (one_value ? 1 : kSmall));
  }
}

TEST_CASE("the committed run's bitwise pairs are declared, fused first, in the same order") {
  const LabDeclaration lab = verdicts::declare_lab();
  const labrun::Transcript t = committed_run();
  REQUIRE(lab.bitwise_pairs().size() == t.bitwise.size());
  REQUIRE(t.bitwise.size() == 3 + 4 + 2 * 9);
  for (std::size_t i = 0; i < t.bitwise.size(); ++i) {
    CHECK(lab.check_of(lab.bitwise_pairs()[i].first).name == t.bitwise[i].first);
    CHECK(lab.check_of(lab.bitwise_pairs()[i].second).name == t.bitwise[i].second);
  }
}

TEST_CASE("the attributes that need no device are the committed run's") {
  const LabDeclaration lab = verdicts::declare_lab();
  const labrun::Transcript t = committed_run();
  int compared = 0;
  for (const labrun::CaseResult& result : t.cases) {
    // The stencil and reduction parts ask the device for their kernels' shapes and grid.
    if (result.part == verdicts::kStencilPart || result.part == verdicts::kSumPart ||
        result.part == verdicts::kNormalisePart) {
      continue;
    }
    INFO(result.name << " at " << result.elements);
    CHECK(declared_case(lab, result.name).attributes(result.elements) == result.attributes);
    ++compared;
  }
  CHECK(compared == 2 + 2 * 18 + 4 * 9);
}

TEST_CASE("the inputs are seeded, x and a from their own streams; the reductions' buffers are small") {
  const LabDeclaration lab = verdicts::declare_lab();
  std::map<std::string, LabDeclaration::Buffer> buffers;
  for (const LabDeclaration::Buffer& buffer : lab.buffers()) {
    buffers.emplace(buffer.name, buffer);
  }
  REQUIRE(buffers.size() == 7);  // and the peak-FMA case's output, of its own fixed count
  CHECK(buffers.at("peak-fma-out").elements);
  CHECK(buffers.at("x").input);
  CHECK(buffers.at("x").seed_stream == verdicts::kInputStream);
  CHECK(buffers.at("a").input);
  CHECK(buffers.at("a").seed_stream == verdicts::kGroupInputStream);
  for (const char* input : {"x", "a"}) {
    CHECK(buffers.at(input).low == verdicts::kInputLow);
    CHECK(buffers.at(input).high == verdicts::kInputHigh);
  }
  for (const char* full_size : {"mid", "y"}) {
    CHECK_FALSE(buffers.at(full_size).input);
    CHECK_FALSE(buffers.at(full_size).elements);
  }
  CHECK(buffers.at("partials").elements);  // one per block of the device's reduction grid
  REQUIRE(buffers.at("sum").elements);
  CHECK(buffers.at("sum").elements() == 1);
}

TEST_CASE("a recompute reference from its groups alone is the reference from every a[g]") {
  const LabDeclaration lab = verdicts::declare_lab();
  constexpr std::size_t kSmall = 1001;
  const std::map<std::string, std::vector<float>> named = named_inputs(lab, 7, kSmall);
  const labrun::HostInputs inputs = host_inputs(lab, 7, kSmall);
  for (const bool expensive : {false, true}) {
    std::vector<double> every_value(kSmall);  // f(a[g]) for every g < n, as the lab computed it before
    std::transform(named.at("a").begin(), named.at("a").end(), every_value.begin(),
                   expensive ? verdicts::expensive_value_reference : verdicts::cheap_value_reference);
    for (const unsigned reuse : verdicts::kReuseFactors) {
      INFO((expensive ? "expensive" : "cheap") << " R = " << reuse);
      const std::vector<double> before = verdicts::reuse_reference(named.at("x"), every_value, reuse);
      for (const bool recompute : {true, false}) {
        const labrun::CaseSpec& spec =
            declared_case(lab, verdicts::cases::reuse(expensive, recompute, reuse)).spec;
        CHECK(declared_check(lab, spec.verified_by).reference(inputs, kSmall) == before);
      }
    }
  }
}
