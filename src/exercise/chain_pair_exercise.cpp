// A chain pair's records and their judge (chain_pair_exercise.hpp): host logic only.

#include "exercise/chain_pair_exercise.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "base/format.hpp"
#include "exercise/child_protocol.hpp"
#include "exercise/child_session.hpp"
#include "exercise/judge.hpp"
#include "exercise/probe_rows.hpp"

namespace labrun {
namespace {

using RecordJson = nlohmann::ordered_json;
using Records = std::vector<ChainPairRecord>;

template <typename T>
RecordJson optional_to_json(const std::optional<T>& value) {
  return value ? RecordJson(*value) : RecordJson(nullptr);
}

RecordJson output_to_json(const ChainOutputInspection& o) {
  RecordJson compositions = RecordJson::object();
  for (const CompositionMatch& m : o.compositions) {
    compositions[m.composition] = m.matching;
  }
  return RecordJson{
      {"elements", o.elements},
      {"mismatches", o.mismatches},
      {"unwritten", o.unwritten},
      {"trailing_unwritten", o.trailing_unwritten},
      {"non_finite", o.non_finite},
      {"max_abs_error", any_double(o.max_abs_error)},
      {"first_bad_index", optional_to_json(o.first_bad_index)},
      {"first_bad_got", o.first_bad_got ? any_double(*o.first_bad_got) : RecordJson(nullptr)},
      {"first_bad_expected", o.first_bad_expected ? any_double(*o.first_bad_expected) : RecordJson(nullptr)},
      {"compositions", compositions}};
}

ChainOutputInspection output_from_json(const RecordJson& j) {
  ChainOutputInspection o;
  o.elements = j.at("elements").get<std::uint64_t>();
  o.mismatches = j.at("mismatches").get<std::uint64_t>();
  o.unwritten = j.at("unwritten").get<std::uint64_t>();
  o.trailing_unwritten = j.at("trailing_unwritten").get<std::uint64_t>();
  o.non_finite = j.at("non_finite").get<std::uint64_t>();
  o.max_abs_error = any_double_from(j.at("max_abs_error"));
  if (!j.at("first_bad_index").is_null()) {
    o.first_bad_index = j.at("first_bad_index").get<std::uint64_t>();
  }
  if (!j.at("first_bad_got").is_null()) {
    o.first_bad_got = any_double_from(j.at("first_bad_got"));
  }
  if (!j.at("first_bad_expected").is_null()) {
    o.first_bad_expected = any_double_from(j.at("first_bad_expected"));
  }
  for (const auto& item : j.at("compositions").items()) {
    o.compositions.push_back({item.key(), item.value().get<std::uint64_t>()});
  }
  return o;
}

// ---- the judge ----------------------------------------------------------------------------------

class ChainPairJudge {
 public:
  explicit ChainPairJudge(const ChainPairDeclaration& d) : d_(d), w_(d.words) {}

  // The output at both sizes in the calls that are not timed (the card size's "wrong at the large
  // size" needs the odd size's first call right), the structure and the buffers.
  void judge(ProbeJudging& in, const ChainPairNames& names) const {
    ProbeRowJudges<ChainPairRecord> judges;
    judges.read = [names](const RecordJson& record) { return chain_pair_record_from_json(record, names); };
    judges.output_wrong = [](const ChainPairRecord& p) { return !p.output.passed(); };
    judges.size = [this](GradeReport& report, const Records& records, const std::string& size,
                         bool /*odd_right*/, std::string& finding) {
      const ChainPairRecord* first = record_at(records, "odd", "alone");
      return judge_size(report, records, size, first != nullptr && first->output.passed(), finding);
    };
    judges.structure = [this](GradeReport& report, const Records& records, std::string& finding) {
      return judge_structure(report, records, finding);
    };
    judges.buffers = [this](GradeReport& report, const Records& records, std::string& finding) {
      return judge_buffers(report, records, finding);
    };
    judge_probe_rows(kChainPairProbes, in, judges);
  }

