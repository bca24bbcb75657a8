#include "process/sandbox.hpp"

#include <algorithm>
#include <cstdlib>
#include <system_error>

#include "process/process.hpp"

namespace labrun {
namespace {

namespace fs = std::filesystem;

// The unprivileged user the programs run as inside (nobody).
constexpr const char* kSandboxUid = "65534";
// Sizes of the two scratch file systems inside: /tmp (programs are given TMPDIR in the writable
// folder, so little lands here) and the empty /usr/local over which the named trees are bound.
constexpr const char* kTmpBytes = "16777216";
constexpr const char* kUsrLocalBytes = "1048576";
constexpr double kCheckSeconds = 20.0;

bool is_within(const fs::path& path, const fs::path& folder) {
  const auto [folder_end, path_end] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return folder_end == folder.end();
}

// A path as it is inside: links followed (a missing tail kept as written), "." and ".." gone.
fs::path resolved(const fs::path& path) {
  std::error_code error;
  fs::path canonical = fs::weakly_canonical(fs::absolute(path, error), error);
  return error ? fs::absolute(path).lexically_normal() : canonical;
}

void add(std::vector<std::string>& argv, std::initializer_list<std::string> words) {
  argv.insert(argv.end(), words.begin(), words.end());
}

}  // namespace

fs::path sandbox_program() {
  if (const char* configured = std::getenv("LABRUN_BWRAP"); configured != nullptr && *configured != '\0') {
    return configured;
  }
  return find_on_path("bwrap");
}

std::vector<std::string> sandbox_command(const fs::path& bwrap, const SandboxView& view,
                                         const std::vector<std::string>& environment,
                                         const std::vector<std::string>& program) {
  std::vector<std::string> argv{bwrap.string()};
  // Namespaces: a user namespace is required (no fallback to running as the caller), every other
  // one is new too (no network, no other process, no shared memory), and the sandbox may not make
  // a user namespace of its own.
  add(argv, {"--unshare-all", "--unshare-user", "--disable-userns", "--uid", kSandboxUid, "--gid",
             kSandboxUid, "--cap-drop", "ALL", "--die-with-parent", "--new-session"});
  // The system: /usr read-only with /usr/local emptied (what is installed there is the machine's
  // own: a course's files may be among it), the merged-/usr links or folders, the dynamic
  // linker's cache and the alternatives links that /usr/bin's compilers go through.
  add(argv, {"--ro-bind", "/usr", "/usr"});
  std::error_code error;
  if (fs::is_directory("/usr/local", error)) {
    add(argv, {"--size", kUsrLocalBytes, "--tmpfs", "/usr/local"});
  }
  for (const char* top : {"/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"}) {
    if (fs::is_symlink(top, error)) {
      add(argv, {"--symlink", fs::read_symlink(top, error).string(), top});
    } else if (fs::is_directory(top, error)) {
      add(argv, {"--ro-bind", top, top});
    }
  }
  add(argv, {"--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache", "--ro-bind-try", "/etc/alternatives",
             "/etc/alternatives"});
  // No /proc and no devices but /dev/null and /dev/tty: every file a sandboxed program can open is a
  // regular file (or /dev/null) that can be read to its end, or /dev/tty, which no program of a new
  // session can open at all (it fails at once, and says so). A compiler made to open /dev/zero, a
  // pipe behind /proc/self/fd or /proc/self/mem would block or read forever before its trace of the
  // files it opens could name it (exercise/submission_build.hpp).
  add(argv, {"--dev-bind", "/dev/null", "/dev/null", "--dev-bind-try", "/dev/tty", "/dev/tty", "--size",
             kTmpBytes, "--tmpfs", "/tmp"});
  // The named trees, parents before children, each at the path it resolves to. A name reached
  // through a link outside the system view (/usr/local/cuda -> /usr/local/cuda-13.0) gets that
  // link again inside, pointing straight at where it resolves to.
  std::vector<fs::path> trees;
  for (const fs::path& tree : view.read_only) {
    trees.push_back(resolved(tree));
  }
  std::sort(trees.begin(), trees.end());
  trees.erase(std::unique(trees.begin(), trees.end()), trees.end());
  for (const fs::path& real : trees) {
    add(argv, {"--ro-bind", real.string(), real.string()});
  }
  std::vector<fs::path> links;
  for (const fs::path& tree : view.read_only) {
    fs::path prefix;
    for (const fs::path& part : fs::absolute(tree, error).lexically_normal()) {
      prefix /= part;
      if (fs::is_symlink(prefix, error)) {
        const bool visible_anyway = is_within(prefix, "/usr") && !is_within(prefix, "/usr/local");
        if (!visible_anyway && std::find(links.begin(), links.end(), prefix) == links.end()) {
          links.push_back(prefix);
          add(argv, {"--symlink", resolved(prefix).string(), prefix.string()});
        }
        break;  // what lies below a link is reached through it
      }
    }
  }
  if (!view.writable.empty()) {
    const std::string writable = resolved(view.writable).string();
    add(argv, {"--bind", writable, writable, "--chdir", writable});
  }
  argv.emplace_back("--clearenv");
  for (const std::string& variable : environment) {
    const std::size_t equals = variable.find('=');
    if (equals != std::string::npos && equals > 0) {
      add(argv, {"--setenv", variable.substr(0, equals), variable.substr(equals + 1)});
    }
  }
  argv.emplace_back("--");
  argv.insert(argv.end(), program.begin(), program.end());
  return argv;
}

std::optional<std::string> sandbox_failure(const std::string& output) {
  std::size_t start = 0;
  while (start < output.size()) {
    const std::size_t end = std::min(output.find('\n', start), output.size());
    if (output.compare(start, 7, "bwrap: ") == 0) {
      return output.substr(start, end - start);
    }
    start = end + 1;
  }
  return std::nullopt;
}

SandboxAvailability check_sandbox(const fs::path& bwrap) {
  SandboxAvailability availability;
  if (bwrap.empty()) {
    availability.problem =
        "the compiler sandbox needs bubblewrap, which is not installed: install the package bubblewrap "
        "(apt-get install bubblewrap), or set LABRUN_BWRAP to a bwrap program";
    return availability;
  }
  const fs::path true_program =
      fs::exists("/usr/bin/true") ? fs::path("/usr/bin/true") : fs::path("/bin/true");
  SpawnOptions options;
  options.argv = sandbox_command(bwrap, SandboxView{}, {"PATH=/usr/bin:/bin"}, {true_program.string()});
  options.limit_seconds = kCheckSeconds;
  const ProcessResult run = run_contained(options);
  if (!run.succeeded()) {
    const std::string said = last_output_line(run.output);
    availability.problem = "the compiler sandbox (" + bwrap.string() + ") cannot start here (" +
                           (said.empty() ? run.describe() : said) +
                           "): it needs user namespaces; enable them (sysctl user.max_user_namespaces=15000 "
                           "kernel.unprivileged_userns_clone=1, and on Ubuntu 24.04 "
                           "kernel.apparmor_restrict_unprivileged_userns=0) or grade as root";
    return availability;
  }
  availability.usable = true;
  return availability;
}

const SandboxAvailability& sandbox_availability() {
  static const SandboxAvailability availability = check_sandbox(sandbox_program());
  return availability;
}

}  // namespace labrun
