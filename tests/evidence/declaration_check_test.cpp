// A transcript of a lab this labrun knows, checked against that lab's declaration
// (src/evidence/declaration_check.hpp): each field a forger would change by hand, one at a time, on a
// committed measured transcript of the current version, is refused with its JSON pointer; the same
// verdicts forged under an older schema version are shown as recorded and unchecked, never counted.

#include "evidence/declaration_check.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "aggregate/aggregate.hpp"
#include "base/atomic_file.hpp"
#include "base/format.hpp"
#include "claims/claims.hpp"
#include "core/transcript.hpp"
#include "evidence/transcript_file.hpp"
#include "evidence/transcript_json.hpp"
#include "support/temporary_directory.hpp"
#include "support/test_data.hpp"

using Catch::Matchers::ContainsSubstring;
namespace fs = std::filesystem;

namespace {

using Document = nlohmann::ordered_json;

// A committed 1.11.0 run as 1.12.0 reads it: 1.12.0 adds only each claim's reading on GPU time alone
// (claims[].gpu_alone), which a run judges only in hot timing under the rule its interval_method states
// (2026-12-05 on); a run judged so gives the reading in the claim's detail, and this build's judgement
// of its gated samples, which the check below holds the field to, is the one the detail gives.
Document as_1_12_0(Document document) {
  REQUIRE(document["schema_version"] == "1.11.0");
  document["schema_version"] = labrun::kTranscriptSchemaVersion;
  const labrun::Transcript t = labrun::transcript_from_text(document.dump());
  const labrun::Lab* lab = labrun::testing::registered_lab(t.lab_name);
  REQUIRE(lab != nullptr);
  const std::vector<labrun::ClaimResult> judged = labrun::evaluate_claims(lab->claims, t);
  for (Document& claim : document["claims"]) {
    const std::string id = claim["id"].get<std::string>();
    const auto same =
        std::find_if(judged.begin(), judged.end(), [&](const labrun::ClaimResult& c) { return c.id == id; });
    REQUIRE(same != judged.end());
    claim["gpu_alone"] = nullptr;
    if (same->gpu_alone) {
      claim["gpu_alone"] = {{"measured", same->gpu_alone->measured},
                            {"measured_interval",
                             {{"low", same->gpu_alone->measured_interval.low},
                              {"high", same->gpu_alone->measured_interval.high}}},
                            {"verdict", labrun::verdict_name(same->gpu_alone->verdict)}};
    }
  }
  return document;
}

// A committed older H200 run as the current version reads it, for a lab with no run of the current
// version committed (day 34): 1.9.0 adds only the process allowance, and a 1.8.0 run's intervals are
// those of an allowance of 0; 1.10.0 adds only each case's figure, and a 1.8.0 run's figures are its
// samples' medians (figure_ms null); 1.11.0 adds only the small cases' rounds, and in a 1.8.0 run every
// case took the run's rounds (small_case_rounds = rounds, their rule the round rule) in the contexts its
// rounds record (units); 1.12.0 adds only the GPU-alone reading (as_1_12_0), which no 1.8.0 run judged.
// So the run relabelled so is a current transcript its claims still agree with. Only a transcript of
// the current version is held to today's rules (an older one's departures are unchecked, not forged).
Document as_current(Document document) {
  document["schema_version"] = labrun::kTranscriptSchemaVersion;
  for (Document& claim : document["claims"]) {
    claim["gpu_alone"] = nullptr;
  }
  document["timing"]["process_allowance"] = 0.0;
  document["timing"]["small_case_rounds"] = document["timing"]["rounds"];
  document["timing"]["small_case_rounds_max_elements"] = 0;
  document["timing"]["small_case_round_rule"] = document["timing"]["round_rule"];
  for (Document& c : document["cases"]) {
    if (c.contains("samples_ms")) {
      c["figure_ms"] = nullptr;
      std::set<int> contexts;
      for (const Document& round : c["rounds"]) {
        contexts.insert(round["context"].get<int>());
      }
      c["units"] = contexts.size();
    }
  }
  return document;
}

// The day-20 H200 run of 2026-12-04 17:09Z (1.11.0 as 1.12.0 reads it, its claims judged picking on
// the run): measured, with image shapes, claims judged over its CUDA contexts, a roofline and a
// prediction measured at two sizes.
Document current_day20_run() {
  return as_1_12_0(Document::parse(labrun::read_evidence_text(labrun::testing::evidence_folder() /
                                                              "day20-sobel-threshold" / "nvidia-h200" /
                                                              "2026-12-04T17-09-48Z.json.gz")));
}

// A day-48 H200 run of schema 1.5.0 whose claims include failed ones.
Document day48_run_of_1_5_0() {
  return Document::parse(labrun::read_evidence_text(labrun::testing::evidence_folder() / "day48-fusion" /
                                                    "nvidia-h200" / "2026-12-01T05-42-33Z.json.gz"));
}

labrun::TranscriptCheck declaration_check_of(const fs::path& dir, const std::string& name,
                                             const Document& document) {
  const fs::path file = dir / name;
  labrun::write_file_atomically(file, document.dump(1), true);
  return labrun::check_transcript_file(file, labrun::testing::registered_lab);
}

struct Forgery {
  std::string what;
  std::function<void(Document&)> edit;
  std::string pointer;  // where the refusal must point
};

// Each forgery applied alone to `original`, written as `name`: refused, at its pointer.
void check_forgeries(const fs::path& dir, const Document& original, const std::string& name,
                     const std::vector<Forgery>& forgeries) {
  for (const Forgery& forgery : forgeries) {
    INFO(forgery.what);
    Document forged = original;
    forgery.edit(forged);
    const labrun::TranscriptCheck check = declaration_check_of(dir, name, forged);
    CHECK_FALSE(check.transcript.has_value());
    CHECK_THAT(check.problem, ContainsSubstring(name + ": " + forgery.pointer));
  }
}

}  // namespace