 private:
  static std::string first_bad(const ChainOutputInspection& o) {
    if (!o.first_bad_index) {
      return "";
    }
    const double got = o.first_bad_got.value_or(0.0);
    return "; first bad element " + std::to_string(*o.first_bad_index) + ": got " +
           (std::isnan(got) ? std::string("NaN") : scientific(got)) + ", expected " +
           scientific(o.first_bad_expected.value_or(0.0));
  }

  static std::string where(const ChainPairRecord& p) {
    const std::string how = p.probe == "alone"          ? "run alone"
                            : p.probe == "after-staged" ? "run after the staged chain"
                            : p.probe == "timed"        ? "a timed call"
                                                        : "second kernel on a planted intermediate";
    return "n = " + std::to_string(p.elements) + ", " + how + " (call " + std::to_string(p.call) + ")";
  }

  // Whether the output followed the input that replaced the call's own before its second kernel ran.
  [[nodiscard]] bool follows_replaced_input(const ChainPairRecord& p) const {
    return static_cast<double>(p.matches_chain_of_input) >=
           d_.match_share * static_cast<double>(p.output.elements);
  }

  // Names what is wrong with an output that failed its check, from what the grader's kernels counted.
  void diagnose_output(GradeReport& report, const ChainOutputInspection& o, const std::string& at) const {
    const std::uint64_t n = o.elements;
    if (o.unwritten == n) {
      add_mistake(report, "output-unwritten",
                  "no element of " + w_.output + " was written (" + at +
                      "): the second kernel must store its result in " + w_.output +
                      "[i] for every i in [0, n)");
      return;
    }
    if (o.unwritten > 0 && o.unwritten == o.trailing_unwritten && o.mismatches == o.unwritten) {
      add_mistake(report, "tail-missed",
                  "the last " + std::to_string(o.unwritten) + " of " + std::to_string(n) +
                      " elements were never written (" + at +
                      "): the grid must cover every element; at an odd n the last block is a partial one");
      return;
    }
    if (o.non_finite > 0) {
      add_mistake(report, "nan-output",
                  std::to_string(o.non_finite) +
                      " outputs are NaN or infinite although every reference value is finite (" + at +
                      "): look for a division by zero, or a read of memory the kernel did not write");
      return;
    }
    const CompositionMatch* best = nullptr;
    for (const CompositionMatch& m : o.compositions) {
      if (best == nullptr || m.matching > best->matching) {
        best = &m;
      }
    }
    if (best != nullptr && static_cast<double>(best->matching) >= d_.match_share * static_cast<double>(n)) {
      for (const ChainComposition& c : d_.compositions) {
        if (c.name == best->composition) {
          add_mistake(report, c.mistake, c.explanation);
          return;
        }
      }
    }
    add_mistake(report, "wrong-output",
                count_of(o.mismatches, "element") + " of " + w_.output +
                    " differ from the float64 reference (" + at + ")" + first_bad(o));
  }

