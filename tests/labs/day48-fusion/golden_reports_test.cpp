// Day 48's grade reports, held to what the grader gave before its machinery moved into the harness
// (issue 23). golden/judge-reports.json holds judge inputs (what the source check, the compiler,
// the grading child and compute-sanitizer would report, and the manifest as the student wrote it)
// with the full report.json the pre-refactor grader rendered for each; golden/judge-enumeration.txt
// holds, for every combination of measured outcomes judge_test.cpp enumerates, a hash of that
// report. Both were written by the pre-refactor code (commit 38fcf63) with
// LABRUN_WRITE_JUDGE_GOLDEN=1 and are never regenerated: a difference is a change of day 48's
// grades, which issue 23 forbids.
//
// The inputs are JSON, not structs, so that the files outlive the refactor: only to_judge_input
// below knows the grader's types.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "grading/child_protocol.hpp"
#include "grading/contract.hpp"
#include "grading/judge.hpp"
#include "grading/manifest.hpp"
#include "grading/report.hpp"

// A named namespace, not an anonymous one: the unity build joins this file with judge_test.cpp,
// whose helpers have the same names.
namespace day48_golden {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

constexpr std::uint64_t kOdd = 1049187;
constexpr std::uint64_t kCard = 134217728;

fs::path golden_folder() {
  return fs::path(LABRUN_TEST_DATA_DIR) / "labs" / "day48-fusion" / "golden";
}

bool writing_golden() {
  const char* flag = std::getenv("LABRUN_WRITE_JUDGE_GOLDEN");
  return flag != nullptr && std::string(flag) == "1";
}

// ---- the grader's side: a JSON input as the judge takes it, and the report it gives ------------

day48::grading::JudgeInput to_judge_input(const Json& j) {
  day48::grading::JudgeInput in;
  in.submission = j.at("submission").get<std::string>();
  if (!j.at("manifest_text").is_null()) {
    in.manifest =
        labrun::parse_manifest(j.at("manifest_text").get<std::string>(),
                               j.at("manifest_origin").get<std::string>(), day48::grading::kernel_names());
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
    in.results = day48::grading::child_results_from_json(j.at("results"));
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
  const day48::grading::JudgeInput in = to_judge_input(input);
  labrun::GradeReport report = day48::grading::judge(in);
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
  return day48::grading::to_json(day48::grading::child_results_from_json(input.at("results"))).dump() ==
         input.at("results").dump();
}

// ---- the inputs, as JSON ----------------------------------------------------------------------

Json right_output(std::uint64_t n) {
  Json compositions = Json::object();
  for (const char* c : {"gelu-twice", "skip-scale-bias", "skip-gelu", "skip-residual", "skip-clamp",
                        "clamp-before-residual", "gelu-before-scale-bias"}) {
    compositions[c] = 0;
  }
  return Json{{"elements", n},
              {"mismatches", 0},
              {"unwritten", 0},
              {"trailing_unwritten", 0},
              {"non_finite", 0},
              {"max_abs_error", 1e-7},
              {"first_bad_index", nullptr},
              {"first_bad_got", nullptr},
              {"first_bad_expected", nullptr},
              {"compositions", compositions}};
}

Json probe(const std::string& size, std::uint64_t n, const std::string& kind, int call) {
  return Json{{"size_label", size},
              {"probe", kind},
              {"elements", n},
              {"call", call},
              {"output", right_output(n)},
              {"intermediate", kind == "planted" ? Json(nullptr) : Json{{"unwritten", 0}, {"mismatches", 0}}},
              {"guards", {{"y", 0}, {"intermediate", 0}, {"x", 0}, {"residual", 0}}},
              {"input_elements_changed", 0},
              {"staged_buffers_written", Json::array()},
              {"matches_chain_of_x", 0},
              {"launches_writing_outside", 0}};
}

Json kernel(const std::string& name, std::vector<int> parameters) {
  return Json{{"name", name},    {"found", true},    {"parameter_bytes", parameters},
              {"registers", 16}, {"local_bytes", 0}, {"max_threads_per_block", 1024},
              {"launch", ""}};
}

const std::string kGoodManifest =
    R"({"student_id": "s1", "bytes_per_element": 20, "launches": 2, "predicted_ratio_vs_staged": 1.8,)"
    R"( "predicted_ratio_vs_fused": 1.67, "kernels": {)"
    R"("halfway_stages_1_2": {"threads_per_block": 256, "elements_per_thread": 1},)"
    R"( "halfway_stages_3_4": {"threads_per_block": 256, "elements_per_thread": 1}}})";

// A submission that does everything right, as the child and the tools would report it.
Json good_input() {
  Json probes = Json::array();
  int call = 0;
  for (const auto& [size, n] : {std::pair{"odd", kOdd}, std::pair{"card-scaled", kCard}}) {
    for (const char* kind : {"alone", "after-staged", "planted"}) {
      probes.push_back(probe(size, n, kind, ++call));
    }
  }
  std::vector<double> samples;
  for (int s = 0; s < 30; ++s) {
    samples.push_back(0.9 + 0.001 * (s % 5));
  }
  const Json timing{{"elements", kCard},
                    {"samples", 30},
                    {"pair_samples_ms", samples},
                    {"pair_ms", 0.90},
                    {"wrong_samples", 0},
                    {"first_wrong_sample", nullptr},
                    {"guard_words_changed", 0},
                    {"samples_writing_outside", 0},
                    {"lab",
                     {{"elements", kCard},
                      {"staged_ms", 1.69},
                      {"fused_ms", 0.49},
                      {"lab_halfway_ms", 0.89},
                      {"copy_floor_ms", 0.40},
                      {"copy_vectorized_ms", 0.26},
                      {"copy_memcpy_ms", 0.25}}},
                    {"lab_times_shared", false}};
  const Json results{{"device", "NVIDIA H200"},
                     {"device_uuid", "GPU-01234567-89ab-cdef-0123-456789abcdef"},
                     {"pageable_memory_access", false},
                     {"completed", true},
                     {"error_kind", ""},
                     {"error", ""},
                     {"failed_step", ""},
                     {"kernels_found", Json::array()},
                     {"kernels", Json::array({kernel("halfway_stages_1_2", {8, 8, 8}),
                                              kernel("halfway_stages_3_4", {8, 8, 8, 8})})},
                     {"probes", probes},
                     {"timing", timing}};
  return Json{
      {"submission", "halfway.cu"},
      {"manifest_text", kGoodManifest},
      {"manifest_origin", "halfway.json"},
      {"manifest_problem", ""},
      {"manifest_missing", false},
      {"source_problems", Json::array()},
      {"compiled", true},
      {"compiler_messages", ""},
      {"image_refusal", ""},
      {"image_refusal_message", ""},
      {"child",
       {{"started", true},
        {"timed_out", false},
        {"exit_code", 0},
        {"signal", 0},
        {"wall_seconds", 5.0},
        {"output", ""},
        {"output_bytes", 0}}},
      {"results", results},
      {"last_step", "finished"},
      {"default_launch_shapes", false},
      {"sanitizer_available", true},
      {"sanitizers", Json::array({{{"tool", "memcheck"},
                                   {"clean", true},
                                   {"summary", "ERROR SUMMARY: 0 errors"},
                                   {"finished", true}},
                                  {{"tool", "racecheck"},
                                   {"clean", true},
                                   {"summary", "not run: no kernel of the submission has shared memory"},
                                   {"finished", true}}})},
      {"run_limit_seconds", 60.0},
      {"seconds", 1.25},
      {"grader_problem", ""}};
}

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

void wrong_everywhere(Json& in, const std::string& composition) {
  for (Json& p : in["results"]["probes"]) {
    const std::uint64_t n = p["elements"];
    p["output"]["mismatches"] = n;
    p["output"]["first_bad_index"] = 0;
    p["output"]["first_bad_got"] = 1.5;
    p["output"]["first_bad_expected"] = 0.75;
    if (!composition.empty()) {
      p["output"]["compositions"][composition] = n;
    }
  }
}

using Mutation = std::function<void(Json&)>;

// Every named input: one per way the report can differ (a mistake, a hint, a way of stopping, a
// stage where grading ended), and the hostile strings of grade_command_test.cpp.
std::vector<std::pair<std::string, Mutation>> variants() {
  std::vector<std::pair<std::string, Mutation>> v;
  v.emplace_back("correct", [](Json&) {});
  v.emplace_back("faster-than-the-lab", [](Json& in) { in["results"]["timing"]["pair_ms"] = 0.70; });
  v.emplace_back("impossible-time", [](Json& in) { in["results"]["timing"]["pair_ms"] = 0.40; });
  v.emplace_back("slow", [](Json& in) { in["results"]["timing"]["pair_ms"] = 1.5; });
  v.emplace_back("lab-times-shared", [](Json& in) { in["results"]["timing"]["lab_times_shared"] = true; });
  v.emplace_back("default-launch-shapes", [](Json& in) { in["default_launch_shapes"] = true; });
  v.emplace_back("local-memory-and-launch", [](Json& in) {
    in["results"]["kernels"][0]["local_bytes"] = 64;
    in["results"]["kernels"][0]["launch"] = "524288 blocks of 256 threads at n = 134217728";
    in["results"]["kernels"][1]["launch"] = "524288 blocks of 256 threads at n = 134217728";
  });
  v.emplace_back("output-unwritten", [](Json& in) {
    for (Json& p : in["results"]["probes"]) {
      const std::uint64_t n = p["elements"];
      p["output"]["unwritten"] = p["output"]["mismatches"] = p["output"]["trailing_unwritten"] = n;
      if (p["probe"] != "planted") {
        p["intermediate"]["unwritten"] = n;
      }
    }
    set_manifest(in, "bytes_per_element", 0);
  });
  v.emplace_back("tail-missed", [](Json& in) {
    for (Json& p : in["results"]["probes"]) {
      if (p["size_label"] == "odd") {
        p["output"]["unwritten"] = p["output"]["trailing_unwritten"] = p["output"]["mismatches"] = 99;
        p["output"]["first_bad_index"] = kOdd - 99;
        p["output"]["first_bad_got"] = "nan";
        p["output"]["first_bad_expected"] = 0.5;
      }
    }
  });
  v.emplace_back("nan-output", [](Json& in) {
    wrong_everywhere(in, "");
    for (Json& p : in["results"]["probes"]) {
      p["output"]["non_finite"] = 12;
    }
  });
  for (const char* c : {"gelu-twice", "skip-scale-bias", "skip-gelu", "skip-residual", "skip-clamp",
                        "clamp-before-residual", "gelu-before-scale-bias"}) {
    v.emplace_back(std::string("composition-") + c, [c](Json& in) { wrong_everywhere(in, c); });
  }
  v.emplace_back("wrong-output", [](Json& in) { wrong_everywhere(in, ""); });
  v.emplace_back("second-kernel-reads-x", [](Json& in) {
    Json& planted = probe_in(in, "card-scaled", "planted");
    planted["output"]["mismatches"] = planted["matches_chain_of_x"] = kCard;
  });
  v.emplace_back("second-kernel-ignores-intermediate",
                 [](Json& in) { probe_in(in, "odd", "planted")["output"]["mismatches"] = 1000; });
  v.emplace_back("intermediate-not-stage-2",
                 [](Json& in) { probe_in(in, "odd", "alone")["intermediate"]["mismatches"] = 10; });
  v.emplace_back("intermediate-unwritten",
                 [](Json& in) { probe_in(in, "card-scaled", "alone")["intermediate"]["unwritten"] = 7; });
  v.emplace_back("uses-staged-buffer", [](Json& in) {
    probe_in(in, "card-scaled", "after-staged")["staged_buffers_written"] = Json::array({"t1, t2 or t3"});
    probe_in(in, "odd", "alone")["staged_buffers_written"] = Json::array({"t1", "t3"});
  });
  v.emplace_back("wrong-on-later-calls",
                 [](Json& in) { probe_in(in, "odd", "after-staged")["output"]["mismatches"] = kOdd; });
  v.emplace_back("wrong-at-large-size", [](Json& in) {
    probe_in(in, "card-scaled", "alone")["output"]["mismatches"] = 5;
    probe_in(in, "card-scaled", "after-staged")["output"]["mismatches"] = 5;
  });
  v.emplace_back("depends-on-staged-chain",
                 [](Json& in) { probe_in(in, "odd", "alone")["output"]["mismatches"] = 3; });
  v.emplace_back("wrong-when-timed", [](Json& in) {
    in["results"]["timing"]["wrong_samples"] = 28;
    in["results"]["timing"]["first_wrong_sample"] = right_output(kCard);
    in["results"]["timing"]["first_wrong_sample"]["mismatches"] = 17;
  });
  v.emplace_back("write-past-n", [](Json& in) {
    probe_in(in, "odd", "alone")["guards"]["y"] = 1;
    probe_in(in, "card-scaled", "planted")["guards"]["intermediate"] = 4;
  });
  v.emplace_back("write-past-n-while-timed",
                 [](Json& in) { in["results"]["timing"]["guard_words_changed"] = 3; });
  v.emplace_back("input-modified", [](Json& in) {
    probe_in(in, "odd", "alone")["input_elements_changed"] = 7;
    probe_in(in, "odd", "planted")["guards"]["residual"] = 2;
  });
  v.emplace_back("write-outside-buffers", [](Json& in) {
    probe_in(in, "odd", "after-staged")["launches_writing_outside"] = 1;
    in["results"]["timing"]["samples_writing_outside"] = 4;
  });
  v.emplace_back("sanitizer-errors", [](Json& in) {
    in["sanitizers"][0] = {
        {"tool", "memcheck"}, {"clean", false}, {"summary", "ERROR SUMMARY: 3 errors"}, {"finished", true}};
  });
  v.emplace_back("sanitizer-unfinished", [](Json& in) {
    in["sanitizers"][1] = {{"tool", "racecheck"},
                           {"clean", false},
                           {"summary", "no summary (timed out after 60 s and was killed)"},
                           {"finished", false}};
  });
  v.emplace_back("sanitizer-absent", [](Json& in) {
    in["sanitizer_available"] = false;
    in["sanitizers"] = Json::array();
  });
  v.emplace_back("cuda-error-in-a-probe", [](Json& in) {
    stop(in, "cuda-error", "cudaErrorIllegalAddress (an illegal memory access was encountered)",
         "halfway_stages_3_4 at n = 1049187 (alone)");
    in["results"]["probes"] = Json::array();
  });
  v.emplace_back("hang-in-a-probe", [](Json& in) {
    stop(in, "hang", "halfway_stages_3_4 at n = 134217728 (planted) had not finished after 2 s",
         "halfway_stages_3_4 at n = 134217728 (planted)");
    in["results"]["probes"].erase(in["results"]["probes"].size() - 1);
  });
  v.emplace_back("hang-while-timed", [](Json& in) {
    stop(in, "hang", "timing at n = 134217728: one call of the pair had not finished after 4.0 s",
         "timing at n = 134217728");
  });
  v.emplace_back("cuda-error-while-timed", [](Json& in) {
    stop(in, "cuda-error", "cudaErrorLaunchFailure (unspecified launch failure)", "timing at n = 134217728");
  });
  v.emplace_back("killed-while-timed", [](Json& in) {
    stop(in, "", "", "");
    in["results"]["failed_step"] = "";
    in["child"] = {{"started", true},      {"timed_out", true}, {"exit_code", -1},  {"signal", 9},
                   {"wall_seconds", 60.0}, {"output", ""},      {"output_bytes", 0}};
    in["last_step"] = "timing at n = 134217728";
  });
  v.emplace_back("killed-in-a-probe-no-results", [](Json& in) {
    in["results"] = nullptr;
    in["sanitizers"] = Json::array();
    in["child"] = {{"started", true},      {"timed_out", true}, {"exit_code", -1},  {"signal", 9},
                   {"wall_seconds", 60.0}, {"output", ""},      {"output_bytes", 0}};
    in["last_step"] = "halfway_stages_1_2 at n = 1049187 (alone)";
  });
  v.emplace_back("early-exit", [](Json& in) {
    in["results"]["completed"] = false;
    in["results"]["timing"] = nullptr;
    in["sanitizers"] = Json::array();
    in["child"]["wall_seconds"] = 1.0;
    in["last_step"] = "checking the output at n = 1049187 (planted)";
  });
  v.emplace_back("signal-no-results", [](Json& in) {
    in["results"] = nullptr;
    in["sanitizers"] = Json::array();
    in["child"] = {{"started", true},   {"timed_out", false},  {"exit_code", -1},
                   {"signal", 11},      {"wall_seconds", 1.0}, {"output", "grade-child: oops"},
                   {"output_bytes", 17}};
    in["last_step"] = "starting CUDA";
  });
  v.emplace_back("kernel-missing", [](Json& in) {
    stop(in, "kernel-missing",
         "the submission defines no extern \"C\" __global__ kernel named halfway_stages_3_4",
         "loading the compiled submission");
    in["results"]["kernels_found"] = Json::array({"_Z6secondPKfS0_Pfm", "halfway_stages_1_2"});
    in["results"]["kernels"][1] = {{"name", "halfway_stages_3_4"},
                                   {"found", false},
                                   {"parameter_bytes", Json::array()},
                                   {"registers", 0},
                                   {"local_bytes", 0},
                                   {"max_threads_per_block", 0},
                                   {"launch", ""}};
    in["results"]["probes"] = Json::array();
  });
  v.emplace_back("wrong-signature", [](Json& in) {
    stop(in, "wrong-signature",
         "halfway_stages_3_4 takes 3 parameters of 8, 8, 4 bytes, the contract 4 of 8 bytes",
         "loading the compiled submission");
    in["results"]["probes"] = Json::array();
  });
  v.emplace_back("launch-shape-invalid", [](Json& in) {
    stop(in, "launch-shape",
         "halfway_stages_1_2 at n = 1049187 (alone): 1024 threads per block is more than this kernel can run "
         "(768, limited by its registers): declare fewer threads per block",
         "halfway_stages_1_2 at n = 1049187 (alone)");
    in["results"]["probes"] = Json::array();
  });
  v.emplace_back("local-memory-too-large", [](Json& in) {
    stop(in, "local-memory-too-large",
         "halfway_stages_1_2 uses 8192 bytes of local memory per thread, more than the 2048 a submission may",
         "loading the compiled submission");
    in["results"]["probes"] = Json::array();
  });
  v.emplace_back("load-error", [](Json& in) {
    stop(in, "load", "the compiled submission could not be loaded: cudaErrorInvalidKernelImage",
         "loading the compiled submission");
    in["results"]["kernels"] = Json::array();
    in["results"]["probes"] = Json::array();
  });
  v.emplace_back("grader-out-of-memory", [](Json& in) {
    stop(in, "grader-out-of-memory",
         "the child's buffers for n = 134217728 did not fit in the GPU's free memory",
         "loading the compiled submission");
    in["results"]["probes"] = Json::array();
  });
  v.emplace_back("compile-error", [](Json& in) {
    in["compiled"] = false;
    in["compiler_messages"] = "halfway.cu(12): error: identifier \"undefined_thing\" is undefined";
    in["results"] = nullptr;
    in["child"] = nullptr;
    in["sanitizers"] = Json::array();
    in["last_step"] = "";
  });
  for (const auto& [refusal, message] :
       {std::pair{"image-too-large",
                  "the compiled device code is 80 MiB, more than the 64 MiB a submission may"},
        std::pair{"device-memory-too-large",
                  "the submission's global variables would take 65536 MiB of the GPU's memory"}}) {
    v.emplace_back(refusal, [refusal = std::string(refusal), message = std::string(message)](Json& in) {
      in["compiled"] = false;
      in["image_refusal"] = refusal;
      in["image_refusal_message"] = message;
      in["results"] = nullptr;
      in["child"] = nullptr;
      in["sanitizers"] = Json::array();
      in["last_step"] = "";
    });
  }
  for (const auto& [kind, message] :
       {std::pair{"include-not-allowed", "#include \"/etc/passwd\" is not allowed"},
        std::pair{"source-too-large",
                  "the source is 300000 bytes, more than the 262144 a submission may have"},
        std::pair{"source-not-text", "the source holds a NUL byte at offset 12"},
        std::pair{
            "source-is-link",
            "halfway.cu is a symbolic link, which the grader does not follow (it could name any file of "
            "the grading machine): submit the source file itself"},
        std::pair{"source-unreadable", "halfway.cu: not a regular file"}}) {
    v.emplace_back(
        std::string("refused-") + kind, [kind = std::string(kind), message = std::string(message)](Json& in) {
          in["compiled"] = false;
          in["source_problems"] = Json::array(
              {{{"line", kind == "include-not-allowed" ? 3 : 0}, {"message", message}, {"kind", kind}},
               {{"line", 5}, {"message", "#include_next is not allowed"}, {"kind", "include-not-allowed"}}});
          in["results"] = nullptr;
          in["child"] = nullptr;
          in["sanitizers"] = Json::array();
          in["last_step"] = "";
        });
  }
  v.emplace_back("grader-error", [](Json& in) {
    in["grader_problem"] = "no usable CUDA device on the grading machine (cudaErrorNoDevice)";
  });
  v.emplace_back("manifest-missing", [](Json& in) {
    in["manifest_text"] = nullptr;
    in["manifest_missing"] = true;
    in["manifest_problem"] = "none given and none beside the submission (halfway.json or manifest.json)";
  });
  v.emplace_back("manifest-unreadable", [](Json& in) {
    in["manifest_text"] = nullptr;
    in["manifest_problem"] = "halfway.json: malformed JSON at byte 3";
  });
  v.emplace_back("manifest-problems", [](Json& in) {
    in["manifest_text"] =
        R"({"student_id": "s\u0007", "bytes_per_element": "20", "launches": 4294967298, "launches": 2,)"
        R"( "predicted_ratio_vs_staged": 1e300, "byte_per_element": 3, "kernels": {"halfway_stages_1_2":)"
        R"( {"threads_per_block": 100, "elements_per_thread": 1}, "other": {"threads_per_block": 256},)"
        R"( "halfway_stages_3_4": {"threads_per_block": 256, "grid_stride": false}}, "a": 1, "b": 2})";
  });
  v.emplace_back("manifest-shapes", [](Json& in) {
    in["manifest_text"] =
        R"({"student_id": "s2", "bytes_per_element": 20, "launches": 2, "predicted_ratio_vs_staged": 1.8,)"
        R"( "predicted_ratio_vs_fused": 1.67, "kernels": {"halfway_stages_1_2": {"threads_per_block": 256,)"
        R"( "elements_per_thread": 1, "grid_stride": true}, "halfway_stages_3_4": 3}})";
  });
  for (const auto& [name, bytes] : {std::pair{"declared-36", 36.0}, std::pair{"declared-12", 12.0},
                                    std::pair{"declared-16", 16.0}, std::pair{"declared-24", 24.0}}) {
    v.emplace_back(name, [bytes = bytes](Json& in) { set_manifest(in, "bytes_per_element", bytes); });
  }
  v.emplace_back("declared-launches-4", [](Json& in) { set_manifest(in, "launches", 4); });
  v.emplace_back("predicted-launch-ratio",
                 [](Json& in) { set_manifest(in, "predicted_ratio_vs_staged", 2.0); });
  v.emplace_back("predicted-wrong", [](Json& in) { set_manifest(in, "predicted_ratio_vs_fused", 3.0); });
  v.emplace_back("prediction-missing",
                 [](Json& in) { set_manifest(in, "predicted_ratio_vs_fused", nullptr); });
  v.emplace_back("no-student-id", [](Json& in) { set_manifest(in, "student_id", nullptr); });
  v.emplace_back("not-correct-and-wrong-answer", [](Json& in) {
    probe_in(in, "odd", "alone")["guards"]["y"] = 1;
    set_manifest(in, "bytes_per_element", 36);
    set_manifest(in, "predicted_ratio_vs_fused", 2.0);
  });
  // Strings a submission controls (grade_command_test.cpp's kHostile), through every place one reaches.
  const std::vector<std::string> hostile{"<img src=x onerror=alert(1)>", "cr\rover\x1b[31mred",
                                         "gpj\xE2\x80\xAE"
                                         "exe.cu",
                                         "bad\xFF\xFE bytes", "=HYPERLINK(\"http://evil.example\")"};
  int h = 0;
  for (const std::string& text : hostile) {
    const std::string valid = Json(text).dump(-1, ' ', false, Json::error_handler_t::replace);
    const std::string as_text = Json::parse(valid).get<std::string>();
    ++h;
    v.emplace_back("hostile-" + std::to_string(h) + "-refused", [as_text](Json& in) {
      in["submission"] = "batch/" + as_text + "/halfway.cu";
      in["compiled"] = false;
      in["source_problems"] = Json::array({{{"line", 3},
                                            {"message", "#include \"" + as_text + "\" is not allowed"},
                                            {"kind", "include-not-allowed"}}});
      in["results"] = nullptr;
      in["child"] = nullptr;
      in["sanitizers"] = Json::array();
    });
    v.emplace_back("hostile-" + std::to_string(h) + "-compiler", [as_text](Json& in) {
      in["compiled"] = false;
      in["manifest_text"] = nullptr;
      in["manifest_problem"] = "batch/" + as_text + "/halfway.json: malformed JSON at byte 3";
      in["compiler_messages"] = "halfway.cu(3): error: " + as_text + "\n" + as_text;
      in["results"] = nullptr;
      in["child"] = nullptr;
      in["sanitizers"] = Json::array();
    });
    v.emplace_back("hostile-" + std::to_string(h) + "-child", [as_text](Json& in) {
      stop(in, "kernel-missing", "no kernel named " + as_text, as_text);
      in["results"]["device"] = in["results"]["device_uuid"] = as_text;
      in["results"]["kernels_found"] = Json::array({as_text, as_text + "2"});
      in["results"]["probes"] = Json::array();
      Json manifest = Json::parse(kGoodManifest);
      manifest[as_text] = 1;
      manifest["kernels"][as_text] = {{"threads_per_block", 256}};
      in["manifest_text"] = manifest.dump();
    });
    v.emplace_back("hostile-" + std::to_string(h) + "-sanitizer", [as_text](Json& in) {
      in["results"]["kernels"][0]["name"] = as_text;
      in["results"]["kernels"][0]["launch"] = as_text;
      in["sanitizers"] =
          Json::array({{{"tool", "memcheck"}, {"clean", false}, {"summary", as_text}, {"finished", true}},
                       {{"tool", "racecheck"}, {"clean", false}, {"summary", as_text}, {"finished", true}}});
      in["child"]["output"] = as_text;
    });
  }
  return v;
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

void check_reports() {
  const fs::path file = golden_folder() / "judge-reports.json";
  if (writing_golden()) {
    Json documents = Json::array();
    const Json base = good_input();
    for (const auto& [name, mutate] : variants()) {
      Json input = base;
      mutate(input);
      documents.push_back(Json{{"name", name}, {"input", input}, {"report", report_of(input)}});
    }
    fs::create_directories(golden_folder());
    std::string text = "[\n";
    for (std::size_t d = 0; d < documents.size(); ++d) {
      text += documents[d].dump() + (d + 1 < documents.size() ? ",\n" : "\n");
    }
    labrun::write_file_atomically(file, text + "]\n", true);
  }
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
  const Json& base = documents.at(0).at("input");
  REQUIRE(documents.at(0).at("name") == "correct");
  std::string lines;
  every_scenario([&](const ScenarioDigits& s) {
    lines += s.name() + " " + hash_of(report_of(scenario(base, s)).dump()) + "\n";
  });
  if (writing_golden()) {
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
