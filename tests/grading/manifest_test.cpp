#include "grading/manifest.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>

#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;

namespace {

const std::vector<std::string> kKernels{"first", "second"};
// A worked answer as day 48's exercise declares it (the fields are the exercise's, not the parser's).
const labrun::ManifestSchema kSchema{{{"bytes_per_element", false, 1000.0},
                                      {"launches", true, 64.0},
                                      {"predicted_ratio_vs_staged", false, 100.0},
                                      {"predicted_ratio_vs_fused", false, 100.0}},
                                     kKernels};

const std::string kShapes =
    R"("kernels": {"first": {"threads_per_block": 256, "elements_per_thread": 4},
                   "second": {"threads_per_block": 512, "grid_stride": true}})";

labrun::Manifest parse(const std::string& fields) {
  return labrun::parse_manifest("{" + fields + "}", "m.json", kSchema);
}

std::string good_fields(const std::string& replace_key = "", const std::string& with = "") {
  std::vector<std::pair<std::string, std::string>> fields{{"student_id", R"("s1")"},
                                                          {"bytes_per_element", "20"},
                                                          {"launches", "2"},
                                                          {"predicted_ratio_vs_staged", "1.8"},
                                                          {"predicted_ratio_vs_fused", "1.67"}};
  std::string text;
  for (const auto& [key, value] : fields) {
    text += "\"" + key + "\": " + (key == replace_key ? with : value) + ", ";
  }
  return text + kShapes;
}

std::string only_problem(const std::string& fields) {
  const labrun::Manifest m = parse(fields);
  REQUIRE(m.problems.size() == 1);
  return m.problems.front();
}

}  // namespace

TEST_CASE("a complete manifest is read, launch shapes included") {
  const labrun::Manifest m = parse(good_fields());
  CHECK(m.problems.empty());
  CHECK(m.student_id == "s1");
  CHECK(m.answer("bytes_per_element") == 20.0);
  CHECK(m.answer("launches") == 2.0);
  CHECK(m.answer("predicted_ratio_vs_staged") == 1.8);
  CHECK(m.answer("predicted_ratio_vs_fused") == 1.67);
  REQUIRE(m.kernels.size() == 2);
  CHECK(m.kernels.at("first") == labrun::LaunchShape{256, 4, false});
  CHECK(m.kernels.at("second").grid_stride);
  CHECK(m.kernels.at("first").describe() == "256 threads per block, 4 elements per thread");
  CHECK(m.kernels.at("second").describe() == "512 threads per block, grid-stride");
}

TEST_CASE("each unusable field is named by its pointer, and the others are still read") {
  CHECK(only_problem(good_fields("bytes_per_element", R"("20")")) ==
        "/bytes_per_element: expected a number, got \"20\"");
  CHECK_THAT(only_problem(good_fields("bytes_per_element", "0")),
             ContainsSubstring("/bytes_per_element: expected a number greater than 0"));
  CHECK_THAT(only_problem(good_fields("student_id", R"("")")),
             ContainsSubstring("/student_id: expected a non-empty string"));
  CHECK_THAT(only_problem(good_fields("student_id", R"("a\u0007b")")), ContainsSubstring("printable"));
  CHECK(only_problem(good_fields() + R"(, "byte_per_element": 20)") == "/byte_per_element: unknown field");
  const labrun::Manifest m = parse(good_fields("launches", "1.5"));
  CHECK(m.answer("bytes_per_element") == 20.0);
  CHECK_FALSE(m.answer("launches").has_value());
}

TEST_CASE("numbers are never narrowed: out-of-range launches are refused as written") {
  CHECK(only_problem(good_fields("launches", "4294967298")) ==
        "/launches: expected a whole number from 1 to 64, got 4294967298");
  CHECK_THAT(only_problem(good_fields("launches", "2.0")), ContainsSubstring("expected a whole number"));
  CHECK_THAT(only_problem(good_fields("launches", "-2")), ContainsSubstring("expected a whole number"));
  CHECK_THAT(only_problem(good_fields("launches", "18446744073709551616")),
             ContainsSubstring("expected a whole number"));
  CHECK_THAT(only_problem(good_fields("predicted_ratio_vs_staged", "1e300")),
             ContainsSubstring("at most 100"));
}

