#include "grading/manifest.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>

using Catch::Matchers::ContainsSubstring;

namespace {

std::string error_of(const std::string& text) {
  try {
    static_cast<void>(labrun::parse_manifest(text, "m.json"));
  } catch (const labrun::ManifestError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("a complete manifest is read") {
  const labrun::Manifest m = labrun::parse_manifest(
      R"({"student_id": "s1", "bytes_per_element": 20, "launches": 2, "predicted_ratio_vs_staged": 1.8,
          "predicted_ratio_vs_fused": 1.67})",
      "m.json");
  CHECK(m.student_id == "s1");
  CHECK(m.bytes_per_element == 20.0);
  CHECK(m.launches == 2);
  CHECK(m.predicted_ratio_vs_staged == 1.8);
  CHECK(m.predicted_ratio_vs_fused == 1.67);
}

TEST_CASE("a bad manifest names the file and the field") {
  const std::string good_tail =
      R"("launches": 2, "predicted_ratio_vs_staged": 1.8, "predicted_ratio_vs_fused": 1.67)";
  CHECK(
      error_of(
          R"({"student_id": "s1", "bytes_per_element": 20, "launches": 2, "predicted_ratio_vs_staged": 1.8})") ==
      "m.json: /predicted_ratio_vs_fused: missing");
  CHECK(error_of(R"({"student_id": "s1", "bytes_per_element": "20", )" + good_tail + "}") ==
        "m.json: /bytes_per_element: expected a positive number");
  CHECK(error_of(R"({"student_id": "", "bytes_per_element": 20, )" + good_tail + "}") ==
        "m.json: /student_id: expected a non-empty string");
  CHECK(error_of(R"({"student_id": "s", "bytes_per_element": 20, "byte_per_element": 20, )" + good_tail +
                 "}") == "m.json: /byte_per_element: unknown field");
  CHECK(
      error_of(
          R"({"student_id": "s", "bytes_per_element": 20, "launches": 1.5, "predicted_ratio_vs_staged": 1.8, "predicted_ratio_vs_fused": 1.67})") ==
      "m.json: /launches: expected a positive integer");
  CHECK_THAT(error_of("{\"student_id\": "), ContainsSubstring("m.json: malformed JSON at byte"));
  CHECK(error_of("[1]") == "m.json: expected a JSON object");
  CHECK_THROWS_AS(labrun::read_manifest("/nonexistent/manifest.json"), labrun::ManifestError);
}

TEST_CASE("the worked example's and the corpus's manifests are valid") {
  const std::filesystem::path root = std::filesystem::path(LABRUN_TEST_DATA_DIR).parent_path();
  CHECK(labrun::read_manifest(root / "labs" / "day48-fusion" / "grading" / "example" / "halfway.json")
            .student_id == "example-student");
  CHECK(labrun::manifest_beside(root / "labs" / "day48-fusion" / "grading" / "example" / "halfway.cu")
            .filename() == "halfway.json");
  int manifests = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(LABRUN_TEST_DATA_DIR) /
                                                               "grading" / "corpus")) {
    const auto beside = labrun::manifest_beside(entry.path() / "halfway.cu");
    REQUIRE_FALSE(beside.empty());
    CHECK(labrun::read_manifest(beside).student_id == entry.path().filename().string());
    ++manifests;
  }
  CHECK(manifests >= 14);
}
