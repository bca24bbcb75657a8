#include "evidence/transcript_file.hpp"

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "evidence/consistency.hpp"
#include "evidence/cross_references.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"

namespace labrun {

namespace {
//! `name` is NAME + suffix with NAME not empty.
bool named_with_suffix(const std::string& name, std::string_view suffix) {
  return name.size() > suffix.size() && ends_with(name, suffix);
}
}  // namespace

bool named_as_transcript(const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  return named_with_suffix(name, ".json") || named_with_suffix(name, kCompressedTranscriptSuffix);
}

std::string transcript_file_stem(const std::filesystem::path& file) {
  const std::string name = file.filename().string();
  if (named_with_suffix(name, kCompressedTranscriptSuffix)) {
    return name.substr(0, name.size() - std::string_view(kCompressedTranscriptSuffix).size());
  }
  return file.stem().string();
}

std::string non_transcript_kind(const nlohmann::json& document) {
  if (document.is_array()) {
    const bool grade_summary = !document.empty() && document.front().is_object() &&
                               document.front().contains("submission") && document.front().contains("score");
    return grade_summary ? "a grade summary (`labrun grade --batch`)" : "a JSON array";
  }
  if (!document.is_object() || document.contains("schema_version")) {
    return "";
  }
  if (document.contains("$schema")) {
    return "a JSON Schema";
  }
  if (document.contains("baseline") && document.contains("candidate")) {
    return "a comparison (`labrun compare --format json`)";
  }
  if (document.value("format", "") == "labrun-aggregate") {
    return "an aggregate (`labrun aggregate`)";
  }
  if (document.contains("tests") && document.contains("score")) {
    return "a grade report (`labrun grade`)";
  }
  if (document.contains("traceEvents")) {
    return "a Chrome trace (`labrun run --timeline`, for Perfetto or chrome://tracing)";
  }
  return "";
}

namespace {

TranscriptCheck check_file(const std::filesystem::path& file, const LabLookup& labs) {
  TranscriptCheck check;
  const std::string name = file.string();
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) {
    check.problem =
        name +
        " is a folder, not a transcript (give its .json or .json.gz files; `labrun aggregate` reads folders)";
    return check;
  }
  std::string text;
  try {
    text = read_evidence_text(file);
  } catch (const std::exception& failure) {
    check.problem = failure.what();  // names the file
    return check;
  }
  // Parsed once, bounded (no deeper than a transcript may be, every key once), for validation; the
  // reader parses again, keeping the order of keys. A document that parses but is another kind of
  // labrun output is named as what it is.
  nlohmann::json document;
  if (const std::optional<SchemaProblem> malformed = transcript_text_problem(text, document)) {
    check.problem =
        name + ": " + (malformed->pointer.empty() ? "/" : malformed->pointer) + ": " + malformed->message;
    return check;
  }
  if (const std::string kind = non_transcript_kind(document); !kind.empty()) {
    check.problem = name + ": not a transcript (it looks like " + kind + ")";
    check.not_a_transcript = true;
    return check;
  }
  const std::vector<SchemaProblem> problems = validate_transcript(document);
  if (!problems.empty()) {
    check.problem = name + ": " + (problems.front().pointer.empty() ? "/" : problems.front().pointer) + ": " +
                    problems.front().message;
    check.more_problems = problems.size() - 1;
    return check;
  }
  try {
    Transcript transcript = transcript_from_text(text);
    if (const std::optional<SchemaProblem> dangling = dangling_reference(transcript)) {
      check.problem = name + ": " + dangling->pointer + ": " + dangling->message;
      return check;
    }
    FigureCheck figures = check_figures(transcript, labs ? labs(transcript.lab_name) : nullptr);
    if (figures.forged) {
      check.problem = name + ": " + figures.forged->pointer + ": " + figures.forged->message;
      return check;
    }
    check.declaration = std::move(figures.declaration);
    check.transcript = std::move(transcript);
    check.text = std::move(text);
  } catch (const TranscriptFormatError& failure) {
    check.problem = name + ": " + failure.what();
  }
  return check;
}

}  // namespace

TranscriptCheck check_transcript_file(const std::filesystem::path& file, const LabLookup& labs) {
  TranscriptCheck check = check_file(file, labs);
  check.problem = one_line(check.problem);  // a file name or a key may hold a line break
  return check;
}

Transcript read_transcript_file(const std::filesystem::path& file, const LabLookup& labs) {
  return std::move(read_transcript_file_with_text(file, labs).transcript);
}

TranscriptWithText read_transcript_file_with_text(const std::filesystem::path& file, const LabLookup& labs) {
  TranscriptCheck check = check_transcript_file(file, labs);
  if (!check.transcript) {
    throw InvalidTranscript(check.problem);
  }
  return TranscriptWithText{std::move(*check.transcript), std::move(check.text)};
}

}  // namespace labrun
