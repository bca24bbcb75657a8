// libFuzzer target over what labrun reads from anywhere (docs/reliability.md): the bytes are read as
// a transcript, decompressed first where it is gzip (validated, parsed, cross-checked, its figures checked
// against its samples, rendered to Markdown and to the samples CSV, turned into plot specs and compared with
// itself), as a grading manifest and as a submission's report.json that `grade --merge` and a `grade --batch`
// rerun read. Every failure must be a C++ exception, which labrun turns into a one-line error and an exit
// status; a crash, a sanitizer finding or a hang is what the fuzzer reports. Built by the fuzz preset (clang,
// -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>

#include "base/atomic_file.hpp"
#include "base/gzip.hpp"
#include "compare/compare.hpp"
#include "evidence/consistency.hpp"
#include "evidence/cross_references.hpp"
#include "evidence/markdown.hpp"
#include "evidence/samples_csv.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_json.hpp"
#include "grading/manifest.hpp"
#include "grading/summary_row.hpp"
#include "plots/draw_plots.hpp"
#include "registry/registry.hpp"

namespace {

void read_as_transcript(const std::string& text) {
  if (!labrun::validate_transcript_text(text).empty()) {
    return;  // refused, as `labrun validate` would
  }
  const labrun::Transcript transcript = labrun::transcript_from_text(text);
  if (labrun::dangling_reference(transcript)) {
    return;
  }
  const labrun::Lab* lab = labrun::registered_labs().find(transcript.lab_name);
  // The readers stop at a figure that does not follow from its samples; the renderers go on here,
  // so that they meet the mutated figures too (a mutation almost always breaks a summary).
  static_cast<void>(labrun::inconsistent_figure(transcript, lab));
  static_cast<void>(labrun::render_markdown(transcript, lab, ""));
  static_cast<void>(labrun::samples_to_csv(transcript));
  if (lab != nullptr && lab->plots) {
    static_cast<void>(labrun::plot_specs_to_json(lab->plots(transcript), "/nonexistent", "fuzz", "svg"));
  }
  const labrun::TranscriptComparison comparison =
      labrun::compare_transcripts(transcript, transcript, lab != nullptr ? &lab->claims : nullptr);
  static_cast<void>(labrun::comparison_to_markdown(comparison));
  static_cast<void>(labrun::comparison_to_json(comparison).dump());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    // A transcript stored gzip-compressed (NAME.json.gz, as committed) is decompressed first, as
    // read_evidence_text does: the committed runs are seeds in that form.
    read_as_transcript(labrun::looks_gzip(text) ? labrun::gunzip(text, labrun::kEvidenceFileMaxBytes, "fuzz")
                                                : text);
  } catch (const std::exception&) {
    // every reader's documented failure: labrun prints what() on one line and exits 1
  }
  try {
    static_cast<void>(labrun::parse_manifest(text, "fuzz"));
  } catch (const std::exception&) {
  }
  try {
    static_cast<void>(labrun::summary_row_from_text("fuzz", text));
  } catch (const std::exception&) {
  }
  return 0;
}
