#include "grading/source_check.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>

namespace labrun {
namespace {

// The source after translation phases 1 and 2 as GCC performs them: a UTF-8 byte-order mark at the
// start dropped, every end of line (LF, CR LF or a lone CR) made LF, and a backslash followed by
// nothing but spaces or tabs before the end of a line removed with it (a splice); each character
// with the physical line it came from.
struct Spliced {
  std::string text;
  std::vector<int> line_of;
};

Spliced splice(const std::string& raw) {
  const std::size_t start = raw.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  std::string source;
  source.reserve(raw.size());
  for (std::size_t i = start; i < raw.size(); ++i) {
    if (raw[i] == '\r') {
      source += '\n';
      if (i + 1 < raw.size() && raw[i + 1] == '\n') {
        ++i;
      }
    } else {
      source += raw[i];
    }
  }
  Spliced spliced;
  int physical = 1;
  for (std::size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\\') {
      std::size_t after = i + 1;
      while (after < source.size() && (source[after] == ' ' || source[after] == '\t' ||
                                       source[after] == '\f' || source[after] == '\v')) {
        ++after;
      }
      if (after < source.size() && source[after] == '\n') {
        i = after;
        ++physical;
        continue;
      }
    }
    spliced.text += source[i];
    spliced.line_of.push_back(physical);
    if (source[i] == '\n') {
      ++physical;
    }
  }
  return spliced;
}

// One line as the preprocessor sees it after phase 3: comments replaced by a space (a block
// comment spanning lines joins them), literals kept, with the physical line it starts on.
struct LogicalLine {
  int line = 0;
  std::string text;
};

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Tokenises just enough to know where comments and literals are: identifiers and pp-numbers are
// consumed whole, so a digit separator (1'000) is never taken for a character literal.
std::vector<LogicalLine> logical_lines(const Spliced& spliced, std::vector<SourceProblem>& problems) {
  const std::string& s = spliced.text;
  std::vector<LogicalLine> lines;
  LogicalLine current{1, {}};
  const auto next_is = [&](std::size_t i, char c) { return i + 1 < s.size() && s[i + 1] == c; };
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n') {
      lines.push_back(current);
      current = LogicalLine{spliced.line_of[i] + 1, {}};
      ++i;
    } else if (c == '/' && next_is(i, '/')) {
      while (i < s.size() && s[i] != '\n') {
        ++i;
      }
      current.text += ' ';
    } else if (c == '/' && next_is(i, '*')) {
      const std::size_t close = s.find("*/", i + 2);
      i = close == std::string::npos ? s.size() : close + 2;
      current.text += ' ';
    } else if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != c && s[j] != '\n') {
        j += s[j] == '\\' ? 2 : 1;
      }
      j = std::min(j + 1, s.size());
      current.text += s.substr(i, j - i);
      i = j;
    } else if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
               (c == '.' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])) != 0)) {
      std::size_t j = i + 1;
      while (j < s.size()) {
        // A pp-number goes on through identifier characters, dots, a digit separator before one of
        // those, and the sign of an exponent.
        const bool digit_separator = s[j] == '\'' && j + 1 < s.size() && identifier_char(s[j + 1]);
        const bool exponent_sign =
            (s[j] == '+' || s[j] == '-') && std::string_view("eEpP").find(s[j - 1]) != std::string_view::npos;
        if (digit_separator) {
          j += 2;
        } else if (identifier_char(s[j]) || s[j] == '.' || exponent_sign) {
          ++j;
        } else {
          break;
        }
      }
      current.text += s.substr(i, j - i);
      i = j;
    } else if (identifier_char(c)) {
      std::size_t j = i + 1;
      while (j < s.size() && identifier_char(s[j])) {
        ++j;
      }
      const std::string word = s.substr(i, j - i);
      if (j < s.size() && s[j] == '"' && !word.empty() && word.back() == 'R' &&
          (word == "R" || word == "u8R" || word == "uR" || word == "UR" || word == "LR")) {
        problems.push_back({spliced.line_of[i], "raw string literals are not allowed in a submission"});
      }
      current.text += word;
      i = j;
    } else {
      current.text += c;
      ++i;
    }
  }
  lines.push_back(current);
  return lines;
}

