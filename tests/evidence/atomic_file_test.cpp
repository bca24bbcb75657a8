#include "evidence/atomic_file.hpp"

#include <unistd.h>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;

namespace {

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("a new file is written whole and nothing temporary is left") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path target = dir.path / "t.json";
  labrun::write_file_atomically(target, "{\"a\": 1}\n", false);
  CHECK(labrun::read_file(target) == "{\"a\": 1}\n");
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("an existing file is never overwritten silently") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path target = dir.path / "t.json";
  labrun::write_file_atomically(target, "first", false);
  CHECK_THROWS_AS(labrun::write_file_atomically(target, "second", false), labrun::FileExistsError);
  CHECK(labrun::read_file(target) == "first");
  CHECK(entries(dir.path) == 1);
  labrun::write_file_atomically(target, "second", true);
  CHECK(labrun::read_file(target) == "second");
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("failures name the path") {
  const labrun::testing::TemporaryDirectory dir;
  CHECK_THROWS_WITH(labrun::write_file_atomically(dir.path / "missing" / "t.json", "x", false),
                    Catch::Matchers::ContainsSubstring("missing"));
  CHECK_THROWS_WITH(labrun::read_file(dir.path / "absent.json"),
                    Catch::Matchers::ContainsSubstring("absent.json"));
}
