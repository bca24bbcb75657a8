#include "evidence/writer.hpp"

#include <catch2/catch_test_macros.hpp>

#include "evidence/markdown.hpp"
#include "evidence/samples_csv.hpp"
#include "evidence/transcript_json.hpp"
#include "registry/registry.hpp"
#include "support/sample_transcript.hpp"

TEST_CASE("writers are chosen by name, each with its own suffix") {
  std::vector<std::string> names;
  std::vector<std::string> suffixes;
  for (const labrun::TranscriptWriter& writer : labrun::transcript_writers()) {
    names.push_back(writer.name);
    suffixes.push_back(writer.suffix);
    CHECK(labrun::find_transcript_writer(writer.name) == &writer);
  }
  CHECK(names == std::vector<std::string>{"json", "md", "csv"});
  CHECK(suffixes == std::vector<std::string>{".json", ".md", ".samples.csv"});
  CHECK(labrun::find_transcript_writer("xlsx") == nullptr);
  CHECK(labrun::find_transcript_writer("") == nullptr);
  CHECK(labrun::find_transcript_writer("CSV") == nullptr);  // names are exact
  // `report` prints the renderings; `run` always writes the JSON and the Markdown, others on request.
  CHECK(labrun::report_format_names() == std::vector<std::string>{"md", "csv"});
  CHECK(labrun::run_format_names() == std::vector<std::string>{"csv"});
  CHECK(labrun::unknown_format_message("xlsx", labrun::report_format_names()) ==
        "unknown format 'xlsx' (known: md, csv)");
  CHECK(labrun::describe_formats({"md", "csv"}) ==
        "md (the Markdown the run wrote) or csv (one row per timed sample)");
}

TEST_CASE("every writer renders from the JSON text as written") {
  const labrun::Transcript t = labrun::testing::sample_day48_transcript();  // synthetic
  const std::string json_text = labrun::transcript_to_text(t);
  const labrun::Transcript written = labrun::transcript_from_text(json_text);
  const labrun::Lab* lab = labrun::registered_labs().find(written.lab_name);
  const labrun::WriterInput input{json_text, written, lab, ""};
  CHECK(labrun::find_transcript_writer("json")->render(input) == json_text);
  CHECK(labrun::find_transcript_writer("md")->render(input) == labrun::render_markdown(written, lab));
  CHECK(labrun::find_transcript_writer("csv")->render(input) == labrun::samples_to_csv(written));
}