// Every spliced line that starts, after spaces and whole block comments, with # or %:, read with no
// knowledge of the lines before it: a second view, so that no misreading of a literal or comment
// above can hide a directive.
std::vector<LogicalLine> directive_candidates(const Spliced& spliced) {
  std::vector<LogicalLine> found;
  std::size_t begin = 0;
  while (begin <= spliced.text.size()) {
    const std::size_t end = std::min(spliced.text.find('\n', begin), spliced.text.size());
    std::string line = spliced.text.substr(begin, end - begin);
    std::size_t at = 0;
    while (true) {
      while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at])) != 0) {
        ++at;
      }
      if (line.compare(at, 2, "/*") != 0) {
        break;
      }
      const std::size_t close = line.find("*/", at + 2);
      if (close == std::string::npos) {
        break;
      }
      at = close + 2;
    }
    // Text after the end of a comment that began on an earlier line is looked at as well: a false
    // alarm where the preprocessor would not see a directive there, never a miss.
    if (line.compare(at, 1, "#") != 0 && line.compare(at, 2, "%:") != 0) {
      const std::size_t comment_end = line.find("*/");
      if (comment_end != std::string::npos && comment_end < line.find('#')) {
        at = comment_end + 2;
        while (at < line.size() && std::isspace(static_cast<unsigned char>(line[at])) != 0) {
          ++at;
        }
      }
    }
    if (line.compare(at, 1, "#") == 0 || line.compare(at, 2, "%:") == 0) {
      // Comments in the rest of the line are spaces to the preprocessor; a line comment ends it.
      std::string rest;
      for (std::size_t i = at; i < line.size();) {
        if (line.compare(i, 2, "//") == 0) {
          break;
        }
        if (line.compare(i, 2, "/*") == 0) {
          const std::size_t close = line.find("*/", i + 2);
          i = close == std::string::npos ? line.size() : close + 2;
          rest += ' ';
          continue;
        }
        rest += line[i++];
      }
      found.push_back({begin < spliced.line_of.size() ? spliced.line_of[begin] : 1, rest});
    }
    if (end == spliced.text.size()) {
      break;
    }
    begin = end + 1;
  }
  return found;
}

std::size_t skip_spaces(const std::string& text, std::size_t at) {
  while (at < text.size() &&
         (text[at] == ' ' || text[at] == '\t' || text[at] == '\f' || text[at] == '\v' || text[at] == '\r')) {
    ++at;
  }
  return at;
}

bool safe_relative_name(const std::string& name) {
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos ||
      name.find('\0') != std::string::npos) {
    return false;
  }
  for (std::size_t start = 0; start <= name.size();) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    const std::string part = name.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") {
      return false;
    }
    start = end + 1;
  }
  return true;
}

bool allowed(const IncludePolicy& policy, const std::string& name, bool angled) {
  if (!safe_relative_name(name)) {
    return false;
  }
  if (!angled) {
    return std::find(policy.quoted.begin(), policy.quoted.end(), name) != policy.quoted.end();
  }
  if (std::find(policy.angled.begin(), policy.angled.end(), name) != policy.angled.end()) {
    return true;
  }
  std::error_code error;
  return std::any_of(policy.angled_roots.begin(), policy.angled_roots.end(),
                     [&](const std::filesystem::path& root) {
                       return !root.empty() && std::filesystem::is_regular_file(root / name, error);
                     });
}

std::string allowed_list(const IncludePolicy& policy) {
  std::string text;
  for (const std::string& name : policy.quoted) {
    text += (text.empty() ? "" : ", ") + ("\"" + name + "\"");
  }
  for (const std::string& name : policy.angled) {
    text += (text.empty() ? "" : ", ") + ("<" + name + ">");
  }
  if (!policy.angled_roots.empty()) {
    text += (text.empty() ? "" : ", ") + std::string("and CUDA's own headers as <name>");
  }
  return text;
}

