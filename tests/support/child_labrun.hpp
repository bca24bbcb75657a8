#pragma once
// The labrun program run as a child process, as a user runs it, for what only a process shows: its
// signal handlers, a file-size limit set on it (RLIMIT_FSIZE), what it leaves in its temporary
// folder. And a stand-in plot renderer, so that plots are "drawn" without matplotlib.

#include <filesystem>
#include <string>
#include <vector>

#include "base/atomic_file.hpp"
#include "process/process.hpp"

namespace labrun::testing {

//! The labrun program of this build.
inline std::filesystem::path labrun_program() {
  return LABRUN_PROGRAM_PATH;
}

//! Runs `labrun ARGS...` under labrun-contain with labrun's minimal environment plus `environment`
//! ("NAME=value" each), and, when `file_size_bytes` is not 0, that RLIMIT_FSIZE.
inline ProcessResult run_labrun_program(const std::vector<std::string>& args,
                                        const std::vector<std::string>& environment,
                                        std::uint64_t file_size_bytes = 0) {
  SpawnOptions options;
  options.argv = {labrun_program().string()};
  options.argv.insert(options.argv.end(), args.begin(), args.end());
  options.environment = minimal_environment(environment);
  options.limits.file_size_bytes = file_size_bytes;
  options.limit_seconds = 120.0;
  return run_contained(options);
}

//! Writes `<scripts>/draw_plots.py`: a renderer that writes `bytes_per_plot` bytes to each plot's
//! file, for LABRUN_SCRIPTS_DIR (it needs python3, not matplotlib). Like scripts/draw_plots.py, a
//! file it cannot write is exit status 1 and "draw_plots: cannot write FILE: REASON".
inline void write_stand_in_renderer(const std::filesystem::path& scripts, std::size_t bytes_per_plot) {
  std::filesystem::create_directories(scripts);
  write_file_atomically(scripts / "draw_plots.py",
                        "import json, sys\n"
                        "for plot in json.load(open(sys.argv[1]))['plots']:\n"
                        "    try:\n"
                        "        with open(plot['file'], 'w') as out:\n"
                        "            out.write('<svg>' + 'x' * " +
                            std::to_string(bytes_per_plot) +
                            " + '</svg>')\n"
                            "    except OSError as error:\n"
                            "        print('draw_plots: cannot write %s: %s' % (plot['file'], "
                            "error.strerror), file=sys.stderr)\n"
                            "        sys.exit(1)\n",
                        true);
}

}  // namespace labrun::testing
