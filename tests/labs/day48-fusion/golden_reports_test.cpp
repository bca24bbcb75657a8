// Day 48's grade reports, held to what the grader gave before. golden/judge-reports.json holds judge
// inputs (what the source check, the compiler, the grading child and compute-sanitizer would report,
// and the manifest as the student wrote it) with the full report.json the grader rendered for each;
// golden/judge-enumeration.txt holds, for every combination of measured outcomes judge_test.cpp
// enumerates, a hash of that report. They were first written by the pre-refactor grader (commit
// 38fcf63, by this test as commit ba5330f has it), and promoted once since, when issue 29 changed
// what day 48's reports say on purpose (the sanitizer row's synccheck, the speed figures of the
// traffic-kind bound, every timed call's contract: the inputs gained the timing record's new
// counters, at zero); the promotion's commit says what changed and that no score or mistake did.
// A difference is a change of day 48's grades. Promoting is a deliberate step:
//
//   LABRUN_PROMOTE_GOLDEN=1 labrun_host_tests "day 48's report*"
//
// The inputs are JSON, not structs, so that the files outlive the refactor: only to_judge_input
// below knows the grader's types.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "exercise/chain_pair_exercise.hpp"
#include "exercise/child_protocol.hpp"
#include "exercise/exercise_entry.hpp"
#include "exercise/judge.hpp"
#include "grading/exercise.hpp"
#include "grading/manifest.hpp"
#include "grading/report.hpp"
#include "registry/registry.hpp"
#include "support/exercises.hpp"

