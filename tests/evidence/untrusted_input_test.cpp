// Transcripts from anywhere (docs/reliability.md): every malformed, oversized or hostile input gets
// a one-line problem naming the file, never a crash, a hang or a wrapped number.
#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "day48-fusion/lab.hpp"
#include "evidence/markdown.hpp"
#include "evidence/schema_validation.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"
#include "plots/draw_plots.hpp"
#include "plots/plot_spec.hpp"
#include "registry/registry.hpp"
#include "support/sample_transcript.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

namespace fs = std::filesystem;
using Catch::Matchers::ContainsSubstring;

namespace {

// A valid transcript's JSON, to be spoiled one way per test.
nlohmann::ordered_json valid_document() {
  return labrun::transcript_to_json(labrun::testing::sample_day48_transcript());
}

std::string problem_of(const fs::path& file, const std::string& text) {
  labrun::write_file_atomically(file, text, true);
  const labrun::TranscriptCheck check = labrun::check_transcript_file(file, labrun::testing::registered_lab);
  CHECK_FALSE(check.transcript.has_value());
  CHECK(check.problem.find('\n') == std::string::npos);
  CHECK_THAT(check.problem, ContainsSubstring(labrun::one_line(file.string())));
  return check.problem;
}

}  // namespace

TEST_CASE("the sample transcript these tests spoil is valid") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path file = dir.path / "valid.json";
  labrun::write_file_atomically(file, valid_document().dump(2), false);
  const labrun::TranscriptCheck check = labrun::check_transcript_file(file, labrun::testing::registered_lab);
  CHECK(check.problem == "");
  CHECK(check.transcript.has_value());
}

TEST_CASE("a string longer than a transcript allows is refused at its pointer, before any pattern") {
  const labrun::testing::TemporaryDirectory dir;
  for (const std::size_t length : {std::size_t{30000}, std::size_t{1} << 20}) {
    auto document = valid_document();
    document["cases"][0]["name"] = "day48-fusion/part1/" + std::string(length, 'a');
    CHECK_THAT(problem_of(dir.path / "long.json", document.dump()),
               ContainsSubstring("/cases/0/name: a string of " + std::to_string(length + 19) + " bytes"));
  }
  auto key = valid_document();
  key["run"][std::string(5000, 'k')] = 1;
  CHECK_THAT(problem_of(dir.path / "key.json", key.dump()), ContainsSubstring("/run: a key of 5000 bytes"));
}

TEST_CASE("a string at the limit is matched against the schema's patterns without exhausting the stack") {
  auto document = valid_document();
  document["cases"][0]["name"] =
      "day48-fusion/part1/" + std::string(labrun::kTranscriptStringMaxBytes - 19, 'a');
  const auto problems = labrun::validate_transcript(nlohmann::json::parse(document.dump()));
  CHECK(problems.empty());  // the name still matches ^[a-z0-9-]+/[a-z0-9-]+/[a-z0-9-]+$
}

TEST_CASE("nesting deeper than a transcript allows is refused without recursion") {
  const labrun::testing::TemporaryDirectory dir;
  auto document = valid_document();
  const std::size_t depth = 200000;
  std::string deep = std::string(depth, '[') + std::string(depth, ']');
  std::string text = document.dump();
  text.insert(text.size() - 1, ", \"deep\": " + deep);
  CHECK_THAT(problem_of(dir.path / "deep.json", text), ContainsSubstring("nested more than 32 levels"));
}

TEST_CASE("a number beyond a double and an integer beyond int are refused, not wrapped") {
  const labrun::testing::TemporaryDirectory dir;
  std::string text = valid_document().dump();
  const std::string warmups = "\"warmups\":";
  const std::size_t at = text.find(warmups);
  REQUIRE(at != std::string::npos);
  std::string huge = text;
  huge.insert(at + warmups.size(), "1e400,\"was\":");
  CHECK_THAT(problem_of(dir.path / "huge.json", huge), ContainsSubstring("a number too large for a double"));
  CHECK_THROWS_AS(labrun::transcript_from_text(huge), labrun::TranscriptFormatError);

  auto wrapped = valid_document();
  wrapped["cases"][0]["launches_per_sample"] = std::uint64_t{4294967296} + 2;
  CHECK_THAT(problem_of(dir.path / "wrap.json", wrapped.dump()),
             ContainsSubstring("/cases/0/launches_per_sample: an integer out of range"));
}