TEST_CASE(
    "every field of a claim, a size, a prediction or the roofline forged by hand is refused at its pointer") {
  const labrun::testing::TemporaryDirectory dir;
  REQUIRE(current_day20_run()["schema_version"] == labrun::kTranscriptSchemaVersion);
  const labrun::TranscriptCheck untouched =
      declaration_check_of(dir.path, "untouched.json", current_day20_run());
  REQUIRE(untouched.problem == "");
  CHECK(untouched.declaration.lab_known);
  CHECK(untouched.declaration.unchecked.empty());

  const std::vector<Forgery> forgeries{
      {"a bound widened to hold anything",
       [](Document& d) {
         d["claims"][0]["bound"] = {{"low", 0.0}, {"high", 1e9}};
       },
       "/claims/0/bound_low"},
      {"an expectation moved to the measured figure", [](Document& d) { d["claims"][0]["expected"] = 1.52; },
       "/claims/0/expected"},
      {"a tolerance widened", [](Document& d) { d["claims"][0]["tolerance"] = "within 95% of 2.60"; },
       "/claims/0/tolerance"},
      {"a statement reworded",
       [](Document& d) { d["claims"][1]["statement"] = "Launch cost does not matter here"; },
       "/claims/1/statement"},
      {"the figures a claim reads renamed",
       [](Document& d) { d["claims"][0]["figures"] = "median time of the staged case at the lesson size"; },
       "/claims/0/figures"},
      {"a detail that tells another story",
       [](Document& d) { d["claims"][0]["detail"] = "2.60, as the byte ratio predicts"; },
       "/claims/0/detail"},
      {"a basis that was not the rounds'", [](Document& d) { d["claims"][2]["verdict_basis"] = "point"; },
       "/claims/2/verdict_basis"},
      {"a failed claim the lesson supposedly hedged on",
       [](Document& d) { d["claims"][0]["expected_to_fail"] = true; }, "/claims/0/expected_to_fail"},
      {"a claim recorded twice", [](Document& d) { d["claims"].push_back(d["claims"][2]); }, "/claims/3/id"},
      {"a failed claim deleted", [](Document& d) { d["claims"].erase(0); }, "/claims"},
      {"a verdict turned", [](Document& d) { d["claims"][0]["verdict"] = "held"; }, "/claims/0/verdict"},
      {"correctness diluted over more elements than were checked",
       [](Document& d) { d["correctness"]["checks"][0]["elements"] = 1000000000; },
       "/correctness/checks/0/elements"},
      {"an image of 1x1",
       [](Document& d) {
         d["cases"][0]["shape"] = {{"width", 1}, {"height", 1}};
       },
       "/cases/0/shape"},
      {"a roofline naming a case that does not exist",
       [](Document& d) {
         d["roofline"]["memory_ceiling_cases"][0] = "day20-sobel-threshold/card/no-such-copy";
       },
       "/roofline"},
      {"a prediction deleted", [](Document& d) { d["predictions"].erase(0); }, "/predictions"},
      {"a prediction's measured ratios removed",
       [](Document& d) { d["predictions"][0]["measured"] = Document::array(); }, "/predictions/0/measured"},
  };
  check_forgeries(dir.path, current_day20_run(), "forged.json", forgeries);

  // A bound's words from before 1.8.0 are accepted only in a transcript older than 1.8.0: in the
  // day-48 H200 run of 2026-12-04 17:09Z (cold, 1.11.0 as 1.12.0 reads it), "no case faster by more
  // than 2%" for "at least 0.98" is forged.
  Document day48 = as_1_12_0(Document::parse(labrun::read_evidence_text(
      labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200" / "2026-12-04T17-09-29Z.json.gz")));
  REQUIRE(day48["schema_version"] == labrun::kTranscriptSchemaVersion);
  REQUIRE(day48["claims"][4]["id"] == "widening-does-not-make-it-faster");
  REQUIRE(declaration_check_of(dir.path, "day48.json", day48).problem == "");
  Document old_words = day48;
  old_words["claims"][4]["tolerance"] = "no case faster by more than 2%";
  CHECK_THAT(declaration_check_of(dir.path, "day48-old-words.json", old_words).problem,
             ContainsSubstring("day48-old-words.json: /claims/4/tolerance"));
  // The launch-cost claim picks its size on the run and reads that size's contexts: an interval
  // widened past what they give is forged.
  REQUIRE(day48["claims"][3]["id"] == "staged-launch-cost-converges-to-an-empty-launch");
  Document widened = day48;
  widened["claims"][3]["measured_interval"]["high"] =
      1.1 * day48["claims"][3]["measured_interval"]["high"].get<double>();
  CHECK_THAT(declaration_check_of(dir.path, "day48-widened.json", widened).problem,
             ContainsSubstring("day48-widened.json: /claims/3/measured_interval"));

  // The reading on GPU time alone (1.12.0), on the day-48 H200 hot run of 2026-12-05 22:21Z (1.11.0 as
  // 1.12.0 reads it), whose first claim was judged on its cases' gated samples too: the field holds
  // what the detail gives to 3 decimals, and a reading moved, turned, deleted or given to a claim
  // judged on its hot samples alone is forged.
  const Document hot = as_1_12_0(Document::parse(labrun::read_evidence_text(
      labrun::testing::evidence_folder() / "day48-fusion" / "nvidia-h200" / "2026-12-05T22-21-27Z.json.gz")));
  REQUIRE(declaration_check_of(dir.path, "hot.json", hot).problem == "");
  const Document& reading = hot["claims"][0]["gpu_alone"];
  REQUIRE(reading.is_object());
  CHECK_THAT(hot["claims"][0]["detail"].get<std::string>(),
             ContainsSubstring("on GPU time alone (its cases' gated samples): " +
                               labrun::fixed(reading["measured"].get<double>(), 3) + " (" +
                               labrun::fixed(reading["measured_interval"]["low"].get<double>(), 3) + " to " +
                               labrun::fixed(reading["measured_interval"]["high"].get<double>(), 3) + "), " +
                               reading["verdict"].get<std::string>()));
  REQUIRE(hot["claims"][1]["gpu_alone"].is_null());
  const std::vector<Forgery> reading_forgeries{
      {"the gated figure moved to the bound's middle",
       [](Document& d) {
         d["claims"][0]["gpu_alone"]["measured"] =
             1.01 * d["claims"][0]["gpu_alone"]["measured"].get<double>();
       },
       "/claims/0/gpu_alone"},
      {"the gated interval narrowed",
       [](Document& d) {
         d["claims"][0]["gpu_alone"]["measured_interval"]["high"] =
             d["claims"][0]["gpu_alone"]["measured"].get<double>();
       },
       "/claims/0/gpu_alone"},
      {"the gated verdict turned",
       [](Document& d) {
         d["claims"][0]["gpu_alone"]["verdict"] =
             d["claims"][0]["gpu_alone"]["verdict"] == "held" ? "inconclusive" : "held";
       },
       "/claims/0/gpu_alone"},
      {"the gated reading deleted", [](Document& d) { d["claims"][0]["gpu_alone"] = nullptr; },
       "/claims/0/gpu_alone"},
      {"a gated reading given to a claim judged on its hot samples alone",
       [](Document& d) { d["claims"][1]["gpu_alone"] = d["claims"][0]["gpu_alone"]; }, "/claims/1/gpu_alone"},
  };
  check_forgeries(dir.path, hot, "forged-hot.json", reading_forgeries);

  // A lab's own figures (1.8.0), on the day-34 H200 run (as the current version): a count of loads,
  // and a formula's value.
  const Document day34 = as_current(
      Document::parse(labrun::read_evidence_text(labrun::testing::evidence_folder() / "day34-stencil-tile" /
                                                 "nvidia-h200" / "2026-12-03T11-22-31Z.json.gz")));
  REQUIRE(declaration_check_of(dir.path, "day34.json", day34).problem == "");
  const std::vector<Forgery> figure_forgeries{
      {"the naive stencil's loads counted as the tile's",
       [](Document& d) { d["cases"][0]["declared_figures"][0]["value"] = 1.328125; },
       "/cases/0/declared_figures/0/value"},
      {"a formula's value doubled",
       [](Document& d) {
         d["cases"][0]["declared_figures"][1]["value"] =
             2.0 * d["cases"][0]["declared_figures"][1]["value"].get<double>();
       },
       "/cases/0/declared_figures/1/value"},
      {"a count's source reworded",
       [](Document& d) { d["cases"][0]["declared_figures"][0]["source"] = "measured by ncu"; },
       "/cases/0/declared_figures/0/source"},
      {"a declared figure deleted", [](Document& d) { d["cases"][0]["declared_figures"].erase(0); },
       "/cases/0/declared_figures"},
  };
  check_forgeries(dir.path, day34, "forged-day34.json", figure_forgeries);
}

TEST_CASE(
    "verdicts forged under an older schema version are shown as recorded and unchecked, never counted") {
  const labrun::testing::TemporaryDirectory dir;
  Document forged = day48_run_of_1_5_0();
  std::vector<std::string> turned;
  for (Document& claim : forged["claims"]) {
    if (claim["verdict"] == "failed") {
      claim["verdict"] = "held";
      turned.push_back(claim["id"].get<std::string>());
    }
  }
  REQUIRE(turned.size() >= 2);
  // At its own version (1.5.0), whose claims today's rules judge: refused.
  const labrun::TranscriptCheck at_its_version = declaration_check_of(dir.path, "at-1.5.0.json", forged);
  CHECK_FALSE(at_its_version.transcript.has_value());
  CHECK_THAT(at_its_version.problem,
             ContainsSubstring("/verdict: \"held\", where the transcript's own figures give "
                               "\"failed\""));

  // Claimed to be 1.4.0, the newer group deleted: valid, but every turned verdict is unchecked.
  forged["schema_version"] = "1.4.0";
  forged.erase("timeline");
  const fs::path file = dir.path / "claims-1.4.0.json";
  labrun::write_file_atomically(file, forged.dump(1), true);
  const labrun::TranscriptCheck older = labrun::check_transcript_file(file, labrun::testing::registered_lab);
  REQUIRE(older.problem == "");
  for (const std::string& id : turned) {
    INFO(id);
    CHECK_FALSE(older.declaration.claim_checked(id));
  }
  // aggregate counts none of them as held: each is a recorded, unchecked run.
  const labrun::Aggregate aggregate =
      labrun::aggregate_transcripts({{file, false}}, {}, labrun::testing::registered_lab);
  REQUIRE(aggregate.labs.size() == 1);
  REQUIRE(aggregate.labs[0].cards.size() == 1);
  for (const labrun::ClaimTally& tally : aggregate.labs[0].cards[0].claims) {
    if (std::find(turned.begin(), turned.end(), tally.id) != turned.end()) {
      INFO(tally.id);
      CHECK(tally.held == 0);
      CHECK(tally.unchecked == 1);
    }
  }
  // validate says so, in its one line.
  const labrun::TranscriptCheck again = labrun::check_transcript_file(file, labrun::testing::registered_lab);
  CHECK(again.declaration.unchecked.front().reason.find("recorded, unchecked") != std::string::npos);
}

TEST_CASE(
    "a lab this labrun does not know has every recorded claim unchecked, and claims are re-judged from "
    "1.5.0") {
  labrun::Transcript t;
  t.lab_name = "day99-unknown";
  t.claims = {labrun::ClaimResult{"some-claim", "a claim", "figures", labrun::Verdict::kHeld, 1.0, 1.0, "",
                                  false, ""}};
  const labrun::DeclarationCheck check = labrun::check_against_declaration(t, nullptr);
  CHECK_FALSE(check.lab_known);
  CHECK_FALSE(check.claim_checked("some-claim"));
  REQUIRE(check.unchecked.size() == 1);
  CHECK(check.unchecked.front().pointer == "/claims/0");
  CHECK(labrun::claims_rejudged("1.5.0"));
  CHECK(labrun::claims_rejudged("1.10.0"));
  CHECK_FALSE(labrun::claims_rejudged("1.4.0"));
}
