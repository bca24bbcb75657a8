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

std::vector<std::string> files_not_found(const std::string& compiler_output) {
  std::vector<std::string> files;
  const auto keep = [&](std::string name) {
    if (!name.empty() && std::find(files.begin(), files.end(), name) == files.end()) {
      files.push_back(std::move(name));
    }
  };
  std::istringstream lines(compiler_output);
  std::string line;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    constexpr std::string_view kGccStart = "fatal error: ";
    constexpr std::string_view kGccEnd = ": No such file or directory";
    if (const std::size_t at = line.find(kGccStart);
        at != std::string::npos && line.size() >= kGccEnd.size() &&
        line.compare(line.size() - kGccEnd.size(), kGccEnd.size(), kGccEnd) == 0) {
      const std::size_t begin = at + kGccStart.size();
      const std::size_t end = line.size() - kGccEnd.size();
      if (end > begin) {
        keep(line.substr(begin, end - begin));
      }
      continue;
    }
    constexpr std::string_view kEdg = "cannot open source file \"";
    if (const std::size_t at = line.find(kEdg); at != std::string::npos) {
      const std::size_t begin = at + kEdg.size();
      const std::size_t end = line.find('"', begin);
      if (end != std::string::npos && end > begin) {
        keep(line.substr(begin, end - begin));
      }
    }
  }
  return files;
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
