#include "base/atomic_file.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <csignal>
#include <filesystem>
#include <functional>

#include "support/temporary_directory.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;

namespace {

std::size_t entries(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// Runs `body` with writes limited to 4 KiB (RLIMIT_FSIZE makes write(2) fail with EFBIG past it,
// as a full disk fails it with ENOSPC; SIGXFSZ is ignored so that the failure is an error return,
// not a signal), then lifts the limit.
void with_4_kib_file_limit(const std::function<void()>& body) {
  struct rlimit saved {};
  REQUIRE(::getrlimit(RLIMIT_FSIZE, &saved) == 0);
  const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit small = saved;
  small.rlim_cur = 4096;
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &small) == 0);
  body();
  REQUIRE(::setrlimit(RLIMIT_FSIZE, &saved) == 0);
  std::signal(SIGXFSZ, previous_handler);
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
  with_4_kib_file_limit([&] {
    const std::string big(1 << 20, 'x');
    CHECK_THROWS_WITH(labrun::write_file_atomically(target, big, true), ContainsSubstring("cannot write"));
    CHECK_THROWS(labrun::write_file_atomically(dir.path / "new.json", big, false));
  });
  CHECK(labrun::read_file(target) == "the earlier evidence");
  CHECK_FALSE(fs::exists(dir.path / "new.json"));
  CHECK(entries(dir.path) == 1);
}

TEST_CASE("a signal file written unsynced replaces the earlier one whole, and a failed write leaves it") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path target = dir.path / "timed";
  labrun::write_file_whole_unsynced(target, "first\n");
  labrun::write_file_whole_unsynced(target, "second\n");
  CHECK(labrun::read_file(target) == "second\n");
  CHECK(entries(dir.path) == 1);
  with_4_kib_file_limit([&] {
    CHECK_THROWS_WITH(labrun::write_file_whole_unsynced(target, std::string(1 << 20, 'x')),
                      ContainsSubstring("cannot write") && ContainsSubstring("timed"));
  });
  CHECK(labrun::read_file(target) == "second\n");
  CHECK(entries(dir.path) == 1);
  CHECK_THROWS_WITH(labrun::write_file_whole_unsynced(dir.path / "missing" / "may-time", "\n"),
                    ContainsSubstring("missing"));
}

TEST_CASE("a set of files is placed whole, or not at all") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path json = dir.path / "aggregate.json";
  const fs::path markdown = dir.path / "aggregate.md";
  SECTION("placed together; the temporaries are gone") {
    labrun::FileSet set;
    set.add(json, "{}\n");
    set.add(markdown, "# aggregate\n");
    CHECK(entries(dir.path) == 2);  // the two temporaries, not yet their names
    CHECK_FALSE(fs::exists(json));
    set.commit(false);
    CHECK(labrun::read_file(json) == "{}\n");
    CHECK(labrun::read_file(markdown) == "# aggregate\n");
    CHECK(entries(dir.path) == 2);
  }
  SECTION("one target that exists: none is placed, without --force") {
    labrun::write_file_atomically(markdown, "earlier", false);
    labrun::FileSet set;
    set.add(json, "{}\n");
    set.add(markdown, "# aggregate\n");
    CHECK_THROWS_AS(set.commit(false), labrun::FileExistsError);
    CHECK_FALSE(fs::exists(json));
    CHECK(labrun::read_file(markdown) == "earlier");
    CHECK(entries(dir.path) == 1);
  }
  SECTION("with --force, a target that cannot be replaced puts every earlier file back") {
    labrun::write_file_atomically(json, "the earlier JSON", false);
    fs::create_directories(markdown / "a folder in the way");
    labrun::FileSet set;
    set.add(json, "{}\n");
    set.add(markdown, "# aggregate\n");
    CHECK_THROWS_WITH(set.commit(true), ContainsSubstring(markdown.string()));
    CHECK(labrun::read_file(json) == "the earlier JSON");
    CHECK(fs::is_directory(markdown));
    CHECK(entries(dir.path) == 2);  // no temporary, no second name of the earlier file
  }
  SECTION("with --force, every earlier file is replaced and nothing else is left") {
    labrun::write_file_atomically(json, "the earlier JSON", false);
    labrun::FileSet set;
    set.add(json, "{}\n");
    set.add(markdown, "# aggregate\n");
    set.commit(true);
    CHECK(labrun::read_file(json) == "{}\n");
    CHECK(entries(dir.path) == 2);
  }
  SECTION("a set never committed leaves nothing") {
    {
      labrun::FileSet set;
      set.add(json, "{}\n");
      set.add(markdown, "# aggregate\n");
    }
    CHECK(fs::is_empty(dir.path));
  }
  SECTION("a file that cannot be written fails the set, naming it") {
    with_4_kib_file_limit([&] {
      labrun::FileSet set;
      set.add(json, "{}\n");
      CHECK_THROWS_AS(set.add(markdown, std::string(1 << 16, 'x')), labrun::WriteError);
      CHECK_THROWS_WITH(
          set.add(dir.path / "other.md", std::string(1 << 16, 'x')),
          ContainsSubstring("cannot write " + (dir.path / "other.md").string() + ": File too large"));
    });
    CHECK(fs::is_empty(dir.path));
  }
  SECTION("a target added twice is refused") {
    labrun::FileSet set;
    set.add(json, "{}\n");
    CHECK_THROWS_AS(set.add(json, "{}\n"), std::invalid_argument);
  }
}
