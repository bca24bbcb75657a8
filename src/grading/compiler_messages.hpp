#pragma once
// What of a compiler's output a student's report may show: its messages about the submission's own
// lines, never the lines of any other file (an allowed header's text is public, but a message
// located elsewhere is no help to the student and could carry anything).

#include <string>

namespace labrun {

//! From nvcc's combined output, keeps: messages located in `source_name` ("submission.cu(12): error:
//! ..." from the CUDA front end, "submission.cu:12:5: error: ..." from the host preprocessor) with
//! their indented continuation lines (the quoted source line and its caret), ptxas's messages, and
//! the closing "N errors detected in the compilation of ..." line. Everything else is left out and
//! counted in a last line. The result is valid UTF-8 and at most `cap` bytes (head and tail kept).
[[nodiscard]] std::string messages_about(const std::string& compiler_output, const std::string& source_name,
                                         std::size_t cap = 8000);

}  // namespace labrun
