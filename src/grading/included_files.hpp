#pragma once
// What the preprocessor itself opened for a submission, against what it may open. The compiler
// runs in a sandbox in which only allowed files exist (process/sandbox.hpp); this is the second
// look, and the one that names what happened: nvcc's own dependency list (`nvcc -M`, or `-MD`
// beside the compile), and the host preprocessor's own trace of the headers it opens (`-H`), which
// see every file opened however its name was made (a macro, a line splice, an include computed
// inside an allowed header), not the text as labrun reads it, and the trace does so even when the
// file then breaks the preprocessor.

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

//! A file GCC's trace of the headers it opens (-H) names, with its depth: 1 for a file the main
//! file includes itself, 2 for one that file includes, and so on.
struct TracedFile {
  std::string path;
  int depth = 0;
};

//! What a compiler's combined output says about the files it read or reached for, whether it
//! finished or not: the trace is written as each file is opened, before it is read through, so a
//! file that then breaks the preprocessor (a script, bytes that are not text), or that it is
//! stopped in, is named all the same.
struct CompilerFileRecord {
  //! GCC's -H lines (". /usr/include/stdio.h", ".. /usr/include/features.h"), in order.
  std::vector<TracedFile> opened;
  //! Files it could not open, for any reason, as it names them: GCC's "fatal error: PATH: REASON"
  //! (No such file or directory, Permission denied, No such device or address...) and EDG's
  //! `cannot open source file "PATH"`. A file outside the sandbox does not exist inside it, so a
  //! submission that reaches for one (through a macro the text check cannot follow) stops the
  //! preprocessor there, and this names what it reached for.
  std::vector<std::string> not_opened;
  //! Files its messages are located in: GCC's "PATH:LINE:COL: error: ...", "In file included from
  //! PATH:LINE" and its "from PATH:LINE" lines, and EDG's "PATH(LINE): error: ...".
  std::vector<std::string> located;
};

[[nodiscard]] CompilerFileRecord files_named_by_compiler(const std::string& compiler_output);

//! `compiler_output` without GCC's -H trace (its ". PATH" lines and the "Multiple include guards
//! may be useful for:" list after them): what is left are the compiler's messages.
[[nodiscard]] std::string without_include_trace(const std::string& compiler_output);

//! What a submission may include itself (the files at depth 1 of the trace, which its own #include
//! lines opened): the files listed (the lab's headers it may name), any file under the trees (CUDA's
//! headers), and a system header (as AllowedIncludes says) whose file name is one of
//! `system_names` (cstdint, stdint.h: the standard headers the policy names).
struct DirectIncludes {
  std::vector<std::filesystem::path> files;
  std::vector<std::filesystem::path> trees;
  std::vector<std::string> system_names;
};

//! The files of `opened` at depth 1 (a relative path is relative to `working_directory`) that
//! `allowed` does not allow, each as the path it resolves to, in order.
[[nodiscard]] std::vector<std::filesystem::path> direct_includes_not_allowed(
    const std::vector<TracedFile>& opened, const std::filesystem::path& working_directory,
    const DirectIncludes& allowed);

//! The 1-based line of `source` whose #include names `file` by its last path component, or 0 when
//! none does (the file was reached through a header the submission includes).
[[nodiscard]] int line_including(const std::string& source, const std::filesystem::path& file);

}  // namespace labrun