TEST_CASE("a number beyond a double is named at its field, and an integer beyond 2^63 - 1 as such") {
  const labrun::testing::TemporaryDirectory dir;
  std::string text = valid_document().dump();
  const std::string samples = "\"samples_ms\":[";
  const std::size_t at = text.find(samples);
  REQUIRE(at != std::string::npos);
  std::string huge = text;
  huge.insert(at + samples.size(), "1e400,");
  CHECK_THAT(problem_of(dir.path / "huge.json", huge),
             ContainsSubstring("huge.json: /cases/0/samples_ms/0: a number too large for a double"));
  CHECK(labrun::pointer_of_parse_error(R"({"a": [1, {"b": [2, 3e999]}]})") == "/a/1/b/1");
  CHECK(labrun::pointer_of_parse_error(R"({"a~b/c": -1e999})") == "/a~0b~1c");
  CHECK(labrun::pointer_of_parse_error(R"([1, 2)") == "/2");  // truncated: where the next value was due
  CHECK(labrun::pointer_of_parse_error(R"({"a": 1})").empty());

  for (const std::uint64_t integer :
       {std::uint64_t{9223372036854775808ULL}, std::uint64_t{18446744073709551615ULL}}) {
    auto beyond = valid_document();
    beyond["cases"][0]["launches_per_sample"] = integer;
    const std::string problem = problem_of(dir.path / "beyond.json", beyond.dump());
    CHECK_THAT(problem,
               ContainsSubstring("/cases/0/launches_per_sample: the integer " + std::to_string(integer) +
                                 " is larger than the 9223372036854775807 (2^63 - 1) a transcript holds"));
    CHECK(problem.find("greater than or equal") == std::string::npos);
  }
  auto largest = valid_document();
  largest["run"]["seed"] = std::uint64_t{9223372036854775807ULL};
  labrun::write_file_atomically(dir.path / "largest.json", largest.dump(), false);
  CHECK(labrun::check_transcript_file(dir.path / "largest.json", labrun::testing::registered_lab)
            .problem.empty());
}

TEST_CASE("a file name with a line break is reported on one line") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path file = dir.path / "two\nlines\t.json";
  const std::string problem = problem_of(file, "{\"schema_version\": 7}");
  CHECK_THAT(problem, ContainsSubstring("two\\nlines\\t.json: /schema_version"));
  auto key = valid_document();
  key["run"]["a\nb"] = 1;
  CHECK_THAT(problem_of(dir.path / "key.json", key.dump()), ContainsSubstring("a\\nb"));
  CHECK(labrun::check_transcript_file(dir.path / "absent\r.json", labrun::testing::registered_lab)
            .problem.find('\r') == std::string::npos);
}

TEST_CASE("a FIFO, a device and a folder are refused at once, without reading them") {
  const labrun::testing::TemporaryDirectory dir;
  const fs::path fifo = dir.path / "fifo.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THAT(labrun::check_transcript_file(fifo, labrun::testing::registered_lab).problem,
             ContainsSubstring("not a regular file"));
  CHECK_THAT(labrun::check_transcript_file("/dev/zero", labrun::testing::registered_lab).problem,
             ContainsSubstring("not a regular file"));
  CHECK_THROWS_WITH(labrun::read_file("/dev/zero"), ContainsSubstring("not a regular file"));
  CHECK_THROWS_WITH(labrun::read_file(dir.path), ContainsSubstring("not a regular file"));
}

TEST_CASE("a link to a transcript is followed, as a user would expect") {
  const labrun::testing::TemporaryDirectory dir;
  labrun::write_file_atomically(dir.path / "real.json", valid_document().dump(), false);
  fs::create_symlink(dir.path / "real.json", dir.path / "link.json");
  CHECK(labrun::check_transcript_file(dir.path / "link.json", labrun::testing::registered_lab)
            .transcript.has_value());
}

TEST_CASE("day 48's tables cope with a part-5 case the lab does not have") {
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  labrun::CaseResult stranger = t.cases.front();
  stranger.name = "day48-fusion/part5/not-a-case-of-the-lab";
  stranger.part = "part5";
  stranger.size_label = "small";
  t.cases.push_back(stranger);
  const std::vector<labrun::Table> tables = day48::render_tables(t);
  const auto part5 = std::find_if(tables.begin(), tables.end(), [](const labrun::Table& table) {
    return table.title.rfind("Part 5", 0) == 0;
  });
  REQUIRE(part5 != tables.end());
  CHECK(part5->rows.empty());
}