  // Correctness at one size: the run alone and the run after the staged chain must both be right;
  // names the mistake when they are not.
  bool judge_size(GradeReport& report, const Records& results, const std::string& size, bool first_call_right,
                  std::string& finding) const {
    const ChainPairRecord* alone = record_at(results, size, "alone");
    const ChainPairRecord* after = record_at(results, size, "after-staged");
    if (alone == nullptr || after == nullptr) {
      return false;
    }
    const bool alone_right = alone->output.passed();
    const bool after_right = after->output.passed();
    const auto line = [](const ChainPairRecord& p) {
      return (p.probe == "alone" ? std::string("alone: ") : std::string("after the staged chain: ")) +
             count_of(p.output.mismatches, "element") + " wrong, max abs error " +
             scientific(p.output.max_abs_error) + first_bad(p.output);
    };
    finding = "n = " + std::to_string(alone->elements) + ", " + line(*alone) + "; " + line(*after);
    if (!alone_right && after_right) {
      add_mistake(
          report, "depends-on-staged-chain",
          "the output is right only after the staged chain has run: run alone, with the staged chain's "
          "buffers poisoned, " +
              count_of(alone->output.mismatches, "element") + " were wrong (" + where(*alone) +
              "). Something is read that the staged chain left behind, not " + w_.intermediate +
              " the first kernel wrote");
    } else if (alone_right && !after_right) {
      add_mistake(
          report, "wrong-on-later-calls",
          "the first run at this size was right, a later one on new inputs was wrong (" + where(*after) +
              ", " + count_of(after->output.mismatches, "element") +
              " wrong): the kernels must compute from their inputs on every call and keep nothing between "
              "calls");
    } else if (!alone_right && follows_replaced_input(*alone)) {
      // the structure's mistake says why: the second kernel reads the first kernel's input
    } else if (!alone_right) {
      if (size != "odd" && first_call_right) {
        add_mistake(
            report, "wrong-at-large-size",
            "right at the odd size but wrong at n = " + std::to_string(alone->elements) +
                ": look at index arithmetic that overflows and at a grid that does not cover every element");
      }
      diagnose_output(report, alone->output, where(*alone));
    }
    return alone_right && after_right;
  }

  // Structure: two kernels with one intermediate between them, measured, never declared: in every
  // probe, and in the first timed call that did not leave the first stages' output in the
  // intermediate (last in `records`, where timed_record_to_judge admits it).
  bool judge_structure(GradeReport& report, const Records& records, std::string& finding) const {
    bool good = true;
    for (const ChainPairRecord& p : records) {
      if (p.intermediate) {
        if (p.intermediate->unwritten > 0) {
          good = false;
          add_mistake(report, "intermediate-unwritten",
                      "the first kernel left " + count_of(p.intermediate->unwritten, "element") + " of " +
                          w_.intermediate + " unwritten (" + where(p) + "): it must store " +
                          w_.first_stages +
                          "'s result for every element, and the second kernel must read it from there");
        } else if (p.intermediate->mismatches > 0) {
          good = false;
          add_mistake(report, "intermediate-not-" + dashed(w_.first_stages),
                      "after the first kernel, " + count_of(p.intermediate->mismatches, "element") + " of " +
                          w_.intermediate + " are not " + w_.first_formula + " (" + where(p) +
                          "): " + w_.stage_split);
        }
      }
      if (!p.staged_buffers_written.empty()) {
        good = false;
        std::string names;
        for (const std::string& t : p.staged_buffers_written) {
          names += (names.empty() ? "" : ", ") + t;
        }
        add_mistake(report, "uses-staged-buffer",
                    "the submission wrote the staged chain's buffer " + names + " (" + where(p) +
                        "): " + w_.pair + " has its own intermediate and touches nothing else");
      }
    }
    // The input is replaced before every probe's second kernel: an output that follows the replaced
    // input was read from it, in any probe.
    for (const ChainPairRecord& p : records) {
      if (p.probe != "timed" && !p.output.passed() && follows_replaced_input(p)) {
        good = false;
        add_mistake(report, "second-kernel-reads-" + w_.input,
                    "with " + w_.input + " replaced by other inputs after the first kernel ran, " +
                        w_.output + " followed " + w_.input + ", not " + w_.intermediate + " (" + where(p) +
                        "): the second kernel reads " + w_.input +
                        ", which only the first kernel may read; compute " + w_.output + " from " +
                        w_.intermediate + " and " + w_.second);
      }
    }
    for (const std::string size : {"odd", "card-scaled"}) {
      const ChainPairRecord* planted = record_at(records, size, "planted");
      const ChainPairRecord* alone = record_at(records, size, "alone");
      if (planted == nullptr || alone == nullptr || planted->output.passed()) {
        continue;
      }
      good = false;
      if (!alone->output.passed() || follows_replaced_input(*planted)) {
        continue;  // already wrong on its own, or reading the input: the mistakes above say why
      }
      add_mistake(report, "second-kernel-ignores-intermediate",
                  "with " + w_.intermediate + " replaced by " + w_.first_stages +
                      "'s output of other inputs, " + w_.output + " did not follow it (" + where(*planted) +
                      ", " + count_of(planted->output.mismatches, "element") +
                      " wrong): the second kernel must compute " + w_.output + " from " + w_.intermediate +
                      " and " + w_.second);
    }
    finding = good ? "the first kernel writes " + w_.first_stages + "'s output to every element of " +
                         w_.intermediate + ", the second computes " + w_.output + " from it and " +
                         w_.second + " alone, and no staged buffer is touched"
                   : "see the mistakes above";
    return good;
  }

