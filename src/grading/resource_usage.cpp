#include "grading/resource_usage.hpp"

#include <cctype>
#include <sstream>

namespace labrun {

namespace {

// The value of "SHARED:<digits>" in a resource line; nullopt when the line has none.
std::optional<unsigned long long> shared_bytes_in(const std::string& line) {
  const std::string key = "SHARED:";
  std::size_t at = line.find(key);
  // The key must start a token: "SHARED:" and not, say, "XSHARED:".
  while (at != std::string::npos && at > 0 && std::isspace(static_cast<unsigned char>(line[at - 1])) == 0) {
    at = line.find(key, at + 1);
  }
  if (at == std::string::npos) {
    return std::nullopt;
  }
  std::size_t digits = at + key.size();
  std::size_t end = digits;
  while (end < line.size() && std::isdigit(static_cast<unsigned char>(line[end])) != 0) {
    ++end;
  }
  if (end == digits || end - digits > 18) {
    return std::nullopt;
  }
  return std::stoull(line.substr(digits, end - digits));
}

}  // namespace

std::optional<bool> any_function_uses_shared_memory(const std::string& res_usage) {
  std::istringstream lines(res_usage);
  std::string line;
  int functions = 0;
  bool awaiting_figures = false;  // a "Function NAME:" line was read and its figures not yet
  bool any_shared = false;
  while (std::getline(lines, line)) {
    const std::size_t text = line.find_first_not_of(" \t");
    if (text != std::string::npos && line.compare(text, 9, "Function ") == 0) {
      if (awaiting_figures) {
        return std::nullopt;  // the previous function had no figures
      }
      ++functions;
      awaiting_figures = true;
      continue;
    }
    if (awaiting_figures) {
      const std::optional<unsigned long long> shared = shared_bytes_in(line);
      if (!shared) {
        return std::nullopt;
      }
      any_shared = any_shared || *shared > 0;
      awaiting_figures = false;
    }
  }
  if (functions == 0 || awaiting_figures) {
    return std::nullopt;
  }
  return any_shared;
}

}  // namespace labrun