TEST_CASE("launch shapes are range-checked") {
  const auto shape_problem = [](const std::string& shape) {
    return only_problem(
        R"("student_id": "s", "bytes_per_element": 20, "launches": 2, "predicted_ratio_vs_staged": 1.8,
                           "predicted_ratio_vs_fused": 1.67, "kernels": {"first": )" +
        shape + R"(, "second": {"threads_per_block": 256, "elements_per_thread": 1}})");
  };
  CHECK_THAT(shape_problem(R"({"threads_per_block": 100, "elements_per_thread": 1})"),
             ContainsSubstring("multiple of 32"));
  CHECK_THAT(shape_problem(R"({"threads_per_block": 2048, "elements_per_thread": 1})"),
             ContainsSubstring("from 32 to 1024"));
  CHECK_THAT(shape_problem(R"({"threads_per_block": 256})"), ContainsSubstring("exactly one of"));
  CHECK_THAT(shape_problem(R"({"threads_per_block": 256, "elements_per_thread": 1, "grid_stride": true})"),
             ContainsSubstring("exactly one of"));
  CHECK_THAT(shape_problem(R"({"threads_per_block": 256, "elements_per_thread": 65})"),
             ContainsSubstring("from 1 to 64"));
  CHECK_THAT(shape_problem(R"({"threads_per_block": 256, "grid_stride": false})"),
             ContainsSubstring("expected true"));
  CHECK_THAT(shape_problem(R"({"threads_per_block": 256, "blocks": 4, "grid_stride": true})"),
             ContainsSubstring("unknown field"));
  CHECK_THAT(
      only_problem(
          R"("student_id": "s", "bytes_per_element": 20, "launches": 2, "predicted_ratio_vs_staged": 1.8,
                             "predicted_ratio_vs_fused": 1.67, "kernels": {"first": {"threads_per_block": 256, "elements_per_thread": 1}})"),
      ContainsSubstring("/kernels/second: missing"));
}

TEST_CASE("a 2-D launch shape gives threads and elements as [x, y] pairs") {
  const labrun::Manifest m = labrun::parse_manifest(
      R"({"student_id": "s", "kernels": {"k": {"threads_per_block": [32, 8], "elements_per_thread": [1, 4]}}})",
      "m.json", {{}, {"k"}});
  REQUIRE(m.problems.empty());
  const labrun::LaunchShape& shape = m.kernels.at("k");
  CHECK(shape.two_d);
  CHECK(shape.block_threads() == 256);
  CHECK(shape.elements_y == 4);
  CHECK(shape.describe() == "32 x 8 threads per block, 1 x 4 elements per thread");
  const auto problem_of = [](const std::string& shape_text) {
    const labrun::Manifest bad = labrun::parse_manifest(
        R"({"student_id": "s", "kernels": {"k": )" + shape_text + "}}", "m.json", {{}, {"k"}});
    REQUIRE(bad.problems.size() == 1);
    CHECK(bad.kernels.empty());
    return bad.problems.front();
  };
  CHECK_THAT(problem_of(R"({"threads_per_block": [20, 3], "elements_per_thread": [1, 1]})"),
             ContainsSubstring("multiple of 32"));
  CHECK_THAT(problem_of(R"({"threads_per_block": [64, 32], "elements_per_thread": [1, 1]})"),
             ContainsSubstring("from 32 to 1024"));
  CHECK_THAT(problem_of(R"({"threads_per_block": [32, 8]})"),
             ContainsSubstring("elements_per_thread: missing"));
  CHECK_THAT(problem_of(R"({"threads_per_block": [32, 8], "elements_per_thread": [1, 1, 1]})"),
             ContainsSubstring("expected [x, y]"));
  CHECK_THAT(problem_of(R"({"threads_per_block": [32, 8], "elements_per_thread": [16, 8]})"),
             ContainsSubstring("at most 64"));
  CHECK_THAT(problem_of(R"({"threads_per_block": [32, 8], "grid_stride": true})"),
             ContainsSubstring("2-D shape"));
}