  bool judge_buffers(GradeReport& report, const Records& results, std::string& finding) const {
    bool inside = true;
    bool inputs = true;
    const auto outside = [&](std::uint64_t changed, const std::string& buffer, const std::string& at) {
      if (changed > 0) {
        inside = false;
        add_mistake(report, "write-past-n",
                    count_of(changed, "word") + " outside elements [0, n) of " + buffer + " changed (" + at +
                        "): every index a kernel stores to must lie in [0, n); check the bounds test, i < n, "
                        "in both kernels");
      }
    };
    for (const ChainPairRecord& p : results) {
      outside(p.guards.output, w_.output, where(p));
      outside(p.guards.intermediate, w_.intermediate, where(p));
      if (p.input_elements_changed > 0 || p.guards.input > 0 || p.guards.second > 0) {
        inputs = false;
        add_mistake(report, "input-modified",
                    w_.input + " or " + w_.second + " changed during the run (" + where(p) +
                        "): the inputs are read-only");
      }
    }
    // Everything else the grading child owns (its other buffers, their guards, its counters),
    // digested before and after each launch: a store far past every guard lands there.
    for (const ChainPairRecord& p : results) {
      if (p.launches_writing_outside > 0) {
        inside = false;
        add_mistake(report, "write-outside-buffers",
                    "device memory the kernels were not given changed (" + where(p) +
                        "): a store landed outside every buffer passed to them, past their guards; every "
                        "index a kernel stores to must lie in [0, n) of its own output");
      }
    }
    finding = std::string(inside ? "nothing written outside [0, n)" : "a write outside [0, n)") +
              ", inputs " + (inputs ? "unchanged" : "modified");
    return inside && inputs;
  }

  // "stage 2" as a mistake id's part: "stage-2".
  static std::string dashed(std::string words) {
    for (char& c : words) {
      c = c == ' ' ? '-' : c;
    }
    return words;
  }

