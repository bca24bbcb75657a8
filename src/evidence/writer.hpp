#pragma once
// The files a transcript is written as, chosen by name. `labrun run` writes the JSON transcript
// (the evidence) and its Markdown always, and the other formats named with --write beside them;
// `labrun report FILE --format NAME` prints one rendering. Every file is made from the JSON text
// as written, never measured separately. A new format is one file pair with its render function
// and one entry in transcript_writers().

#include <functional>
#include <string>
#include <vector>

#include "core/transcript.hpp"
#include "registry/lab.hpp"

namespace labrun {

//! What a writer renders from.
struct WriterInput {
  const std::string& json_text;  //!< the transcript's JSON text, as written
  const Transcript& transcript;  //!< read back from json_text
  const Lab* lab = nullptr;      //!< nullptr: a lab this build does not know
  std::string plots_section;     //!< Markdown linking the plots drawn beside the transcript
};

//! One output format.
struct TranscriptWriter {
  std::string name;             //!< what --format and --write take: "json", "md", "csv"
  std::string suffix;           //!< the file's name after the run's stem: ".json", ".md", ".samples.csv"
  std::string summary;          //!< what the file holds, in a few words, for --help
  bool always_written = false;  //!< `run` writes it whatever is asked: the evidence and its Markdown
  bool rendering = true;        //!< made from the transcript, so `report` prints it (not the JSON itself)
  bool links_plots = false;     //!< uses plots_section: `run` writes it once the plots are drawn
  std::function<std::string(const WriterInput&)> render;  //!< the file's bytes
};

//! Every writer: json, md, csv. `run` writes them in this order, except that those linking the
//! plots (md) wait until the plots are drawn.
[[nodiscard]] const std::vector<TranscriptWriter>& transcript_writers();

//! The writer of that name, or nullptr.
[[nodiscard]] const TranscriptWriter* find_transcript_writer(const std::string& name);

//! The names of the writers `report --format` takes (renderings), or `run --write` takes (those
//! not always written), in registry order.
[[nodiscard]] std::vector<std::string> report_format_names();
[[nodiscard]] std::vector<std::string> run_format_names();

//! The one-line refusal of a name not among `known`: "unknown format 'xlsx' (known: md, csv)".
[[nodiscard]] std::string unknown_format_message(const std::string& name,
                                                 const std::vector<std::string>& known);

//! "md (the Markdown the run wrote) or csv (one row per timed sample)": the named writers with
//! their summaries, for an option's help.
[[nodiscard]] std::string describe_formats(const std::vector<std::string>& names);

}  // namespace labrun