TEST_CASE("a manifest that is not one JSON object is refused whole, with ManifestError only") {
  const auto error_of = [](const std::string& text) -> std::string {
    try {
      static_cast<void>(labrun::parse_manifest(text, "m.json"));
    } catch (const labrun::ManifestError& error) {
      return error.what();
    }
    return "no error";
  };
  CHECK_THAT(error_of("{\"student_id\": "), ContainsSubstring("m.json: malformed JSON at byte"));
  CHECK(error_of("[1]") == "m.json: expected a JSON object");
  CHECK_THAT(error_of(R"({"bytes_per_element": 1e400})"), ContainsSubstring("too large for a double"));
  CHECK_THAT(error_of("{\"student_id\": \"\xff\"}"), ContainsSubstring("malformed JSON"));
  CHECK_THAT(error_of(std::string(std::size_t{70} * 1024, ' ')), ContainsSubstring("more than the"));
  CHECK_THROWS_AS(labrun::read_manifest("/nonexistent/manifest.json"), labrun::ManifestError);
  CHECK_THROWS_AS(labrun::read_manifest("/dev/zero"), labrun::ManifestError);
}

TEST_CASE("the skeleton's and the corpus's manifests are read") {
  const std::filesystem::path root = std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path();
  const std::filesystem::path skeleton =
      root / "labs" / "day48-fusion" / "grading" / "skeleton" / "halfway.cu";
  REQUIRE(labrun::manifest_beside(skeleton).filename() == "halfway.json");
  // The skeleton leaves the worked answer to the student: its zeros are problems, its shapes are not.
  const labrun::ManifestSchema day48{kSchema.answers, {"halfway_stages_1_2", "halfway_stages_3_4"}};
  const labrun::Manifest blank = labrun::read_manifest(labrun::manifest_beside(skeleton), day48);
  CHECK(blank.kernels.size() == 2);
  CHECK_FALSE(blank.answer("bytes_per_element").has_value());
  int manifests = 0;
  for (const auto& entry : std::filesystem::directory_iterator(labrun::testing::grading_corpus())) {
    const auto beside = labrun::manifest_beside(entry.path() / "halfway.cu");
    REQUIRE_FALSE(beside.empty());
    INFO(entry.path().filename().string());
    try {
      const labrun::Manifest m = labrun::read_manifest(beside, day48);
      // Each names itself, but the one whose id is what it tests (a formula to a spreadsheet).
      const std::string name = entry.path().filename().string();
      CHECK(m.student_id == (name == "student-id-nan" ? std::string("-nan(1)") : name));
    } catch (const labrun::ManifestError&) {
      CHECK(entry.path().filename().string() == "manifest-number-overflow");
    }
    ++manifests;
  }
  CHECK(manifests >= 25);
}

TEST_CASE("a key given twice, at any depth, is named by its pointer, not used, and the rest is read") {
  labrun::Manifest m = parse(good_fields() + R"(, "launches": 3)");
  REQUIRE(m.problems.size() == 1);
  CHECK(m.problems.front() == "/launches: given more than once in its object; none of its values is used");
  CHECK_FALSE(m.answer("launches").has_value());
  CHECK(m.answer("bytes_per_element") == 20.0);
  CHECK(m.kernels.size() == 2);
  m = parse(R"("student_id": "s1", "bytes_per_element": 20, "launches": 2, "predicted_ratio_vs_staged": 1.8,
               "predicted_ratio_vs_fused": 1.67, "kernels": {"first": {"threads_per_block": 256,
               "elements_per_thread": 4, "threads_per_block": 1024}, "second": {"threads_per_block": 512,
               "grid_stride": true}})");
  REQUIRE(m.problems.size() == 1);
  CHECK_THAT(m.problems.front(), ContainsSubstring("/kernels/first/threads_per_block: given more than once"));
  CHECK(m.kernels.count("first") == 0);
  CHECK(m.kernels.count("second") == 1);
  m = parse(good_fields() + R"(, "student_id": "someone else")");
  REQUIRE(m.problems.size() == 1);
  CHECK(m.student_id.empty());
}

