#include "grading/included_files.hpp"

#include <algorithm>
#include <sstream>
#include <string_view>
#include <system_error>

namespace labrun {
namespace {

namespace fs = std::filesystem;

bool is_within(const fs::path& path, const fs::path& folder) {
  if (folder.empty()) {
    return false;
  }
  const auto [folder_end, path_end] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return folder_end == folder.end();
}

fs::path resolved(const fs::path& path) {
  std::error_code error;
  fs::path canonical = fs::weakly_canonical(path, error);
  return error ? path.lexically_normal() : canonical;
}

// The compiler's and the C library's own headers: /usr/include, and the include folders GCC keeps
// beside its programs (/usr/lib/gcc/x86_64-linux-gnu/12/include, .../include-fixed).
bool system_header(const fs::path& path) {
  if (is_within(path, "/usr/include")) {
    return true;
  }
  if (!is_within(path, "/usr/lib/gcc")) {
    return false;
  }
  // /usr/lib/gcc/<target>/<version>/<include folder>/...
  auto part = path.begin();
  for (int skip = 0; skip < 5 && part != path.end(); ++skip) {
    ++part;  // "/", "usr", "lib", "gcc", "<target>"
  }
  if (part == path.end() || ++part == path.end()) {
    return false;  // no version, or nothing after it
  }
  const std::string folder = part->string();
  return (folder == "include" || folder == "include-fixed") && std::next(part) != path.end();
}

}  // namespace

std::optional<std::vector<std::string>> make_rule_prerequisites(const std::string& text) {
  // Join continued lines, keeping escapes of other characters for the word split below.
  std::string joined;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && text[i + 1] == '\n') {
      joined += ' ';
      ++i;
    } else if (text[i] == '\\' && i + 2 < text.size() && text[i + 1] == '\r' && text[i + 2] == '\n') {
      joined += ' ';
      i += 2;
    } else {
      joined += text[i];
    }
  }
  // The rule's first colon that is followed by white space ends the target ("a.o : b.cu", or
  // "a.o: b.cu"); a colon inside a Windows-style path is not expected here.
  std::size_t colon = std::string::npos;
  for (std::size_t i = 0; i < joined.size(); ++i) {
    if (joined[i] == ':' && (i + 1 == joined.size() || joined[i + 1] == ' ' || joined[i + 1] == '\t' ||
                             joined[i + 1] == '\n' || joined[i + 1] == '\r')) {
      colon = i;
      break;
    }
  }
  if (colon == std::string::npos) {
    return std::nullopt;
  }
  std::vector<std::string> words;
  std::string word;
  const auto end_word = [&] {
    if (!word.empty()) {
      words.push_back(word);
      word.clear();
    }
  };
  for (std::size_t i = colon + 1; i < joined.size(); ++i) {
    const char c = joined[i];
    if (c == '\\' && i + 1 < joined.size() && (joined[i + 1] == ' ' || joined[i + 1] == '#')) {
      word += joined[++i];
    } else if (c == '$' && i + 1 < joined.size() && joined[i + 1] == '$') {
      word += '$';
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      // A newline that is not continued ends the rule: what follows would be another rule.
      if (c == '\n') {
        end_word();
        break;
      }
      end_word();
    } else {
      word += c;
    }
  }
  end_word();
  return words;
}

std::vector<fs::path> files_not_allowed(const std::vector<std::string>& opened,
                                        const fs::path& working_directory, const AllowedIncludes& allowed) {
  std::vector<fs::path> files;
  for (const fs::path& file : allowed.files) {
    files.push_back(resolved(file));
  }
  std::vector<fs::path> trees;
  for (const fs::path& tree : allowed.trees) {
    trees.push_back(resolved(tree));
  }
  std::vector<fs::path> refused;
  for (const std::string& name : opened) {
    const fs::path as_named(name);
    const fs::path path = resolved(as_named.is_absolute() ? as_named : working_directory / as_named);
    const bool in_tree =
        std::any_of(trees.begin(), trees.end(), [&](const fs::path& tree) { return is_within(path, tree); });
    const bool listed = std::find(files.begin(), files.end(), path) != files.end();
    if (!listed && !in_tree && !system_header(path) &&
        std::find(refused.begin(), refused.end(), path) == refused.end()) {
      refused.push_back(path);
    }
  }
  return refused;
}

std::vector<fs::path> direct_includes_not_allowed(const std::vector<TracedFile>& opened,
                                                  const fs::path& working_directory,
                                                  const DirectIncludes& allowed) {
  std::vector<fs::path> refused;
  for (const TracedFile& file : opened) {
    if (file.depth != 1) {
      continue;
    }
    const fs::path as_named(file.path);
    const fs::path path = resolved(as_named.is_absolute() ? as_named : working_directory / as_named);
    const bool listed = std::any_of(allowed.files.begin(), allowed.files.end(),
                                    [&](const fs::path& f) { return resolved(f) == path; });
    const bool in_tree = std::any_of(allowed.trees.begin(), allowed.trees.end(),
                                     [&](const fs::path& tree) { return is_within(path, resolved(tree)); });
    const bool named_system_header =
        system_header(path) && std::find(allowed.system_names.begin(), allowed.system_names.end(),
                                         path.filename().string()) != allowed.system_names.end();
    if (!listed && !in_tree && !named_system_header &&
        std::find(refused.begin(), refused.end(), path) == refused.end()) {
      refused.push_back(path);
    }
  }
  return refused;
}

