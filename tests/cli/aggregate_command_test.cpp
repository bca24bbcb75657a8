#include "cli/aggregate_command.hpp"

#include <sys/mount.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <cstring>
#include <filesystem>

#include "cli/exit_codes.hpp"
#include "process/process.hpp"
#include "support/child_labrun.hpp"
#include "support/cli_run.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

// The lesson's two T4 transcriptions: small, and enough for a whole aggregate (JSON, CSV, Markdown,
// two plots).
std::vector<std::string> t4_transcriptions() {
  const fs::path folder = labrun::testing::evidence_folder() / "day48-fusion" / "tesla-t4-lesson";
  return {(folder / "cuda-12.6-original.json").string(), (folder / "cuda-13.0-reverification.json").string()};
}

std::vector<std::string> files_in(const fs::path& dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  return names;
}

// A tmpfs of `bytes` mounted at `dir` while it lives (root only).
class SmallFilesystem {
 public:
  SmallFilesystem(const fs::path& dir, std::size_t bytes) : dir_(dir) {
    const std::string options = "size=" + std::to_string(bytes);
    mounted_ = ::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) == 0;
    error_ = mounted_ ? "" : std::strerror(errno);
  }
  ~SmallFilesystem() {
    if (mounted_) {
      ::umount2(dir_.c_str(), MNT_DETACH);
    }
  }
  SmallFilesystem(const SmallFilesystem&) = delete;
  SmallFilesystem& operator=(const SmallFilesystem&) = delete;
  [[nodiscard]] bool mounted() const { return mounted_; }
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  fs::path dir_;
  bool mounted_ = false;
  std::string error_;
};

}  // namespace

TEST_CASE("aggregate refuses an earlier aggregate's output before it reads any input") {
  const labrun::testing::TemporaryDirectory dir;
  // A file of an earlier aggregate, of another lab than this one would write: still refused.
  labrun::write_file_atomically(dir.path / "aggregate.fusion-verdicts.csv", "card\r\n", false);
  const fs::path unreadable = dir.path / "not-there.json";
  const labrun::testing::CliOutcome refused =
      labrun::testing::run_labrun({"aggregate", unreadable.string(), "--out", dir.path.string()});
  CHECK(refused.status == labrun::exit_code::kFileExists);
  CHECK_THAT(refused.err,
             ContainsSubstring((dir.path / "aggregate.fusion-verdicts.csv").string() + " exists"));
  CHECK(refused.err.find("left out") == std::string::npos);  // the input was never read
  CHECK(refused.err.find("reading") == std::string::npos);
  // Files that are no aggregate's output do not count.
  const labrun::testing::TemporaryDirectory other;
  labrun::write_file_atomically(other.path / "notes.md", "mine\n", false);
  labrun::write_file_atomically(other.path / "aggregate.json.tmp-AbC123", "{", false);
  CHECK_FALSE(labrun::existing_aggregate_output(other.path).has_value());
  CHECK(labrun::existing_aggregate_output(dir.path) == dir.path / "aggregate.fusion-verdicts.csv");
}

TEST_CASE(
    "aggregate under a file-size limit exits 1 naming the file, leaving nothing, and the next run is free") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path out = dir.path / "out";
  const fs::path temporary = dir.path / "tmp";
  fs::create_directories(temporary);
  const fs::path no_scripts = dir.path / "no-renderer";  // no plots: the limit meets labrun's own writes
  std::vector<std::string> args{"aggregate"};
  for (const std::string& file : t4_transcriptions()) {
    args.push_back(file);
  }
  args.insert(args.end(), {"--out", out.string()});
  const std::vector<std::string> environment{"TMPDIR=" + temporary.string(),
                                             "LABRUN_SCRIPTS_DIR=" + no_scripts.string()};
  const labrun::ProcessResult limited = labrun::testing::run_labrun_program(args, environment, 1024);
  INFO(limited.output);
  CHECK(limited.exit_code == labrun::exit_code::kFailure);
  CHECK(limited.signal == 0);  // not killed by SIGXFSZ
  CHECK_THAT(limited.output,
             ContainsSubstring("labrun: error: cannot write " + out.string() + "/aggregate.") &&
                 ContainsSubstring(": File too large"));
  CHECK(files_in(out).empty());
  CHECK(files_in(temporary).empty());
  // Nothing was left that could block the next run.
  const labrun::ProcessResult free = labrun::testing::run_labrun_program(args, environment);
  CHECK(free.exit_code == 0);
  CHECK(fs::exists(out / "aggregate.md"));
}

TEST_CASE("aggregate on a full disk exits 1 naming the file and leaves no file of the set") {
  if (::geteuid() != 0) {
    SKIP("mounting a small tmpfs needs root, as CI has");
  }
  const labrun::testing::TemporaryDirectory dir;
  const fs::path disk = dir.path / "disk";
  fs::create_directories(disk);
  // Room for the JSON, the CSV and the Markdown, not for two plots of 200 KB: the plots were once
  // dropped there, silently, and the Markdown written without them.
  const SmallFilesystem small(disk, std::size_t{128} << 10);
  if (!small.mounted()) {
    FAIL("cannot mount a 128 KiB tmpfs at " << disk << ": " << small.error());
  }
  const fs::path scripts = dir.path / "scripts";
  labrun::testing::write_stand_in_renderer(scripts, 200 << 10);
  const fs::path out = disk / "out";
  std::vector<std::string> args{"aggregate"};
  for (const std::string& file : t4_transcriptions()) {
    args.push_back(file);
  }
  args.insert(args.end(), {"--out", out.string()});
  const labrun::ProcessResult full =
      labrun::testing::run_labrun_program(args, {"LABRUN_SCRIPTS_DIR=" + scripts.string()});
  INFO(full.output);
  CHECK(full.exit_code == labrun::exit_code::kFailure);
  CHECK_THAT(full.output, ContainsSubstring("labrun: error: cannot write " + out.string() + "/aggregate.") &&
                              ContainsSubstring("No space left on device"));
  CHECK(files_in(out).empty());
}