TEST_CASE("a student id is 1 to 128 characters, none of them a control, format or invisible one") {
  const std::string e_acute = "\xC3\xA9";  // 2 bytes, 1 character
  std::string long_id;
  for (int i = 0; i < 128; ++i) {
    long_id += e_acute;
  }
  CHECK(parse(good_fields("student_id", "\"" + long_id + "\"")).student_id == long_id);
  CHECK_THAT(only_problem(good_fields("student_id", "\"" + long_id + e_acute + "\"")),
             ContainsSubstring("got 129 characters"));
  for (const std::string hidden : {"\\u202e", "\\u2066", "\\u200b", "\\u00ad", "\\u061c", "\\ufeff",
                                   "\\u0085", "\\u009b", "\\u001b", "\\ufff9", "\\udb40\\udc01", "\\u2028"}) {
    INFO(hidden);
    const std::string problem = only_problem(good_fields("student_id", "\"ab" + hidden + "c\""));
    CHECK_THAT(problem, ContainsSubstring("printable"));
    CHECK_THAT(problem, ContainsSubstring("character 3 is U+"));
  }
  CHECK(parse(good_fields("student_id", R"("Zo\u00eb O'Brien-\u5f20")")).problems.empty());
}

TEST_CASE("a long or strange key is shown cut, as one token of its pointer") {
  const labrun::Manifest m = parse(good_fields() + ", \"" + std::string(5000, 'k') + "/~\": 1");
  REQUIRE(m.problems.size() == 1);
  CHECK(m.problems.front().size() < 200);
  CHECK_THAT(m.problems.front(), ContainsSubstring("...: unknown field"));
  CHECK(only_problem(good_fields() + R"(, "a/b~": 1)") == "/a~1b~0: unknown field");
}

TEST_CASE(
    "the worked answer's fields are the exercise's: another's are unknown, and it may name its exercise") {
  const labrun::ManifestSchema sum{{{"bytes_per_element", false, 1000.0},
                                    {"launches", true, 64.0},
                                    {"predicted_ratio_vs_two_kernels", false, 100.0}},
                                   {"first", "second"}};
  const labrun::Manifest m = labrun::parse_manifest(
      R"({"student_id": "s", "exercise": "sum-of-squares", "bytes_per_element": 4, "launches": 2,
          "predicted_ratio_vs_two_kernels": 3, "predicted_ratio_vs_staged": 1.8, )" +
          kShapes + "}",
      "m.json", sum);
  CHECK(m.exercise == "sum-of-squares");
  CHECK(m.answer("predicted_ratio_vs_two_kernels") == 3.0);
  REQUIRE(m.problems.size() == 1);
  CHECK(m.problems.front() == "/predicted_ratio_vs_staged: unknown field");
  const labrun::Manifest hidden =
      labrun::parse_manifest(R"({"student_id": "s", "exercise": "a\u202eb"})", "m.json", sum);
  const auto exercise_problem =
      std::find_if(hidden.problems.begin(), hidden.problems.end(),
                   [](const std::string& p) { return p.rfind("/exercise: ", 0) == 0; });
  REQUIRE(exercise_problem != hidden.problems.end());
  CHECK_THAT(*exercise_problem, ContainsSubstring("character 2 is U+202E"));
  CHECK(hidden.exercise.empty());
}

TEST_CASE("a manifest's hint at its exercise is read without its schema, and never throws") {
  const std::filesystem::path root = std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path();
  const labrun::ManifestHint hint = labrun::read_manifest_hint(root / "labs" / "fusion-verdicts" / "grading" /
                                                               "skeleton" / "sum_of_squares.json");
  CHECK(hint.exercise == "sum-of-squares");
  CHECK(hint.kernels == std::vector<std::string>{"sum_of_squares_partials", "sum_of_squares_finish"});
  CHECK(labrun::read_manifest_hint(root / "labs" / "day48-fusion" / "grading" / "skeleton" / "halfway.json")
            .exercise.empty());
  CHECK(labrun::read_manifest_hint("/nonexistent.json").kernels.empty());
  CHECK(labrun::read_manifest_hint("/dev/zero").exercise.empty());
}
