#include "registry/pattern.hpp"

namespace labrun {

bool glob_match(std::string_view pattern, std::string_view text) {
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star = std::string_view::npos;  // position of the last '*' seen in pattern
  std::size_t star_text = 0;                  // text position that '*' is currently matched to
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p;
      ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++star_text;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') {
    ++p;
  }
  return p == pattern.size();
}

bool case_matches(std::string_view pattern, std::string_view lab_name, std::string_view case_name) {
  if (glob_match(pattern, case_name)) {
    return true;
  }
  if (case_name.size() > lab_name.size() + 1 && case_name.substr(0, lab_name.size()) == lab_name &&
      case_name[lab_name.size()] == '/') {
    return glob_match(pattern, case_name.substr(lab_name.size() + 1));
  }
  return false;
}

}  // namespace labrun
