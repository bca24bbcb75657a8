#include "profile/ncu_results.hpp"

#include "base/atomic_file.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <sstream>
#include <stdexcept>

using Catch::Matchers::ContainsSubstring;

namespace {

const char* const kHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block "
    "Size\","
    "\"Grid Size\",\"Device\",\"CC\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\"\n";

std::string row(int id, const std::string& kernel, const std::string& read, const std::string& write) {
  std::ostringstream line;
  line << '"' << id << "\",\"4242\",\"labrun\",\"127.0.0.1\",\"" << kernel
       << "\",\"1\",\"7\",\"(256, 1, 1)\",\"(4096, 1, 1)\",\"0\",\"9.0\",\"" << read << "\",\"" << write
       << "\"\n";
  return line.str();
}

const std::string kMarker = "labrun::<unnamed>::labrun_profile_marker()";

}  // namespace

TEST_CASE("the raw page's CSV is read with its units row and thousands separators") {
  const std::string csv =
      std::string("==PROF== Connected to process 4242\n") + kHeader +
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"Mbyte\",\"byte\"\n" +
      row(1, "chain_fused(const float *, const float *, float *, unsigned long)", "1.5", "67,108,864") +
      row(0, kMarker, "0", "0");
  const auto rows = labrun::parse_ncu_raw_csv(csv);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].id == 0);  // sorted by launch ID
  CHECK(rows[1].kernel_name.rfind("chain_fused(", 0) == 0);
  CHECK(rows[1].metrics.at("dram__bytes_read.sum") == 1.5);
  CHECK(rows[1].units.at("dram__bytes_read.sum") == "Mbyte");
  CHECK(rows[1].metrics.at("dram__bytes_write.sum") == 67108864.0);
}

TEST_CASE("a malformed CSV is refused with the line") {
  CHECK_THROWS_WITH(labrun::parse_ncu_raw_csv("==ERROR== nothing profiled\n"), ContainsSubstring("no CSV"));
  CHECK_THROWS_WITH(labrun::parse_ncu_raw_csv(std::string(kHeader) + "\"1\",\"2\"\n"),
                    ContainsSubstring("line 2"));
  CHECK_THROWS_WITH(labrun::parse_ncu_raw_csv("\"Kernel\",\"Value\"\n"), ContainsSubstring("ID"));
}

TEST_CASE("kernels between a case's pair of markers are its own") {
  std::string csv = kHeader;
  int id = 0;
  csv += row(id++, "fill_inputs_kernel", "0", "800");  // before the first marker: the session's set-up
  // copy-floor: one kernel.
  csv += row(id++, kMarker, "0", "0");
  csv += row(id++, "copy_floor", "400", "400");
  csv += row(id++, kMarker, "0", "0");
  csv += row(id++, "capture set-up", "5", "5");  // between pairs: belongs to no case
  // staged chain: four kernels.
  csv += row(id++, kMarker, "0", "0");
  for (int k = 0; k < 4; ++k) {
    csv += row(id++, "stage", "500", "400");
  }
  csv += row(id++, kMarker, "0", "0");
  // memcpy: no kernel at all.
  csv += row(id++, kMarker, "0", "0");
  csv += row(id++, kMarker, "0", "0");
  const std::vector<labrun::ProfileItem> items{{"lab/p/copy", "lesson", 100, 8.0},
                                               {"lab/p/staged", "lesson", 100, 36.0},
                                               {"lab/p/memcpy", "lesson", 100, 8.0}};
  std::vector<std::string> skipped;
  const auto cases = labrun::assign_rows_to_cases(labrun::parse_ncu_raw_csv(csv), items, skipped);
  REQUIRE(cases.size() == 2);
  CHECK(cases[0].name == "lab/p/copy");
  CHECK(cases[0].kernels == 1);
  CHECK(cases[0].dram_bytes_per_element() == 8.0);
  CHECK(cases[1].kernels == 4);
  CHECK(cases[1].dram_read_bytes == 2000.0);
  CHECK(cases[1].dram_write_bytes == 1600.0);
  CHECK(cases[1].dram_bytes_per_element() == 36.0);
  CHECK(cases[1].model_bytes_per_element == 36.0);
  CHECK(skipped == std::vector<std::string>{"lab/p/memcpy"});

  const std::vector<labrun::ProfileItem> one_more{items[0], items[1], items[2], items[2]};
  CHECK_THROWS_WITH(labrun::assign_rows_to_cases(labrun::parse_ncu_raw_csv(csv), one_more, skipped),
                    ContainsSubstring("6 case markers; 8 were launched"));
}

