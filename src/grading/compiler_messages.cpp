#include "grading/compiler_messages.hpp"

#include <sstream>

#include "grading/utf8.hpp"
#include "process/output_capture.hpp"

namespace labrun {

std::string messages_about(const std::string& compiler_output, const std::string& source_name,
                           std::size_t cap) {
  std::istringstream lines(compiler_output);
  std::string line;
  std::string kept;
  std::size_t left_out = 0;
  bool keeping = false;  // whether the message the current continuation lines belong to is kept
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    const bool continuation = !line.empty() && (line.front() == ' ' || line.front() == '\t');
    if (!continuation) {
      keeping = line.rfind(source_name + "(", 0) == 0 || line.rfind(source_name + ":", 0) == 0 ||
                line.rfind("ptxas", 0) == 0 ||
                line.find("detected in the compilation of \"" + source_name + "\"") != std::string::npos;
    }
    if (keeping && !line.empty()) {
      kept += line + "\n";
    } else if (!line.empty()) {
      ++left_out;
    }
  }
  if (left_out > 0) {
    kept += '[';
    kept += std::to_string(left_out);
    kept += left_out == 1 ? " line" : " lines";
    kept += " of the compiler's output about other files left out]\n";
  }
  HeadTailBuffer bounded(cap);
  bounded.append(valid_utf8(kept));
  return valid_utf8(bounded.text());
}

}  // namespace labrun