void check_directive(const LogicalLine& line, std::size_t after_hash, const IncludePolicy& policy,
                     std::vector<SourceProblem>& problems) {
  const std::string& text = line.text;
  std::size_t at = skip_spaces(text, after_hash);
  std::size_t end = at;
  while (end < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[end])) != 0 || text[end] == '_')) {
    ++end;
  }
  const std::string directive = text.substr(at, end - at);
  if (directive == "include_next" || directive == "import" || directive == "embed") {
    problems.push_back({line.line, "#" + directive + " is not allowed in a submission; use #include of " +
                                       allowed_list(policy)});
    return;
  }
  if (directive == "line" ||
      (!directive.empty() && std::isdigit(static_cast<unsigned char>(directive[0])) != 0)) {
    problems.push_back(
        {line.line, (directive == "line" ? std::string("#line") : std::string("a line marker (# N)")) +
                        " is not allowed in a submission (the grader reports your own line numbers)"});
    return;
  }
  if (directive == "pragma") {
    std::string rest = text.substr(end);
    rest.erase(std::remove_if(rest.begin(), rest.end(),
                              [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }),
               rest.end());
    if (rest.rfind("GCCdependency", 0) == 0 || rest.rfind("GCCsystem_header", 0) == 0) {
      problems.push_back(
          {line.line, "#pragma GCC dependency and system_header are not allowed in a submission"});
    }
    return;
  }
  if (directive != "include") {
    return;
  }
  at = skip_spaces(text, end);
  const char open = at < text.size() ? text[at] : '\0';
  const char close = open == '"' ? '"' : open == '<' ? '>' : '\0';
  const std::size_t closing = close == '\0' ? std::string::npos : text.find(close, at + 1);
  if (closing == std::string::npos || skip_spaces(text, closing + 1) != text.size()) {
    problems.push_back({line.line,
                        "an #include must name its header literally, as \"name\" or <name> (not "
                        "through a macro); allowed: " +
                            allowed_list(policy)});
    return;
  }
  const std::string name = text.substr(at + 1, closing - at - 1);
  if (!allowed(policy, name, open == '<')) {
    problems.push_back({line.line, "#include " + std::string(1, open) + name + std::string(1, close) +
                                       " is not allowed: a submission may include only " +
                                       allowed_list(policy)});
  }
}

}  // namespace

std::vector<SourceProblem> check_submission_source(const std::string& text, const IncludePolicy& policy) {
  std::vector<SourceProblem> problems;
  if (text.size() > kSubmissionMaxBytes) {
    problems.push_back({0,
                        "the source is " + std::to_string(text.size()) + " bytes, more than the " +
                            std::to_string(kSubmissionMaxBytes) + " a submission may have",
                        kSourceTooLarge});
    return problems;
  }
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    problems.push_back(
        {static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n')) +
             1,
         "the source holds a NUL byte: submit a text file", kSourceNotText});
    return problems;
  }
  // Trigraphs (??= is #, ??/ is a backslash) anywhere, before anything else reads the text.
  for (std::size_t at = text.find("??"); at != std::string::npos; at = text.find("??", at + 1)) {
    if (at + 2 < text.size() && std::string_view("=/'()!<>-").find(text[at + 2]) != std::string_view::npos) {
      problems.push_back(
          {static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) +
               1,
           "trigraphs (??" + std::string(1, text[at + 2]) + ") are not allowed in a submission"});
      return problems;
    }
  }
  const Spliced spliced = splice(text);
  const auto check_line = [&](const LogicalLine& line) {
    const std::size_t start = skip_spaces(line.text, 0);
    if (line.text.compare(start, 2, "%:") == 0) {
      problems.push_back({line.line, "the digraph %: for # is not allowed in a submission; write #"});
      return;
    }
    for (const char* word : {"__has_include", "_Pragma"}) {
      if (line.text.find(word) != std::string::npos) {
        problems.push_back({line.line, std::string(word) + " is not allowed in a submission"});
      }
    }
    if (start < line.text.size() && line.text[start] == '#') {
      check_directive(line, start + 1, policy, problems);
    }
  };
  for (const LogicalLine& line : logical_lines(spliced, problems)) {
    check_line(line);
  }
  for (const LogicalLine& line : directive_candidates(spliced)) {
    check_line(line);
  }
  // Both views may name the same line: one problem per line and message.
  std::sort(problems.begin(), problems.end(), [](const SourceProblem& a, const SourceProblem& b) {
    return a.line != b.line ? a.line < b.line : a.message < b.message;
  });
  problems.erase(std::unique(problems.begin(), problems.end(),
                             [](const SourceProblem& a, const SourceProblem& b) {
                               return a.line == b.line && a.message == b.message;
                             }),
                 problems.end());
  return problems;
}

}  // namespace labrun
