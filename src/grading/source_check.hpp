#pragma once
// What a submission's source may pull in before it is compiled. A submission is device code that
// uses the lab's headers and CUDA's; nothing else on the grading machine may reach the compiler
// through it (today, `#include "/any/file"` would print that file's lines into a report). The check
// reads the source as the preprocessor will: lines spliced at a backslash, comments removed, then
// every directive looked at; anything it cannot read with certainty is refused.

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace labrun {

struct IncludePolicy {
  std::vector<std::string> quoted;    //!< exact names a submission may include as "name"
  std::vector<std::string> angled;    //!< exact names it may include as <name> (standard headers)
  std::filesystem::path angled_root;  //!< any <name> naming a file under this folder (CUDA's include/)
};

inline constexpr std::size_t kSubmissionMaxBytes = std::size_t{256} * 1024;

struct SourceProblem {
  int line = 0;  //!< 1-based line of the source where it starts; 0 for the whole file
  std::string message;
};

//! Problems that stop a submission from being compiled: an include outside the policy (or written
//! through a macro), #include_next, #import, #embed, #line, `#pragma GCC dependency`, _Pragma,
//! __has_include, the digraph %: and trigraphs, NUL bytes, a file over kSubmissionMaxBytes.
//! Empty when the source may be compiled.
[[nodiscard]] std::vector<SourceProblem> check_submission_source(const std::string& text,
                                                                 const IncludePolicy& policy);

}  // namespace labrun
