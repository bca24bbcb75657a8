#pragma once
// Where labrun finds its own files: found relative to the running executable, so that a build
// tree and an installed copy (`cmake --install`) work the same way and neither depends on the
// folder the sources were built in. docs/installing.md describes the layout.
//
//   installed:   <prefix>/bin/labrun
//                <prefix>/libexec/labrun/<helper programs>     (the grading child)
//                <prefix>/share/labrun/<data files>            (schema/, scripts/, labs/)
//   build tree:  <build>/labrun and its helper programs, <build>/share/labrun/<data files>
//                (staged there by the build), tests in <build>/tests/
//
// LABRUN_DATA_DIR, when set, names the data folder instead.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace labrun {

//! A file labrun needs was not found; what() names it and every place looked in.
class DataFileNotFound : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

//! The path of the running executable (/proc/self/exe); empty when it cannot be read.
[[nodiscard]] std::filesystem::path running_executable();

//! The data folders to look in for an executable at `executable`, in order: LABRUN_DATA_DIR when
//! set (alone), else <exe dir>/share/labrun (build tree) and <exe dir>/../share/labrun (installed;
//! also the build tree's tests/ folder).
[[nodiscard]] std::vector<std::filesystem::path> data_folders(const std::filesystem::path& executable);

//! `relative` (e.g. "schema/transcript-1.4.0.schema.json", "labs/day48-fusion") in the first data
//! folder that has it. Throws DataFileNotFound naming each place looked in.
[[nodiscard]] std::filesystem::path find_data_file(const std::filesystem::path& relative);
[[nodiscard]] std::filesystem::path find_data_file(const std::filesystem::path& relative,
                                                   const std::filesystem::path& executable);

//! A helper program labrun runs (the grading child): <exe dir>/<name> (build tree) or
//! <exe dir>/../libexec/labrun/<name> (installed), the first that exists. Throws DataFileNotFound
//! naming each place looked in.
[[nodiscard]] std::filesystem::path find_helper_program(const std::string& name);
[[nodiscard]] std::filesystem::path find_helper_program(const std::string& name,
                                                        const std::filesystem::path& executable);

}  // namespace labrun
