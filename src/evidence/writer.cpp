#include "evidence/writer.hpp"

#include <algorithm>

#include "evidence/markdown.hpp"
#include "evidence/samples_csv.hpp"

namespace labrun {

const std::vector<TranscriptWriter>& transcript_writers() {
  static const std::vector<TranscriptWriter> writers{
      {"json", ".json", "the transcript itself, the evidence", true, false, false,
       [](const WriterInput& input) { return input.json_text; }},
      {"md", ".md", "the Markdown the run wrote", true, true, true,
       [](const WriterInput& input) {
         return render_markdown(input.transcript, input.lab, input.plots_section);
       }},
      {"csv", ".samples.csv", "one row per timed sample", false, true, false,
       [](const WriterInput& input) { return samples_to_csv(input.transcript); }},
  };
  return writers;
}

const TranscriptWriter* find_transcript_writer(const std::string& name) {
  const std::vector<TranscriptWriter>& writers = transcript_writers();
  const auto found =
      std::find_if(writers.begin(), writers.end(), [&](const TranscriptWriter& w) { return w.name == name; });
  return found == writers.end() ? nullptr : &*found;
}

std::vector<std::string> report_format_names() {
  std::vector<std::string> names;
  for (const TranscriptWriter& writer : transcript_writers()) {
    if (writer.rendering) {
      names.push_back(writer.name);
    }
  }
  return names;
}

std::vector<std::string> run_format_names() {
  std::vector<std::string> names;
  for (const TranscriptWriter& writer : transcript_writers()) {
    if (!writer.always_written) {
      names.push_back(writer.name);
    }
  }
  return names;
}

std::string unknown_format_message(const std::string& name, const std::vector<std::string>& known) {
  std::string list;
  for (const std::string& each : known) {
    list += (list.empty() ? "" : ", ") + each;
  }
  return "unknown format '" + name + "' (known: " + list + ")";
}

std::string describe_formats(const std::vector<std::string>& names) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const TranscriptWriter* writer = find_transcript_writer(names[i]);
    if (i > 0) {
      text += i + 1 == names.size() ? " or " : ", ";
    }
    text += names[i] + (writer != nullptr ? " (" + writer->summary + ")" : "");
  }
  return text;
}

}  // namespace labrun