TEST_CASE("text from a transcript cannot open a tag, a link, a code span or a table cell in Markdown") {
  CHECK(labrun::escape_markdown("<script>alert(1)</script>") == "&lt;script>alert(1)&lt;/script>");
  CHECK(labrun::escape_markdown("a\\|b|c") == "a\\\\\\|b\\|c");
  CHECK(labrun::escape_markdown("[x](javascript:y) `z` & w") == "\\[x\\](javascript:y) \\`z\\` & w");
  CHECK(labrun::escape_markdown("n * 4 B >= 8 x L2, a < b, <!-- c -->") ==
        "n * 4 B >= 8 x L2, a < b, &lt;!-- c -->");
  CHECK(labrun::escape_markdown("line\r\nnext\ttab") == "line  next tab");
  CHECK(labrun::escape_markdown("copy_floor *k*") == "copy_floor *k*");
  CHECK(labrun::escape_markdown("&#x202E;&lt;b & c&d") == "\\&#x202E;\\&lt;b & c\\&d");
  CHECK(labrun::markdown_code_span("a`b\nc") == "`a'b c`");

  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  t.provenance_note = "<img src=x onerror=alert(1)>\r\n| forged | row |";
  t.lab_title = "Day 48 <b>";
  const std::string markdown = labrun::render_markdown(t, nullptr, "");
  CHECK(markdown.find("<img") == std::string::npos);
  CHECK(markdown.find("<b>") == std::string::npos);
  CHECK(markdown.find("\n| forged") == std::string::npos);
  CHECK(markdown.find('\r') == std::string::npos);
}

TEST_CASE("one very long cell is written once, not copied as padding into every row") {
  labrun::Table table;
  table.headers = {"what", "value"};
  table.right_aligned = {false, false};
  table.rows.push_back({"device", std::string(1 << 20, 'x')});
  for (int i = 0; i < 100; ++i) {
    table.rows.push_back({"row " + std::to_string(i), "1"});
  }
  CHECK(labrun::render_table(table).size() < (std::size_t{1} << 20) + std::size_t{100} * 500);
}

TEST_CASE("the reader keeps every object's key order and refuses a key given twice") {
  const std::string text = valid_document().dump();
  const labrun::Transcript read = labrun::transcript_from_text(text);
  CHECK(labrun::transcript_to_json(read).dump() == text);
  std::string twice = text;
  twice.insert(1, "\"lab\": {}, ");
  CHECK_THROWS_WITH(labrun::transcript_from_text(twice), ContainsSubstring("the key \"lab\" appears twice"));
}

TEST_CASE("validate names a dangling reference to a case, with its pointer") {
  const labrun::testing::TemporaryDirectory dir;
  auto stability = valid_document();
  stability["stability"]["case"] = "day48-fusion/part2/no-such-case";
  CHECK_THAT(problem_of(dir.path / "stability.json", stability.dump()),
             ContainsSubstring("/stability/case: 'day48-fusion/part2/no-such-case' at size"));
  auto prediction = valid_document();
  REQUIRE_FALSE(prediction["predictions"].empty());
  prediction["predictions"][0]["faster_case"] = "day48-fusion/part2/missing";
  CHECK_THAT(problem_of(dir.path / "prediction.json", prediction.dump()),
             ContainsSubstring("/predictions/0/faster_case: 'day48-fusion/part2/missing' names no case"));
  auto part = valid_document();
  part["cases"][0]["name"] = "day48-fusion/part9/empty-single-thread";
  CHECK_THAT(
      problem_of(dir.path / "part.json", part.dump()),
      ContainsSubstring("/cases/0/name: 'day48-fusion/part9/empty-single-thread' is not a case of lab"));
}

TEST_CASE("a size label with capitals and spaces still gives valid plot file names") {
  CHECK(labrun::plot_id_part("Big Size") == "big-size");
  CHECK(labrun::plot_id_part("--") == "x");
  labrun::Transcript t = labrun::testing::sample_day48_transcript();
  for (labrun::CaseResult& c : t.cases) {
    c.size_label = "Big Size";
  }
  const labrun::Lab lab = day48::make_lab();
  REQUIRE(lab.plots);
  const std::vector<labrun::PlotSpec> specs = lab.plots(t);
  REQUIRE_FALSE(specs.empty());
  for (const labrun::PlotSpec& spec : specs) {
    CHECK_NOTHROW(labrun::plot_file_path("/tmp", "run", spec.id, "svg"));
  }
}

TEST_CASE("every input that ever broke a reader is read to a one-line problem or rendered") {
  // tests/fuzz/regressions: what the fuzzer (the fuzz preset) or a person once found.
  const fs::path folder = labrun::testing::repository_root() / "tests" / "fuzz" / "regressions";
  std::size_t inputs = 0;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() != ".json") {
      continue;
    }
    ++inputs;
    INFO(entry.path().filename().string());
    const labrun::TranscriptCheck check =
        labrun::check_transcript_file(entry.path(), labrun::testing::registered_lab);
    if (check.transcript) {
      const labrun::Lab* lab = labrun::registered_labs().find(check.transcript->lab_name);
      CHECK_FALSE(labrun::render_markdown(*check.transcript, lab, "").empty());
    } else {
      CHECK(check.problem.find('\n') == std::string::npos);
    }
  }
  CHECK(inputs >= 5);
}