// A named namespace, not an anonymous one: the unity build joins this file with judge_test.cpp,
// whose helpers have the same names.
namespace day48_golden {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr std::uint64_t kCard = 134217728;

fs::path golden_folder() {
  return fs::path(LABRUN_TEST_DATA_DIR) / "labs" / "day48-fusion" / "golden";
}

// ---- the grader's side: a JSON input as the judge takes it, and the report it gives ------------

labrun::JudgeInput to_judge_input(const Json& j) {
  labrun::JudgeInput in;
  in.submission = j.at("submission").get<std::string>();
  if (!j.at("manifest_text").is_null()) {
    in.manifest = labrun::parse_manifest(
        j.at("manifest_text").get<std::string>(), j.at("manifest_origin").get<std::string>(),
        labrun::testing::registered_exercise("day48-fusion/halfway-pair").manifest_schema());
  }
  in.manifest_problem = j.at("manifest_problem").get<std::string>();
  in.manifest_missing = j.at("manifest_missing").get<bool>();
  for (const Json& p : j.at("source_problems")) {
    in.source_problems.push_back(
        {p.at("line").get<int>(), p.at("message").get<std::string>(), p.at("kind").get<std::string>()});
  }
  in.compiled = j.at("compiled").get<bool>();
  in.compiler_messages = j.at("compiler_messages").get<std::string>();
  in.image_refusal = j.at("image_refusal").get<std::string>();
  in.image_refusal_message = j.at("image_refusal_message").get<std::string>();
  if (!j.at("child").is_null()) {
    const Json& c = j.at("child");
    labrun::ProcessResult child;
    child.started = c.at("started").get<bool>();
    child.timed_out = c.at("timed_out").get<bool>();
    child.exit_code = c.at("exit_code").get<int>();
    child.signal = c.at("signal").get<int>();
    child.wall_seconds = c.at("wall_seconds").get<double>();
    child.output = c.at("output").get<std::string>();
    child.output_bytes = c.at("output_bytes").get<std::uint64_t>();
    in.child = child;
  }
  if (!j.at("results").is_null()) {
    in.results = labrun::child_results_from_json(
        j.at("results"), labrun::testing::registered_exercise("day48-fusion/halfway-pair").record_checks);
  }
  in.last_step = j.at("last_step").get<std::string>();
  in.default_launch_shapes = j.at("default_launch_shapes").get<bool>();
  in.sanitizer_available = j.at("sanitizer_available").get<bool>();
  for (const Json& s : j.at("sanitizers")) {
    in.sanitizers.push_back({s.at("tool").get<std::string>(), s.at("clean").get<bool>(),
                             s.at("summary").get<std::string>(), s.at("finished").get<bool>()});
  }
  in.run_limit_seconds = j.at("run_limit_seconds").get<double>();
  in.seconds = j.at("seconds").get<double>();
  in.grader_problem = j.at("grader_problem").get<std::string>();
  return in;
}

// report.json as `labrun grade` writes it for this input, but its "raw" field (the child's results
// as the grader records them: checked apart, by results_survive_the_protocol).
Json report_of(const Json& input) {
  const labrun::JudgeInput in = to_judge_input(input);
  labrun::GradeReport report =
      labrun::judge(labrun::testing::registered_exercise("day48-fusion/halfway-pair"), in);
  Json document = labrun::report_json(report);
  document.erase("raw");
  return document;
}

// Whether the child's results, read and written again through the protocol, are the same JSON: the
// grade report's "raw" field is that JSON.
bool results_survive_the_protocol(const Json& input) {
  if (input.at("results").is_null()) {
    return true;
  }
  return labrun::to_json(labrun::child_results_from_json(
                             input.at("results"),
                             labrun::testing::registered_exercise("day48-fusion/halfway-pair").record_checks))
             .dump() == input.at("results").dump();
}

// ---- the inputs, as JSON: golden/judge-reports.json holds them (its first is a correct
// submission, the base of the enumeration). The code that made them is commit ba5330f's. --------

Json& probe_in(Json& in, const std::string& size, const std::string& kind) {
  for (Json& p : in["results"]["probes"]) {
    if (p["size_label"] == size && p["probe"] == kind) {
      return p;
    }
  }
  throw std::logic_error("no probe " + size + " " + kind);
}

void set_manifest(Json& in, const std::string& key, const Json& value) {
  Json manifest = Json::parse(in["manifest_text"].get<std::string>());
  if (value.is_null()) {
    manifest.erase(key);
  } else {
    manifest[key] = value;
  }
  in["manifest_text"] = manifest.dump();
}

// The run stopped: `kind` and `error` as the child wrote them at `step`, nothing timed or sanitized.
void stop(Json& in, const std::string& kind, const std::string& error, const std::string& step) {
  Json& r = in["results"];
  r["completed"] = false;
  r["timing"] = nullptr;
  r["error_kind"] = kind;
  r["error"] = error;
  r["failed_step"] = step;
  in["child"]["exit_code"] = 3;
  in["sanitizers"] = Json::array();
  in["last_step"] = step;
}

// ---- every combination of measured outcomes (judge_test.cpp's enumeration), on JSON -----------

// Digits of a scenario: odd, card (2 each), structure, buffers, sanitizer (3 each), timing (6),
// speed (3); the worked answer (4) cycles with the scenario's index.
struct ScenarioDigits {
  int odd, card, structure, buffers, sanitizer, timing, speed, answer;
  [[nodiscard]] std::string name() const {
    std::ostringstream text;
    text << "o" << odd << "c" << card << "s" << structure << "b" << buffers << "z" << sanitizer << "t"
         << timing << "p" << speed << "a" << answer;
    return text.str();
  }
};

Json scenario(const Json& base, const ScenarioDigits& s) {
  Json in = base;
  const auto wrong_in_one = [&](const std::string& size) {
    for (const char* kind : {"alone", "after-staged"}) {
      Json& p = probe_in(in, size, kind);
      p["output"]["mismatches"] = 1;
      p["output"]["first_bad_index"] = 7;
      p["output"]["first_bad_got"] = 0.5;
      p["output"]["first_bad_expected"] = 0.25;
    }
  };
  if (s.odd == 1) {
    wrong_in_one("odd");
  }
  if (s.card == 1) {
    wrong_in_one("card-scaled");
  }
  if (s.structure == 1) {
    Json& planted = probe_in(in, "card-scaled", "planted");
    planted["output"]["mismatches"] = planted["matches_chain_of_x"] = kCard;
  } else if (s.structure == 2) {
    probe_in(in, "odd", "after-staged")["staged_buffers_written"] = Json::array({"t2"});
  }
  if (s.buffers == 1) {
    probe_in(in, "card-scaled", "alone")["guards"]["y"] = 1;
  } else if (s.buffers == 2) {
    probe_in(in, "odd", "alone")["input_elements_changed"] = 3;
  }
  if (s.sanitizer == 1) {
    in["sanitizers"][0] = {
        {"tool", "memcheck"}, {"clean", false}, {"summary", "ERROR SUMMARY: 1 error"}, {"finished", true}};
  } else if (s.sanitizer == 2) {
    in["sanitizer_available"] = false;
    in["sanitizers"] = Json::array();
  }
  in["results"]["timing"]["pair_ms"] = s.speed == 0 ? 0.90 : s.speed == 1 ? 1.50 : 0.40;
  switch (s.timing) {
    case 0: break;
    case 1: in["results"]["timing"]["wrong_samples"] = 1; break;
    case 2:
      stop(in, "hang", "timing at n = 134217728: a launch had not finished after 2 s",
           "timing at n = 134217728");
      break;
    case 3:
      stop(in, "cuda-error", "cudaErrorIllegalAddress (an illegal memory access was encountered)",
           "timing at n = 134217728");
      break;
    case 4:
      stop(in, "", "", "");
      in["child"] = {{"started", true},      {"timed_out", true}, {"exit_code", -1},  {"signal", 9},
                     {"wall_seconds", 60.0}, {"output", ""},      {"output_bytes", 0}};
      in["last_step"] = "timing at n = 134217728";
      break;
    default:
      stop(in, "hang", "halfway_stages_3_4 at n = 134217728 (planted) had not finished after 2 s",
           "halfway_stages_3_4 at n = 134217728 (planted)");
      in["results"]["probes"].erase(in["results"]["probes"].size() - 1);
      break;
  }
  if ((s.answer & 1) == 0) {
    set_manifest(in, "bytes_per_element", 36.0);
  }
  if ((s.answer & 2) == 0) {
    set_manifest(in, "predicted_ratio_vs_staged", 2.0);
  }
  return in;
}

template <typename Visit>
void every_scenario(Visit visit) {
  int index = 0;
  for (int odd = 0; odd < 2; ++odd) {
    for (int card = 0; card < 2; ++card) {
      for (int structure = 0; structure < 3; ++structure) {
        for (int buffers = 0; buffers < 3; ++buffers) {
          for (int sanitizer = 0; sanitizer < 3; ++sanitizer) {
            for (int timing = 0; timing < 6; ++timing) {
              for (int speed = 0; speed < 3; ++speed) {
                visit(ScenarioDigits{odd, card, structure, buffers, sanitizer, timing, speed, index % 4});
                ++index;
              }
            }
          }
        }
      }
    }
  }
}

// FNV-1a, 64 bits, as 16 hex digits.
std::string hash_of(const std::string& text) {
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : text) {
    h = (h ^ c) * 0x100000001b3ull;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string digits(16, '0');
  for (int i = 15; i >= 0; --i) {
    digits[static_cast<std::size_t>(i)] = kHex[h & 0xF];
    h >>= 4;
  }
  return digits;
}

bool promoting() {
  const char* promote = std::getenv("LABRUN_PROMOTE_GOLDEN");
  return promote != nullptr && std::string(promote) == "1";
}

// An input written before the timing record had its per-call contract counters, with them at zero
// (what a run that found nothing records).
Json upgraded(Json input) {
  if (input.contains("results") && input["results"].is_object() && input["results"]["timing"].is_object()) {
    Json& t = input["results"]["timing"];
    for (const char* key : {"calls_checked", "samples_breaking_structure", "samples_changing_inputs"}) {
      if (!t.contains(key)) {
        t[key] = 0;
      }
    }
    if (!t.contains("first_broken_sample")) {
      t["first_broken_sample"] = nullptr;
    }
    // A timed call's inspection was y's alone; it is a probe's record of a timed call now.
    if (t["first_wrong_sample"].is_object() && !t["first_wrong_sample"].contains("probe")) {
      labrun::ChainPairRecord timed;
      timed.size_label = "card-scaled";
      timed.probe = "timed";
      timed.elements = t["first_wrong_sample"].at("elements").get<std::uint64_t>();
      Json record = labrun::to_json(
          timed, labrun::chain_pair_names(labrun::testing::registered_exercise("day48-fusion/halfway-pair")));
      record["output"] = t["first_wrong_sample"];  // an output's inspection, as the records hold it
      t["first_wrong_sample"] = record;
    }
    // In the protocol's order, so that a record read and written again is the same JSON.
    Json ordered;
    for (const char* key :
         {"elements", "samples", "pair_samples_ms", "pair_ms", "calls_checked", "wrong_samples",
          "first_wrong_sample", "samples_breaking_structure", "first_broken_sample", "guard_words_changed",
          "samples_writing_outside", "samples_changing_inputs", "lab", "lab_times_shared"}) {
      ordered[key] = t.at(key);
    }
    t = ordered;
  }
  return input;
}

void promote_reports() {
  const fs::path file = golden_folder() / "judge-reports.json";
  Json documents = Json::parse(labrun::read_file(file));
  for (Json& document : documents) {
    document["input"] = upgraded(document.at("input"));
    document["report"] = report_of(document.at("input"));
  }
  // One document a line, as the file was first written.
  std::string text = "[\n";
  for (std::size_t d = 0; d < documents.size(); ++d) {
    text += documents[d].dump() + (d + 1 < documents.size() ? ",\n" : "\n");
  }
  labrun::write_file_atomically(file, text + "]\n", true);
}

void check_reports() {
  if (promoting()) {
    promote_reports();
  }
  const fs::path file = golden_folder() / "judge-reports.json";
  const Json documents = Json::parse(labrun::read_file(file));
  REQUIRE(documents.size() >= 80);
  for (const Json& document : documents) {
    INFO(document.at("name").get<std::string>());
    CHECK(report_of(document.at("input")).dump() == document.at("report").dump());
    CHECK(results_survive_the_protocol(document.at("input")));
  }
}

void check_enumeration() {
  const fs::path file = golden_folder() / "judge-enumeration.txt";
  const Json documents = Json::parse(labrun::read_file(golden_folder() / "judge-reports.json"));
  const Json base = promoting() ? upgraded(documents.at(0).at("input")) : documents.at(0).at("input");
  REQUIRE(documents.at(0).at("name") == "correct");
  std::string lines;
  every_scenario([&](const ScenarioDigits& s) {
    lines += s.name() + " " + hash_of(report_of(scenario(base, s)).dump()) + "\n";
  });
  if (promoting()) {
    labrun::write_file_atomically(file, lines, true);
  }
  const std::string golden = labrun::read_file(file);
  CHECK(std::count(golden.begin(), golden.end(), '\n') == 1944);
  if (lines != golden) {
    std::istringstream now(lines);
    std::istringstream before(golden);
    std::string a;
    std::string b;
    int differing = 0;
    while (std::getline(now, a) && std::getline(before, b)) {
      if (a != b && ++differing <= 10) {
        FAIL_CHECK("now " << a << ", before " << b);
      }
    }
    FAIL(differing << " scenarios differ");
  }
}

}  // namespace day48_golden

TEST_CASE("day 48's reports are the pre-refactor grader's, input for input") {
  day48_golden::check_reports();
}

TEST_CASE("day 48's report for every combination of measured outcomes is the pre-refactor grader's") {
  day48_golden::check_enumeration();
}
