#include "base/atomic_file.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <csignal>
#include <filesystem>

#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;

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

TEST_CASE("a write that fails part way (a full disk) leaves the earlier file whole and no temporary") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path target = dir.path / "t.json";
  labrun::write_file_atomically(target, "the earlier evidence", false);
  // RLIMIT_FSIZE makes write(2) fail with EFBIG past 4 KiB, as a full disk fails it with ENOSPC;
  // SIGXFSZ is ignored so that the failure is an error return, not a signal.
  struct rlimit saved {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
  const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  const std::string big(1 << 20, 'x');
  CHECK_THROWS_WITH(labrun::write_file_atomically(target, big, true), ContainsSubstring("cannot write"));
  CHECK_THROWS(labrun::write_file_atomically(dir.path / "new.json", big, false));
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &saved) == 0);
  std::signal(SIGXFSZ, previous_handler);
  CHECK(labrun::read_file(target) == "the earlier evidence");
  CHECK_FALSE(fs::exists(dir.path / "new.json"));
  CHECK(entries(dir.path) == 1);
}