  const ChainPairDeclaration& d_;
  const ChainPairWords& w_;
};

void refuse_unless(bool holds, const std::string& exercise, const std::string& what) {
  if (!holds) {
    throw std::invalid_argument("exercise '" + exercise + "': " + what);
  }
}

}  // namespace

ChainPairNames chain_pair_names(const Exercise& ex) {
  refuse_unless(
      ex.kernels.size() == 2 && ex.kernels[0].parameters.size() == 3 && ex.kernels[1].parameters.size() == 4,
      ex.name, "a chain pair's contract is two kernels of 3 and 4 parameters");
  const std::vector<ContractParameter>& first = ex.kernels[0].parameters;
  const std::vector<ContractParameter>& second = ex.kernels[1].parameters;
  const auto is = [](const ContractParameter& p, const char* type) { return p.type == type; };
  refuse_unless(is(first[0], "const float*") && is(first[1], "float*") && is(second[0], "const float*") &&
                    is(second[1], "const float*") && is(second[2], "float*") && first[2].bytes == 8 &&
                    second[3].bytes == 8 && first[1].name == second[0].name,
                ex.name,
                "a chain pair's kernels are (const float* input, float* intermediate, std::size_t n) and "
                "(const float* intermediate, const float* second, float* output, std::size_t n)");
  return {first[0].name, first[1].name, second[1].name, second[2].name};
}

RecordJson to_json(const ChainPairRecord& p, const ChainPairNames& names) {
  return RecordJson{{"size_label", p.size_label},
                    {"probe", p.probe},
                    {"elements", p.elements},
                    {"call", p.call},
                    {"output", output_to_json(p.output)},
                    {"intermediate", p.intermediate ? RecordJson{{"unwritten", p.intermediate->unwritten},
                                                                 {"mismatches", p.intermediate->mismatches}}
                                                    : RecordJson(nullptr)},
                    {"guards", RecordJson{{names.output, p.guards.output},
                                          {names.intermediate, p.guards.intermediate},
                                          {names.input, p.guards.input},
                                          {names.second, p.guards.second}}},
                    {"input_elements_changed", p.input_elements_changed},
                    {"staged_buffers_written", p.staged_buffers_written},
                    {"matches_chain_of_" + names.input, p.matches_chain_of_input},
                    {"launches_writing_outside", p.launches_writing_outside}};
}

ChainPairRecord chain_pair_record_from_json(const RecordJson& j, const ChainPairNames& names) {
  ChainPairRecord p;
  p.size_label = j.at("size_label").get<std::string>();
  p.probe = j.at("probe").get<std::string>();
  p.elements = j.at("elements").get<std::uint64_t>();
  p.call = j.at("call").get<int>();
  p.output = output_from_json(j.at("output"));
  if (!j.at("intermediate").is_null()) {
    p.intermediate = ChainIntermediateInspection{j.at("intermediate").at("unwritten").get<std::uint64_t>(),
                                                 j.at("intermediate").at("mismatches").get<std::uint64_t>()};
  }
  const RecordJson& g = j.at("guards");
  p.guards = {g.at(names.output).get<std::uint64_t>(), g.at(names.intermediate).get<std::uint64_t>(),
              g.at(names.input).get<std::uint64_t>(), g.at(names.second).get<std::uint64_t>()};
  p.input_elements_changed = j.at("input_elements_changed").get<std::uint64_t>();
  p.staged_buffers_written = j.at("staged_buffers_written").get<std::vector<std::string>>();
  p.matches_chain_of_input = j.at("matches_chain_of_" + names.input).get<std::uint64_t>();
  p.launches_writing_outside = j.at("launches_writing_outside").get<std::uint64_t>();
  return p;
}

Exercise chain_pair_exercise(Exercise base, ChainPairDeclaration declaration) {
  const ChainPairNames names = chain_pair_names(base);
  const ChainPairChecks& c = declaration.checks;
  refuse_unless(c.generate_inputs != nullptr && c.plant_intermediate != nullptr &&
                    c.inspect_output != nullptr && c.inspect_intermediate != nullptr &&
                    c.count_input_changes != nullptr && c.expected_at != nullptr,
                base.name, "a chain pair's declaration needs its checks (chain_pair_checks.cuh)");
  refuse_unless(static_cast<int>(declaration.compositions.size()) == c.compositions, base.name,
                "every wrong composition the checks count needs its name and mistake");
  refuse_unless(
      static_cast<bool>(declaration.launch_lab_case) && declaration.staged_case < base.lab_cases.size(),
      base.name, "a chain pair's declaration needs its lab cases' launcher and its staged chain among them");
  const auto shared = std::make_shared<const ChainPairDeclaration>(std::move(declaration));
  base.probes = kChainPairProbes;
  base.judge_probes = [shared, names](ProbeJudging& in) { ChainPairJudge(*shared).judge(in, names); };
  base.record_checks.probe = [names](const RecordJson& record) {
    static_cast<void>(chain_pair_record_from_json(record, names));
  };
  base.record_checks.inspection = base.record_checks.probe;
  base.child = [shared, names](ChildSession& session) { return chain_pair_child(session, shared, names); };
  return base;
}

}  // namespace labrun