namespace {

void keep_once(std::vector<std::string>& names, std::string name) {
  if (!name.empty() && name.front() != '<' && std::find(names.begin(), names.end(), name) == names.end()) {
    names.push_back(std::move(name));
  }
}

bool all_digits(std::string_view text) {
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "PATH:LINE:COL: " or "PATH:LINE: " at the start of a GCC message: PATH, else "".
std::string gcc_location(const std::string& line) {
  for (std::size_t colon = line.find(':'); colon != std::string::npos; colon = line.find(':', colon + 1)) {
    const std::size_t line_end = line.find(':', colon + 1);
    if (line_end == std::string::npos) {
      return "";
    }
    if (!all_digits(std::string_view(line).substr(colon + 1, line_end - colon - 1))) {
      continue;
    }
    std::size_t after = line_end + 1;
    const std::size_t column_end = line.find(':', after);
    if (column_end != std::string::npos &&
        all_digits(std::string_view(line).substr(after, column_end - after))) {
      after = column_end + 1;
    }
    return after < line.size() && line[after] == ' ' ? line.substr(0, colon) : "";
  }
  return "";
}

// "PATH(LINE): " at the start of an EDG message (cudafe++, cicc): PATH, else "".
std::string edg_location(const std::string& line) {
  const std::size_t close = line.find("): ");
  if (close == std::string::npos) {
    return "";
  }
  const std::size_t open = line.rfind('(', close);
  return open != std::string::npos && open > 0 &&
                 all_digits(std::string_view(line).substr(open + 1, close - open - 1))
             ? line.substr(0, open)
             : "";
}

// "In file included from PATH:LINE[:COL][,:]" and "                 from PATH:LINE[:COL][,:]": PATH.
std::string included_from(const std::string& line) {
  constexpr std::string_view kIncluded = "In file included from ";
  std::size_t at = 0;
  if (line.rfind(kIncluded, 0) == 0) {
    at = kIncluded.size();
  } else {
    const std::size_t text = line.find_first_not_of(' ');
    if (text == std::string::npos || text == 0 || line.compare(text, 5, "from ") != 0) {
      return "";
    }
    at = text + 5;
  }
  std::string rest = line.substr(at);
  while (!rest.empty() && (rest.back() == ',' || rest.back() == ':')) {
    rest.pop_back();
  }
  // PATH:LINE or PATH:LINE:COL
  for (int parts = 0; parts < 2; ++parts) {
    const std::size_t colon = rest.rfind(':');
    if (colon != std::string::npos && all_digits(std::string_view(rest).substr(colon + 1))) {
      rest.erase(colon);
    }
  }
  return rest;
}

}  // namespace

std::string without_include_trace(const std::string& compiler_output) {
  std::string kept;
  std::istringstream lines(compiler_output);
  std::string line;
  bool guard_list = false;
  while (std::getline(lines, line)) {
    const std::size_t dots = line.find_first_not_of('.');
    const bool traced = dots != std::string::npos && dots > 0 && line[dots] == ' ';
    if (line.rfind("Multiple include guards may be useful for:", 0) == 0) {
      guard_list = true;
      continue;
    }
    // The list names one header a line, from the first column; any message ends it.
    if (guard_list && !line.empty() && line.front() == '/' && line.find(' ') == std::string::npos) {
      continue;
    }
    guard_list = false;
    if (!traced) {
      kept += line + "\n";
    }
  }
  return kept;
}

CompilerFileRecord files_named_by_compiler(const std::string& compiler_output) {
  CompilerFileRecord record;
  std::istringstream lines(compiler_output);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    // -H: one or more dots at the start of the line, a space, the path.
    const std::size_t dots = line.find_first_not_of('.');
    if (dots != std::string::npos && dots > 0 && line[dots] == ' ' && dots + 1 < line.size()) {
      record.opened.push_back({line.substr(dots + 1), static_cast<int>(dots)});
      continue;
    }
    // GCC: "...fatal error: PATH: REASON" (the reason is the last ": "-separated part).
    constexpr std::string_view kFatal = "fatal error: ";
    if (const std::size_t at = line.find(kFatal); at != std::string::npos) {
      const std::size_t begin = at + kFatal.size();
      const std::size_t reason = line.rfind(": ");
      if (reason != std::string::npos && reason > begin) {
        const std::string name = line.substr(begin, reason - begin);
        // "fatal error: #include nested depth 200 exceeds maximum of 200" names no file.
        if (name.find(' ') == std::string::npos || name.find('/') != std::string::npos) {
          keep_once(record.not_opened, name);
        }
      }
    }
    constexpr std::string_view kEdg = "cannot open source file \"";
    if (const std::size_t at = line.find(kEdg); at != std::string::npos) {
      const std::size_t begin = at + kEdg.size();
      const std::size_t end = line.find('"', begin);
      if (end != std::string::npos && end > begin) {
        keep_once(record.not_opened, line.substr(begin, end - begin));
      }
    }
    for (std::string located : {gcc_location(line), edg_location(line), included_from(line)}) {
      keep_once(record.located, std::move(located));
    }
  }
  return record;
}

int line_including(const std::string& source, const fs::path& file) {
  const std::string name = file.filename().string();
  if (name.empty()) {
    return 0;
  }
  std::istringstream lines(source);
  std::string line;
  int number = 0;
  while (std::getline(lines, line)) {
    ++number;
    const std::size_t hash = line.find_first_not_of(" \t");
    if (hash == std::string::npos || line[hash] != '#' || line.find("include", hash) == std::string::npos) {
      continue;
    }
    const std::size_t at = line.find(name);
    if (at == std::string::npos) {
      continue;
    }
    const char before = at == 0 ? ' ' : line[at - 1];
    const std::size_t after_at = at + name.size();
    const char after = after_at < line.size() ? line[after_at] : ' ';
    if ((before == '/' || before == '"' || before == '<' || before == ' ') &&
        (after == '"' || after == '>' || after == ' ' || after == '\r')) {
      return number;
    }
  }
  return 0;
}

}  // namespace labrun
