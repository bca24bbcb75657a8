#include "process/sandbox.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>

#include "base/atomic_file.hpp"
#include "process/process.hpp"
#include "support/require_sandbox.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

using labrun::testing::require_sandbox;

namespace {

fs::path sandbox_test_folder() {
  std::string pattern = (fs::temp_directory_path() / "labrun-sandbox-test-XXXXXX").string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  return pattern;
}

bool has_pair(const std::vector<std::string>& argv, const std::string& first, const std::string& second) {
  for (std::size_t i = 0; i + 1 < argv.size(); ++i) {
    if (argv[i] == first && argv[i + 1] == second) {
      return true;
    }
  }
  return false;
}

// Runs `sh -c script` in a sandbox whose only extra view is `writable`.
labrun::ProcessResult in_sandbox(const std::string& script, const fs::path& writable,
                                 const std::vector<fs::path>& read_only = {}) {
  labrun::SpawnOptions options;
  options.argv = labrun::sandbox_command(labrun::sandbox_program(), labrun::SandboxView{read_only, writable},
                                         {"PATH=/usr/bin:/bin"}, {"/bin/sh", "-c", script});
  options.limit_seconds = 30.0;
  return labrun::run_contained(options);
}

}  // namespace

TEST_CASE(
    "the sandbox's command line takes every namespace, drops every capability and binds trees at their real "
    "paths") {
  const fs::path folder = sandbox_test_folder();
  fs::create_directories(folder / "real" / "tree");
  fs::create_directory_symlink(folder / "real", folder / "named");
  const std::vector<std::string> argv = labrun::sandbox_command(
      "/usr/bin/bwrap", labrun::SandboxView{{folder / "named" / "tree"}, folder / "out"}, {"A=1", "B=x=y"},
      {"/usr/bin/true", "--flag"});
  CHECK(argv.front() == "/usr/bin/bwrap");
  for (const char* option :
       {"--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--clearenv"}) {
    INFO(option);
    CHECK(std::find(argv.begin(), argv.end(), std::string(option)) != argv.end());
  }
  CHECK(has_pair(argv, "--cap-drop", "ALL"));
  CHECK(has_pair(argv, "--uid", "65534"));
  CHECK(has_pair(argv, "--ro-bind", "/usr"));
  CHECK(has_pair(argv, "--tmpfs", "/usr/local"));
  CHECK(has_pair(argv, "--dev-bind", "/dev/null"));
  CHECK(std::find(argv.begin(), argv.end(), std::string("--proc")) == argv.end());
  CHECK(std::find(argv.begin(), argv.end(), std::string("--dev")) == argv.end());
  const std::string real = fs::canonical(folder / "real" / "tree").string();
  CHECK(has_pair(argv, real, real));
  // The link is made again inside, pointing at where it resolves to.
  CHECK(has_pair(argv, fs::canonical(folder / "real").string(), (folder / "named").string()));
  CHECK(has_pair(argv, "--setenv", "B"));
  CHECK(has_pair(argv, "B", "x=y"));
  CHECK(argv[argv.size() - 3] == "--");
  CHECK(argv.back() == "--flag");
  fs::remove_all(folder);
}

TEST_CASE("a sandbox that cannot start says what to install or enable") {
  const labrun::SandboxAvailability none = labrun::check_sandbox("");
  CHECK_FALSE(none.usable);
  CHECK_THAT(none.problem, ContainsSubstring("apt-get install bubblewrap"));
  const labrun::SandboxAvailability broken = labrun::check_sandbox("/bin/false");
  CHECK_FALSE(broken.usable);
  CHECK_THAT(broken.problem, ContainsSubstring("user namespaces"));
  CHECK(labrun::sandbox_failure("x\nbwrap: Can't mount proc: Permission denied\n") ==
        "bwrap: Can't mount proc: Permission denied");
  CHECK_FALSE(labrun::sandbox_failure("submission.cu(3): error: bwrap: is not a type").has_value());
}

TEST_CASE("inside the sandbox only the view exists, read-only but for its one folder") {
  require_sandbox();
  const fs::path folder = sandbox_test_folder();
  const fs::path outside = sandbox_test_folder();
  labrun::write_file_atomically(outside / "secret.txt", "secret\n", false);
  const fs::path writable = folder / "out";
  fs::create_directories(writable);
  // The system's programs run; the writable folder takes a file.
  CHECK(in_sandbox("echo made > " + (writable / "made.txt").string(), writable).succeeded());
  CHECK(labrun::read_file(writable / "made.txt") == "made\n");
  // Nothing outside the view: another folder of /tmp, the machine's /etc, home folders.
  for (const std::string& path : {(outside / "secret.txt").string(), std::string("/etc/passwd"),
                                  std::string("/root"), std::string("/home")}) {
    INFO(path);
    CHECK_FALSE(in_sandbox("test -e '" + path + "'", writable).succeeded());
  }
  // /usr is read-only, /usr/local is an empty stand-in, /tmp is empty.
  CHECK_FALSE(in_sandbox("touch /usr/labrun-sandbox-probe", writable).succeeded());
  CHECK(in_sandbox("test -z \"$(ls -A /usr/local)\"", writable).succeeded());
  // No /proc (no other process, no descriptor or memory of its own to open) and no device but
  // /dev/null and /dev/tty, which cannot be opened: every file there is one that can be read to its
  // end, or fails at once.
  CHECK(in_sandbox("test ! -e /proc && echo x > /dev/null && ! cat /dev/tty", writable).succeeded());
  CHECK(in_sandbox("test -z \"$(ls -A /dev | grep -v -x -e null -e tty)\"", writable).succeeded());
  for (const char* device : {"/dev/zero", "/dev/urandom", "/dev/full", "/dev/stdin", "/proc/self/fd/0"}) {
    INFO(device);
    CHECK_FALSE(in_sandbox(std::string("test -e ") + device, writable).succeeded());
  }
  // A tree given read-only is there, and stays read-only.
  CHECK(in_sandbox("test -f '" + (outside / "secret.txt").string() + "'", writable, {outside}).succeeded());
  CHECK_FALSE(
      in_sandbox("echo x > '" + (outside / "secret.txt").string() + "'", writable, {outside}).succeeded());
  CHECK(labrun::read_file(outside / "secret.txt") == "secret\n");
  fs::remove_all(folder);
  fs::remove_all(outside);
}
