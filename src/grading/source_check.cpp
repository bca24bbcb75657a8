#include "grading/source_check.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <optional>
#include <string_view>
#include <utility>

namespace labrun {
namespace {

// Translation phase 1 as GCC performs it: a UTF-8 byte-order mark at the start dropped, and every
// end of line (CR LF, or a lone CR) made LF. Line splices are phase 2, which the lexer applies as
// it reads, because a raw string literal undoes them.
std::string with_line_feeds(const std::string& raw) {
  const std::size_t start = raw.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
  std::string text;
  text.reserve(raw.size());
  for (std::size_t i = start; i < raw.size(); ++i) {
    if (raw[i] == '\r') {
      text += '\n';
      if (i + 1 < raw.size() && raw[i + 1] == '\n') {
        ++i;
      }
    } else {
      text += raw[i];
    }
  }
  return text;
}

enum class TokenKind { kIdentifier, kNumber, kLiteral, kHeaderName, kPunctuator };

struct Token {
  TokenKind kind = TokenKind::kPunctuator;
  std::string text;  //!< as spelled, splices removed (a raw string as written)
  int line = 0;      //!< physical line of its first character
};

// A line as the preprocessor sees it after phase 3: its tokens, comments gone (a block comment over
// several lines joins them), literals whole.
struct LogicalLine {
  std::vector<Token> tokens;
  [[nodiscard]] bool directive() const {
    return !tokens.empty() && (tokens[0].text == "#" || tokens[0].text == "%:");
  }
  //! The directive's name ("include", "if", a number for a line marker), "" when there is none.
  [[nodiscard]] std::string directive_name() const {
    return directive() && tokens.size() > 1 && tokens[1].kind != TokenKind::kLiteral ? tokens[1].text : "";
  }
};

bool identifier_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' ||
         static_cast<unsigned char>(c) >= 0x80;  // UTF-8 of an extended identifier
}

bool horizontal_space(char c) {
  return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

// Reads phase-1 text into logical lines of preprocessing tokens: phases 2 and 3 for C++17, just far
// enough to know where comments, literals and directives are. Identifiers and pp-numbers are read
// whole, so a digit separator (1'000) is never taken for a character literal; a raw string literal
// runs to its closing delimiter over any line, with no splice inside it; an unterminated quote ends
// at the end of its line, as GCC ends it.
class Lexer {
 public:
  explicit Lexer(const std::string& text) : s_(text) {}

  std::vector<LogicalLine> lines() {
    std::vector<LogicalLine> lines;
    LogicalLine current;
    while (true) {
      at_ = skip_splices(at_, &line_);
      if (at_ >= s_.size()) {
        break;
      }
      const char c = s_[at_];
      if (c == '\n') {
        take();
        lines.push_back(std::move(current));
        current = LogicalLine{};
      } else if (horizontal_space(c) || c == '\r') {
        take();
      } else if (c == '/' && peek(1) == '/') {
        while (!done() && peek(0) != '\n') {
          take();
        }
      } else if (c == '/' && peek(1) == '*') {
        take();
        take();
        while (!done() && !(peek(0) == '*' && peek(1) == '/')) {
          take();
        }
        if (!done()) {
          take();
          take();
        }
      } else {
        current.tokens.push_back(token(current));
      }
    }
    lines.push_back(std::move(current));
    return lines;
  }

 private:
  // The first position at or after `at` that is not the start of a splice (a backslash, then only
  // spaces or tabs, then the end of the line); counts the lines skipped.
  [[nodiscard]] std::size_t skip_splices(std::size_t at, int* lines) const {
    while (at < s_.size() && s_[at] == '\\') {
      std::size_t after = at + 1;
      while (after < s_.size() && horizontal_space(s_[after])) {
        ++after;
      }
      if (after >= s_.size() || s_[after] != '\n') {
        break;
      }
      at = after + 1;
      if (lines != nullptr) {
        ++*lines;
      }
    }
    return at;
  }
  bool done() {
    at_ = skip_splices(at_, &line_);
    return at_ >= s_.size();
  }
  // The character `ahead` places on, splices skipped; '\0' past the end.
  [[nodiscard]] char peek(std::size_t ahead) const {
    std::size_t at = skip_splices(at_, nullptr);
    for (std::size_t k = 0; k < ahead && at < s_.size(); ++k) {
      at = skip_splices(at + 1, nullptr);
    }
    return at < s_.size() ? s_[at] : '\0';
  }
  char take() {
    at_ = skip_splices(at_, &line_);
    const char c = s_[at_++];
    if (c == '\n') {
      ++line_;
    }
    return c;
  }

  Token token(const LogicalLine& current) {
    Token t;
    t.line = line_;
    const char c = s_[at_];
    const bool after_include =
        current.tokens.size() == 2 && current.directive() &&
        (current.tokens[1].text == "include" || current.tokens[1].text == "include_next" ||
         current.tokens[1].text == "import" || current.tokens[1].text == "embed");
    const bool in_has_include = current.tokens.size() >= 2 && current.tokens.back().text == "(" &&
                                (current.tokens[current.tokens.size() - 2].text == "__has_include" ||
                                 current.tokens[current.tokens.size() - 2].text == "__has_include_next");
    if (c == '<' && (after_include || in_has_include)) {
      t.kind = TokenKind::kHeaderName;
      while (!done() && peek(0) != '\n') {
        const char h = take();
        t.text += h;
        if (h == '>') {
          break;
        }
      }
    } else if (c == '"' || c == '\'') {
      t.kind = TokenKind::kLiteral;
      t.text = quoted();
    } else if (std::isdigit(static_cast<unsigned char>(c)) != 0 ||
               (c == '.' && std::isdigit(static_cast<unsigned char>(peek(1))) != 0)) {
      t.kind = TokenKind::kNumber;
      t.text = number();
    } else if (identifier_char(c)) {
      t.kind = TokenKind::kIdentifier;
      while (!done() && identifier_char(peek(0))) {
        t.text += take();
      }
      const char next = done() ? '\0' : peek(0);
      const bool raw_prefix =
          t.text == "R" || t.text == "u8R" || t.text == "uR" || t.text == "UR" || t.text == "LR";
      const bool prefix = t.text == "u8" || t.text == "u" || t.text == "U" || t.text == "L";
      if (raw_prefix && next == '"') {
        if (std::optional<std::string> raw = raw_string()) {
          t.kind = TokenKind::kLiteral;
          t.text += *raw;
        }
      } else if (prefix && (next == '"' || next == '\'')) {
        t.kind = TokenKind::kLiteral;
        t.text += quoted();
      }
    } else {
      t.kind = TokenKind::kPunctuator;
      t.text = std::string(1, take());
      if ((c == '#' && peek(0) == '#') || (c == '%' && peek(0) == ':')) {
        t.text += take();
        if (c == '%' && peek(0) == '%' && peek(1) == ':') {
          t.text += take();
          t.text += take();
        }
      }
    }
    return t;
  }

  // A string or character literal from its opening quote, escapes read as pairs, to its closing
  // quote or the end of its line.
  std::string quoted() {
    const char quote = take();
    std::string text(1, quote);
    while (!done() && peek(0) != '\n') {
      const char c = take();
      text += c;
      if (c == '\\' && !done() && peek(0) != '\n') {
        text += take();
      } else if (c == quote) {
        break;
      }
    }
    return text;
  }

  // A pp-number: digits, identifier characters, dots, a digit separator before one of those, and the
  // sign of an exponent.
  std::string number() {
    std::string text(1, take());
    while (!done()) {
      const char c = peek(0);
      const char last = text.back();
      if (c == '\'' && identifier_char(peek(1))) {
        text += take();
        text += take();
      } else if (identifier_char(c) || c == '.' ||
                 ((c == '+' || c == '-') && std::string_view("eEpP").find(last) != std::string_view::npos)) {
        text += take();
      } else {
        break;
      }
    }
    return text;
  }

  // A raw string literal from its opening quote: "delimiter( ... )delimiter", read from the text as
  // it was before splicing (phase 2 is undone inside it), over as many lines as it runs. nullopt,
  // reading nothing, when the delimiter is not one (GCC then reads the quote as an ordinary string).
  std::optional<std::string> raw_string() {
    const std::size_t quote = skip_splices(at_, &line_);
    std::size_t open = quote + 1;
    while (open < s_.size() && open - quote - 1 <= 16 && s_[open] != '(') {
      const char d = s_[open];
      if (d == ')' || d == '\\' || d == '"' || std::isspace(static_cast<unsigned char>(d)) != 0) {
        return std::nullopt;
      }
      ++open;
    }
    if (open >= s_.size() || s_[open] != '(' || open - quote - 1 > 16) {
      return std::nullopt;
    }
    const std::string closing = ")" + s_.substr(quote + 1, open - quote - 1) + "\"";
    const std::size_t found = s_.find(closing, open + 1);
    const std::size_t end = found == std::string::npos ? s_.size() : found + closing.size();
    std::string text = s_.substr(quote, end - quote);
    line_ += static_cast<int>(std::count(text.begin(), text.end(), '\n'));
    at_ = end;
    return text;
  }

  const std::string& s_;
  std::size_t at_ = 0;
  int line_ = 1;
};

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

// The name a header-name token or a plain string literal gives ("<a/b.h>" or "\"a.h\""), with
// whether it is angled; nullopt when the token is neither, or is not closed.
std::optional<std::pair<std::string, bool>> header_name(const Token& token) {
  const std::string& t = token.text;
  if (token.kind == TokenKind::kHeaderName && t.size() >= 2 && t.front() == '<' && t.back() == '>') {
    return std::pair{t.substr(1, t.size() - 2), true};
  }
  if (token.kind == TokenKind::kLiteral && t.size() >= 2 && t.front() == '"' && t.back() == '"') {
    return std::pair{t.substr(1, t.size() - 2), false};
  }
  return std::nullopt;
}

// A pragma's words run together ("GCCdependency\"x\""): what the preprocessor would act on,
// whatever the spaces between them.
bool refused_pragma(const std::string& words) {
  return words.rfind("GCCdependency", 0) == 0 || words.rfind("GCCsystem_header", 0) == 0;
}

// The text of a string literal's characters with its escapes undone as _Pragma undoes them (\" and
// \\), and spaces removed: a pragma's words run together.
std::string destringized_words(const std::string& literal) {
  std::string words;
  for (std::size_t i = 1; i + 1 < literal.size(); ++i) {
    if (literal[i] == '\\' && i + 2 < literal.size() && (literal[i + 1] == '"' || literal[i + 1] == '\\')) {
      ++i;
    }
    if (std::isspace(static_cast<unsigned char>(literal[i])) == 0) {
      words += literal[i];
    }
  }
  return words;
}

class DirectiveChecker {
 public:
  DirectiveChecker(const IncludePolicy& policy, std::vector<SourceProblem>& problems)
      : policy_(policy), problems_(problems) {}

  void check(const LogicalLine& line) {
    if (line.tokens.empty()) {
      return;
    }
    const std::string name = line.directive_name();
    // A conditional group's own directives are inside the group they open or continue.
    const bool conditional = depth_ > 0;
    if (name == "if" || name == "ifdef" || name == "ifndef") {
      ++depth_;
    } else if (name == "endif") {
      depth_ = std::max(depth_ - 1, 0);
    }
    if (line.directive()) {
      check_directive(line, name, conditional);
    }
    check_identifiers(line);
  }

 private:
  void refuse(int line, std::string message) { problems_.push_back({line, std::move(message)}); }

  void check_directive(const LogicalLine& line, const std::string& name, bool conditional) {
    const int at = line.tokens[0].line;
    if (line.tokens[0].text == "%:") {
      refuse(at, "the digraph %: for # is not allowed in a submission; write #");
      return;
    }
    if (name == "embed") {
      refuse(at, "#embed is not allowed in a submission; use #include of " + allowed_list(policy_));
      return;
    }
    if (name == "line" || (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) != 0)) {
      refuse(at, (name == "line" ? std::string("#line") : std::string("a line marker (# N)")) +
                     " is not allowed in a submission (the grader reports your own line numbers)");
      return;
    }
    if (name == "pragma") {
      std::string words;
      for (std::size_t i = 2; i < line.tokens.size(); ++i) {
        words += line.tokens[i].text;
      }
      if (refused_pragma(words)) {
        refuse(at, "#pragma GCC dependency and system_header are not allowed in a submission");
      }
      return;
    }
    if (name != "include" && name != "include_next" && name != "import") {
      return;
    }
    // An include inside a conditional group is the preprocessor's to judge: the files it opens are
    // checked against the same policy, so it is refused exactly where the preprocessor acts on it.
    if (conditional) {
      return;
    }
    if (name != "include") {
      refuse(at, "#" + name + " is not allowed in a submission; use #include of " + allowed_list(policy_));
      return;
    }
    const std::optional<std::pair<std::string, bool>> header =
        line.tokens.size() == 3 ? header_name(line.tokens[2]) : std::nullopt;
    if (!header) {
      refuse(at,
             "an #include must name its header literally, as \"name\" or <name> (not through a macro); "
             "allowed: " +
                 allowed_list(policy_));
      return;
    }
    const auto& [header_text, angled] = *header;
    if (!allowed(policy_, header_text, angled)) {
      refuse(at, "#include " + std::string(angled ? "<" : "\"") + header_text + (angled ? ">" : "\"") +
                     " is not allowed: a submission may include only " + allowed_list(policy_));
    }
  }

  // _Pragma, __has_include and __has_include_next wherever the preprocessor meets them as
  // identifiers (never in a comment or a literal).
  void check_identifiers(const LogicalLine& line) {
    const std::vector<Token>& t = line.tokens;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i].kind != TokenKind::kIdentifier) {
        continue;
      }
      const bool call = i + 3 < t.size() && t[i + 1].text == "(" && t[i + 3].text == ")";
      if (t[i].text == "__has_include_next") {
        refuse(t[i].line, "__has_include_next is not allowed in a submission");
      } else if (t[i].text == "__has_include") {
        const std::optional<std::pair<std::string, bool>> header =
            call ? header_name(t[i + 2]) : std::nullopt;
        if (!header || !allowed(policy_, header->first, header->second)) {
          refuse(t[i].line,
                 "__has_include is allowed only of a header a submission may include, named "
                 "literally: " +
                     allowed_list(policy_));
        }
      } else if (t[i].text == "_Pragma" && call && t[i + 2].kind == TokenKind::kLiteral &&
                 refused_pragma(destringized_words(t[i + 2].text))) {
        refuse(t[i].line,
               "_Pragma(\"GCC dependency ...\") and system_header are not allowed in a submission");
      }
    }
  }

  const IncludePolicy& policy_;
  std::vector<SourceProblem>& problems_;
  int depth_ = 0;
};

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
  const std::string phase_one = with_line_feeds(text);
  DirectiveChecker checker(policy, problems);
  for (const LogicalLine& line : Lexer(phase_one).lines()) {
    checker.check(line);
  }
  // One problem per line and message.
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