TEST_CASE("a byte count in a unit that is not bytes is refused") {
  const std::string csv =
      std::string(kHeader) +
      "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte/second\",\"byte\"\n" +
      row(0, kMarker, "0", "0") + row(1, "k", "1", "1") + row(2, kMarker, "0", "0");
  std::vector<std::string> skipped;
  CHECK_THROWS_WITH(
      labrun::assign_rows_to_cases(labrun::parse_ncu_raw_csv(csv), {{"a/b/c", "x", 1, 8.0}}, skipped),
      ContainsSubstring("not a byte unit"));
}

TEST_CASE("ncu's failures are named: refused counters get the driver setting behind them") {
  const auto refused = labrun::classify_ncu_failure(
      "==PROF== Connected\n==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA "
      "GPU "
      "Performance Counters on the target device 0.\n",
      "exit status 1");
  CHECK(refused.status == "counters-refused");
  CHECK_THAT(refused.detail, ContainsSubstring("RmProfilingAdminOnly"));
  CHECK_THAT(refused.detail, ContainsSubstring("NVreg_RestrictProfilingToAdminUsers=0"));
  const auto other = labrun::classify_ncu_failure("==ERROR== The application returned an error code (3).\n",
                                                  "exit status 3");
  CHECK(other.status == "failed");
  CHECK_THAT(other.detail, ContainsSubstring("application returned an error code (3)"));
  CHECK(labrun::classify_ncu_failure("", "timed out after 900 s").detail ==
        "ncu timed out after 900 s without an ==ERROR== line");
}

TEST_CASE("a real profile of the day-48 lab on an H200 is read and split by case") {
  // Captured from `ncu --import R --csv --page raw --metrics ... --print-units base` after
  // `labrun profile day48-fusion` on the H200: 24 cases, the sixth of them (cudaMemcpy) no kernel.
  const auto rows = labrun::parse_ncu_raw_csv(
      labrun::read_file(std::filesystem::path(LABRUN_TEST_DATA_DIR) / "profile" / "h200-day48-ncu-raw.csv"));
  CHECK(rows.size() == 91);
  std::vector<labrun::ProfileItem> items;
  items.reserve(24);
  for (int i = 0; i < 24; ++i) {
    items.push_back({"lab/part/item-" + std::to_string(i), "card-scaled", 134217728, 12.0});
  }
  std::vector<std::string> skipped;
  const auto cases = labrun::assign_rows_to_cases(rows, items, skipped);
  CHECK(skipped == std::vector<std::string>{"lab/part/item-5"});
  REQUIRE(cases.size() == 23);
  CHECK(cases[9].name == "lab/part/item-10");  // the staged chain: four kernels
  CHECK(cases[9].kernels == 4);
  // The fused chain moves about its 12 B per element through DRAM at 8 x L2.
  CHECK(cases[10].kernels == 1);
  CHECK(cases[10].dram_bytes_per_element() > 11.5);
  CHECK(cases[10].dram_bytes_per_element() < 12.5);
}

TEST_CASE("a case's FP32 instructions are summed over its kernels, and left out when ncu counted none") {
  // A header with the three FP32 counts after the DRAM bytes (as `labrun profile` asks for them).
  std::string csv = std::string(kHeader);
  csv.pop_back();
  csv +=
      ",\"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum\","
      "\"smsp__sass_thread_inst_executed_op_fmul_pred_on.sum\","
      "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\"\n";
  const auto counted = [](int id, const std::string& kernel, const std::string& fadd,
                          const std::string& ffma) {
    std::string line = row(id, kernel, "400", "100");
    line.pop_back();
    return line + ",\"" + fadd + "\",\"0\",\"" + ffma + "\"\n";
  };
  int id = 0;
  csv += counted(id++, kMarker, "0", "0");
  csv += counted(id++, "sobel_magnitude", "700", "500");
  csv += counted(id++, "threshold_mask", "0", "0");
  csv += counted(id++, kMarker, "0", "0");
  const std::vector<labrun::ProfileItem> items{{"lab/p/staged", "lesson", 100, 13.0}};
  std::vector<std::string> skipped;
  const auto cases = labrun::assign_rows_to_cases(labrun::parse_ncu_raw_csv(csv), items, skipped);
  REQUIRE(cases.size() == 1);
  REQUIRE(cases[0].fp32.has_value());
  CHECK(cases[0].fp32->fadd == 700.0);
  CHECK(cases[0].fp32->ffma == 500.0);
  CHECK(cases[0].fp32->flops() == 1700.0);

  // The DRAM-only header of an older profile: no counts, never zeros.
  std::string old = kHeader;
  id = 0;
  old += row(id++, kMarker, "0", "0");
  old += row(id++, "copy_floor", "400", "400");
  old += row(id++, kMarker, "0", "0");
  const auto uncounted = labrun::assign_rows_to_cases(labrun::parse_ncu_raw_csv(old),
                                                      {{"lab/p/copy", "lesson", 100, 8.0}}, skipped);
  REQUIRE(uncounted.size() == 1);
  CHECK_FALSE(uncounted[0].fp32.has_value());
}
