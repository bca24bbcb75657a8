#pragma once
// What a submission's source may pull in before it is compiled. A submission is device code that
// uses the lab's headers and CUDA's; nothing else on the grading machine may reach the compiler
// through it. This check is the first and friendliest of three: it reads the source as GCC's
// preprocessor does for C++17 (translation phases 1 to 3: a UTF-8 byte-order mark skipped, LF, CR LF
// and a lone CR ending a line, lines spliced at a backslash, also one followed by spaces, comments
// replaced by a space, string, character and raw string literals read whole, trigraphs left alone as
// C++17 does), finds the directives (a # or %: first on a line), and names the line of anything a
// submission may not do. Comments and literals are never directives. It cannot evaluate
// conditionals, see what macros assemble, nor what an allowed header includes on the submission's
// behalf. So an include inside a conditional group (#if, #ifdef, #ifndef ... #endif), which the
// preprocessor may skip, is left to the preprocessor's own record of the files it opened, which is
// checked after it (grading/included_files.hpp): it is a refusal exactly where the preprocessor
// acts on it. The compiler runs in a sandbox in which only the allowed files exist
// (process/sandbox.hpp).

#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace labrun {

struct IncludePolicy {
  std::vector<std::string> quoted;  //!< exact names a submission may include as "name"
  std::vector<std::string> angled;  //!< exact names it may include as <name> (standard headers)
  //! Any <name> naming a file under one of these folders (CUDA's include/ and include/cccl/, where
  //! cuda/std, cub and thrust live).
  std::vector<std::filesystem::path> angled_roots;
};

//! Largest source a submission may have (bytes; docs/grading.md).
inline constexpr std::size_t kSubmissionMaxBytes = std::size_t{256} * 1024;

//! What kind of refusal a problem is; each is the named mistake the report gives.
inline constexpr const char* kIncludeNotAllowed = "include-not-allowed";
inline constexpr const char* kSourceTooLarge = "source-too-large";
inline constexpr const char* kSourceNotText = "source-not-text";
inline constexpr const char* kSourceIsLink = "source-is-link";
inline constexpr const char* kSourceUnreadable = "source-unreadable";

struct SourceProblem {
  int line = 0;  //!< 1-based line of the source where it is; 0 for the whole file
  std::string message;
  //! kIncludeNotAllowed, kSourceTooLarge, kSourceNotText; the grader adds kSourceIsLink and
  //! kSourceUnreadable (not a regular file) for a source it will not read.
  std::string kind = kIncludeNotAllowed;
};

//! Problems that stop a submission from being compiled: outside every conditional group, an include
//! outside the policy (or written through a macro), #include_next or #import; anywhere, #embed,
//! #line and GNU line markers (`# 1 "file"`), `#pragma GCC dependency` and `system_header` (also as
//! the literal of a _Pragma), a directive introduced by the digraph %:, __has_include_next, and
//! __has_include of anything but a literal name the policy allows (each of kind
//! kIncludeNotAllowed); NUL bytes (kSourceNotText); a file over kSubmissionMaxBytes
//! (kSourceTooLarge). Empty when the source may be compiled. What comments and literals (raw
//! strings included) hold is never looked at.
[[nodiscard]] std::vector<SourceProblem> check_submission_source(const std::string& text,
                                                                 const IncludePolicy& policy);

}  // namespace labrun
