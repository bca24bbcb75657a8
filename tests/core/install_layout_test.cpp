#include "core/install_layout.hpp"

#include <stdlib.h>  // setenv, unsetenv

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <fstream>

#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;
using labrun::testing::TemporaryDirectory;

namespace {

void touch(const fs::path& file) {
  fs::create_directories(file.parent_path());
  std::ofstream(file) << "x";
}

// Unsets LABRUN_DATA_DIR for one scope, then restores it.
class WithoutDataDirectory {
 public:
  WithoutDataDirectory() {
    if (const char* value = std::getenv("LABRUN_DATA_DIR")) {
      old_ = value;
    }
    ::unsetenv("LABRUN_DATA_DIR");
  }
  ~WithoutDataDirectory() {
    if (!old_.empty()) {
      ::setenv("LABRUN_DATA_DIR", old_.c_str(), 1);
    }
  }
  WithoutDataDirectory(const WithoutDataDirectory&) = delete;
  WithoutDataDirectory& operator=(const WithoutDataDirectory&) = delete;

 private:
  std::string old_;
};

}  // namespace

TEST_CASE("data files are found beside an installed labrun, never through the build tree") {
  const WithoutDataDirectory clean;
  TemporaryDirectory prefix;
  const fs::path labrun = prefix.path / "bin" / "labrun";
  touch(labrun);
  touch(prefix.path / "share/labrun/schema/transcript-1.4.0.schema.json");
  CHECK(labrun::find_data_file("schema/transcript-1.4.0.schema.json", labrun) ==
        prefix.path / "share/labrun/schema/transcript-1.4.0.schema.json");
  CHECK_THROWS_WITH(labrun::find_data_file("scripts/draw_plots.py", labrun),
                    ContainsSubstring("scripts/draw_plots.py") &&
                        ContainsSubstring((prefix.path / "share/labrun/scripts/draw_plots.py").string()) &&
                        ContainsSubstring("LABRUN_DATA_DIR"));
}

TEST_CASE("in a build tree, labrun and the tests find the staged data files") {
  const WithoutDataDirectory clean;
  TemporaryDirectory build;
  touch(build.path / "share/labrun/scripts/draw_plots.py");
  const fs::path expected = build.path / "share/labrun/scripts/draw_plots.py";
  CHECK(labrun::find_data_file("scripts/draw_plots.py", build.path / "labrun") == expected);
  CHECK(labrun::find_data_file("scripts/draw_plots.py", build.path / "tests" / "labrun_host_tests") ==
        expected);
}

TEST_CASE("LABRUN_DATA_DIR names the data folder instead") {
  TemporaryDirectory data;
  touch(data.path / "labs/day48-fusion/stages.cuh");
  ::setenv("LABRUN_DATA_DIR", data.path.c_str(), 1);
  CHECK(labrun::data_folders("/anywhere/bin/labrun") == std::vector<fs::path>{data.path});
  CHECK(labrun::find_data_file("labs/day48-fusion", "/anywhere/bin/labrun") ==
        data.path / "labs/day48-fusion");
  ::unsetenv("LABRUN_DATA_DIR");
}

TEST_CASE("helper programs are found beside labrun in a build tree and in libexec when installed") {
  TemporaryDirectory tree;
  touch(tree.path / "build/labrun-grade-child");
  CHECK(labrun::find_helper_program("labrun-grade-child", tree.path / "build/labrun") ==
        tree.path / "build/labrun-grade-child");
  touch(tree.path / "prefix/libexec/labrun/labrun-grade-child");
  CHECK(labrun::find_helper_program("labrun-grade-child", tree.path / "prefix/bin/labrun") ==
        tree.path / "prefix/libexec/labrun/labrun-grade-child");
  CHECK_THROWS_WITH(labrun::find_helper_program("no-such-helper", tree.path / "prefix/bin/labrun"),
                    ContainsSubstring("no-such-helper"));
}

TEST_CASE("this test program finds the data files its build staged") {
  const WithoutDataDirectory clean;
  CHECK(labrun::running_executable().filename() == "labrun_host_tests");
  CHECK(fs::is_regular_file(labrun::find_data_file("scripts/draw_plots.py")));
  CHECK(fs::is_regular_file(labrun::find_data_file("labs/day48-fusion/stages.cuh")));
}
