#pragma once
// What the preprocessor itself opened for a submission, against what it may open. The compiler
// runs in a sandbox in which only allowed files exist (process/sandbox.hpp); this is the second
// look, and the one that names what happened: nvcc's own dependency list (`nvcc -M`, or `-MD`
// beside the compile), which sees every file opened however its name was made (a macro, a line
// splice, an include computed inside an allowed header), not the text as labrun reads it.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace labrun {

//! The prerequisites of a make rule as `nvcc -M` writes one ("target : dep dep \<newline> dep"):
//! a backslash-newline continues the line, "\ " is a space in a name, "$$" is "$", "\#" is "#".
//! nullopt when the text holds no rule.
[[nodiscard]] std::optional<std::vector<std::string>> make_rule_prerequisites(const std::string& text);

//! The files a submission's preprocessing may open: `files` (the submission itself, the lab's
//! headers it may include), any file under one of `trees` (CUDA's include folder), and the host
//! compiler's and C library's headers (under /usr/include, and the include folders of
//! /usr/lib/gcc/<target>/<version>/).
struct AllowedIncludes {
  std::vector<std::filesystem::path> files;
  std::vector<std::filesystem::path> trees;
};

//! The files of `opened` (as the dependency list names them; a relative name is relative to
//! `working_directory`) that lie outside `allowed`, each as the path it resolves to, in order.
[[nodiscard]] std::vector<std::filesystem::path> files_not_allowed(
    const std::vector<std::string>& opened, const std::filesystem::path& working_directory,
    const AllowedIncludes& allowed);

//! The files a preprocessor or compiler says it could not open, from its output: GCC's
//! "fatal error: PATH: No such file or directory" and EDG's `cannot open source file "PATH"`. A
//! file outside the sandbox does not exist inside it, so a submission that reaches for one (through
//! a macro the text check cannot follow) stops the preprocessor there, and this names what it
//! reached for.
[[nodiscard]] std::vector<std::string> files_not_found(const std::string& compiler_output);

//! The 1-based line of `source` whose #include names `file` by its last path component, or 0 when
//! none does (the file was reached through a header the submission includes).
[[nodiscard]] int line_including(const std::string& source, const std::filesystem::path& file);

}  // namespace labrun
