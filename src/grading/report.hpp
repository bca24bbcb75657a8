#pragma once
// A grade as plain data, and its three renderings: Gradescope's results.json, a full JSON report,
// and Markdown written for the student.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace labrun {

//! One graded check, as Gradescope shows it. Every string of a report is plain text, whoever wrote
//! it (labrun, a compiler, the submission); each renderer escapes it for its format.
struct GradeTest {
  std::string name;
  bool passed = false;
  double score = 0.0;
  double max_score = 0.0;
  std::string output;  //!< what was found, and what to look at, as plain text
  std::string visibility = "visible";
};

//! A mistake recognised in the submission.
struct NamedMistake {
  std::string id;           //!< stable: "stage-2-applied-twice"
  std::string explanation;  //!< for the student: what happened and what to look at
};

struct GradeReport {
  std::string lab;
  std::string student_id;
  std::string submission;  //!< the file graded
  std::vector<GradeTest> tests;
  std::vector<NamedMistake> mistakes;
  std::vector<std::pair<std::string, std::string>> figures;  //!< measured figures, labelled
  double execution_seconds = 0.0;
  //! Where execution_seconds went: wall seconds of each step labrun ran or waited for, in order
  //! (compiling, waiting for a turn on the GPU, checking, timing, sanitizing). Empty when none ran.
  std::vector<std::pair<std::string, double>> phase_seconds;
  std::string device;          //!< the GPU it was graded on ("NVIDIA H200"); empty when none ran
  std::string device_uuid;     //!< that GPU's UUID, as nvidia-smi writes it
  std::string host;            //!< the machine labrun graded it on
  nlohmann::ordered_json raw;  //!< what the grading child measured, unchanged
  //! Why grading could not run at all ("no-device", "setup"), empty when it ran; the score is 0 and
  //! the one test says what course staff must do.
  std::string grader_problem_kind;

  [[nodiscard]] double score() const;
  [[nodiscard]] double max_score() const;
  [[nodiscard]] bool has_mistake(const std::string& id) const;
};

//! Gradescope's results.json: score, execution_time, output_format "md", tests (name, status, score,
//! max_score, output, visibility). Each test's output is Markdown text (Gradescope renders it as
//! HTML): one line of inert_text (grading/utf8.hpp), then escape_markdown (base/format.hpp), so no
//! tag, link, image or code span can open in it. The other strings are plain text, made inert.
[[nodiscard]] nlohmann::ordered_json gradescope_results(const GradeReport& report);
//! Everything: the Gradescope fields (tests[].output Markdown, as there) plus mistakes, figures and
//! the child's raw results, every other string and key plain text made inert (utf8.hpp's
//! inert_text: no control, bidirectional or invisible character, valid UTF-8, one line).
[[nodiscard]] nlohmann::ordered_json report_json(const GradeReport& report);
//! For the student: what passed, what failed, why, and what to look at. Every string of the report
//! is inert and escaped (escape_markdown), the file name too (a code span would show a `<` as it is).
[[nodiscard]] std::string report_markdown(const GradeReport& report);
//! A report document as text: indented JSON, any invalid UTF-8 left in it replaced, newline-ended.
[[nodiscard]] std::string dump_report(const nlohmann::ordered_json& document);

}  // namespace labrun
