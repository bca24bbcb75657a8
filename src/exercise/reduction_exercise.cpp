// A reduction exercise's records and their judge (reduction_exercise.hpp): host logic only. On
// counted inputs every correct float32 total is exact, so how a wrong output differs from the
// reference says what happened.

#include "exercise/reduction_exercise.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "base/format.hpp"
#include "exercise/child_session.hpp"
#include "exercise/judge.hpp"
#include "exercise/probe_rows.hpp"

namespace labrun {
namespace {

using Json = nlohmann::ordered_json;
using Record = ReductionRecord;

std::string at(const Record& p) {
  return "n = " + std::to_string(p.elements) + ", " + p.probe + " (call " + std::to_string(p.call) + ")";
}

// Whether `value` is a total of whole terms of counted inputs: a whole multiple of the granule.
bool whole_granules(CountedTerm term, double value) {
  const double granules = term == CountedTerm::kSquare ? 16.0 : 4.0;
  return std::isfinite(value) && std::fabs(value * granules - std::round(value * granules)) == 0.0;
}

// Whether a wrong output is the reference on the input that replaced the call's own before the
// finish ran: the finish read the input.
bool follows_replaced_input(const Record& p) {
  return p.output_written() && !p.right() && p.got() == p.replaced_input;
}

// Whether the output, and every partial it was made of, is a total of whole terms of counted
// inputs: the partials all whole, and the output their total. An output scaled up from some of the
// elements is not, wherever it was scaled: its partials, or its total.
bool whole_terms(CountedTerm term, const Record& p) {
  return whole_granules(term, p.got()) && p.partials_not_whole == 0 && p.partials_unwritten == 0 &&
         p.partials_total == p.got();
}

// What a wrong output is, from the first probe at this size it was wrong in: elements left out
// (whole terms short), counted twice (over), or no total of terms at all (estimated from a sample
// and scaled, or computed otherwise).
void name_wrong_output(GradeReport& report, const ReductionDeclaration& d,
                       const std::vector<const Record*>& probes) {
  const ReductionWords& w = d.words;
  for (const Record* p : probes) {
    if (p->right()) {
      continue;
    }
    const double got = p->got();
    if (follows_replaced_input(*p)) {
      return;  // the structure's mistake says why: the finish reads the input
    }
    if (!p->output_written()) {
      add_mistake(report, w.output + "-unwritten",
                  "the finish never stored the " + w.output + " (" + at(*p) + "): it must write *" +
                      w.output + " from the " + w.intermediate);
    } else if (!std::isfinite(got)) {
      add_mistake(report, "nan-output",
                  "the " + w.output + " is " + scientific(got) + " (" + at(*p) +
                      "): look for a read of memory nothing wrote");
    } else if (d.term != CountedTerm::kValue && got == p->input_total) {
      add_mistake(
          report, d.term == CountedTerm::kSquare ? "square-missing" : "term-missing",
          "the " + w.output + " is that of " + w.input + ", not of its " + w.terms + " (" + at(*p) + ")");
    } else if (whole_terms(d.term, *p) && got < p->expected) {
      add_mistake(report, "elements-missed",
                  "the " + w.output + " is " + fixed(p->expected - got, 4) +
                      " short of the exact sum of the " + w.terms + " (" + at(*p) + "): the " + w.terms +
                      " of some elements were not added; the grid, or each block's loop, must cover every "
                      "element of [0, n) once");
    } else if (whole_terms(d.term, *p)) {
      add_mistake(report, "elements-counted-twice",
                  "the " + w.output + " is " + fixed(got - p->expected, 4) + " over the exact sum of the " +
                      w.terms + " (" + at(*p) +
                      "): some elements were added more than once; look at the stride");
    } else {
      add_mistake(
          report, "wrong-" + w.output,
          "the " + w.output + " is " + scientific(got) + ", the exact sum of the " + w.terms + " " +
              scientific(p->expected) + " (" + at(*p) +
              "): on the grader's inputs every float32 sum of the " + w.terms +
              ", in any order, is exact, and this is not one: a sum of some of the elements scaled up, "
              "or a value computed another way");
    }
    return;
  }
}

// A probe at this size that gave, bit for bit, the output an earlier right probe gave on other
// inputs (a kept answer); nullptr when there is none. (A call right and a later one wrong says
// nothing more: counted inputs leave most elements zero at the card-scaled size, so a kernel that
// misses a few can be right on one draw.)
const Record* replayed(const std::vector<Record>& probes, const std::vector<const Record*>& checked) {
  for (const Record* later : checked) {
    if (later->right()) {
      continue;
    }
    for (const Record& earlier : probes) {
      if (earlier.call < later->call && earlier.right() && earlier.output_bits == later->output_bits &&
          earlier.expected != later->expected) {
        return later;
      }
    }
  }
  return nullptr;
}

// The output at one size, in every probe that checks it; names what is wrong.
bool judge_size(GradeReport& report, const ReductionDeclaration& d, const std::vector<Record>& probes,
                const std::string& size, bool odd_right, std::string& finding) {
  std::vector<const Record*> checked;
  for (const char* name : {"alone", "after-lab", "repeat"}) {
    if (const Record* p = record_at(probes, size, name)) {
      checked.push_back(p);
    }
  }
  if (checked.size() < 3) {
    return false;
  }
  const bool right = std::all_of(checked.begin(), checked.end(), [](const Record* p) { return p->right(); });
  finding = "n = " + std::to_string(checked[0]->elements) + ": ";
  for (const Record* p : checked) {
    finding += p->probe + " " + scientific(p->got()) + (p->right() ? " exact" : " wrong") +
               (p == checked.back() ? "" : "; ");
  }
  if (right) {
    return true;
  }
  // alone and repeat had the same inputs, but the input is replaced anew before each probe's finish:
  // a finish that reads it differs between them without any race (finish-reads-INPUT names it).
  const bool reads_replaced =
      std::any_of(probes.begin(), probes.end(), [](const Record& p) { return follows_replaced_input(p); });
  if (!reads_replaced && checked[0]->output_bits != checked[2]->output_bits) {
    add_mistake(
        report, "race-on-" + d.words.intermediate,
        "the same inputs gave " + scientific(checked[0]->got()) + " and then " +
            scientific(checked[2]->got()) + " (" + at(*checked[2]) + "): threads update a " +
            d.words.partial +
            " without ordering; a shared-memory tree needs a barrier between its steps, and adds from "
            "many threads need atomics");
    return false;  // what the race made of the output says nothing more
  }
  if (const Record* replay = replayed(probes, checked)) {
    add_mistake(report, "wrong-on-later-calls",
                "a later call on new inputs gave an earlier call's " + d.words.output +
                    ", or was wrong where the first was right (" + at(*replay) +
                    "): compute from the inputs on every call and keep nothing between calls");
    return false;
  }
  if (size != "odd" && odd_right) {
    add_mistake(report, "wrong-at-large-size",
                "right at the odd size but wrong at n = " + std::to_string(checked[0]->elements) +
                    ": look at index arithmetic that overflows and at what each block covers");
  }
  name_wrong_output(report, d, checked);
  return false;
}

// The structure, in every probe and in the first timed call that broke it (a stage skipped while
// timed, or doing another's work, leaves the partials unwritten or not adding up to the output),
// last in `probes` where timed_record_to_judge admits it.
bool judge_structure(GradeReport& report, const ReductionDeclaration& d, const std::vector<Record>& probes,
                     std::string& finding) {
  const ReductionWords& w = d.words;
  bool good = true;
  for (const Record& p : probes) {
    if (p.own_words_written * 4 >= p.elements) {
      good = false;
      add_mistake(report, w.terms + "-materialised",
                  "the first kernel wrote " + std::to_string(p.own_words_written) +
                      " words to its own global memory (" + at(p) + "): an array of " + w.terms +
                      " written and read back; apply the term to each " + w.input +
                      "[i] as it is loaded and keep the sum in registers and shared memory");
    } else if (p.partials_unwritten > 0) {
      good = false;
      add_mistake(report, w.intermediate + "-unwritten",
                  count_of(p.partials_unwritten, "block") + " of " + std::to_string(p.blocks) + " left " +
                      w.intermediate + "[blockIdx.x] unwritten (" + at(p) + "): every block stores its " +
                      w.partial + " there, and the finish adds them");
    } else if ((p.probe != "planted" && p.right() && !p.partials_right()) ||
               (p.probe == "timed" && (p.partials_not_whole > 0 || p.partials_total != p.expected))) {
      good = false;
      add_mistake(report, w.intermediate + "-not-sums",
                  "the " + w.intermediate + " add up to " + scientific(p.partials_total) + ", not " +
                      scientific(p.expected) + " (" + at(p) + "): " + w.intermediate +
                      "[b] is block b's sum of the " + w.terms + " it covers");
    }
    if (p.probe != "timed" && follows_replaced_input(p)) {
      good = false;
      add_mistake(report, "finish-reads-" + w.input,
                  "with " + w.input + " replaced after the first kernel, the " + w.output + " followed " +
                      w.input + " (" + at(p) + "): the finish must total " + w.intermediate +
                      "[0, blocks) and nothing else");
    } else if (p.probe == "planted" && p.output_written() && !p.right()) {
      good = false;
      add_mistake(report, "finish-ignores-" + w.intermediate,
                  "with the " + w.intermediate + " replaced, the " + w.output + " did not follow them (" +
                      at(p) + "): the finish must total " + w.intermediate + "[0, blocks) and nothing else");
    }
    if (p.lab_buffers_written) {
      good = false;
      add_mistake(report, "uses-lab-buffer",
                  "the lab's own buffers changed (" + at(p) + "): use only your buffers");
    }
  }
  finding = good ? "one " + w.partial + " per block, the finish follows them, no array of " + w.terms +
                       " written; 2 launches"
                 : "see the mistakes above";
  return good;
}

bool judge_buffers(GradeReport& report, const ReductionWords& w, const std::vector<Record>& probes,
                   std::string& finding) {
  bool inside = true;
  bool inputs = true;
  const auto outside = [&](bool changed, const char* id, const std::string& what) {
    if (changed) {
      inside = false;
      add_mistake(report, id,
                  what + ": every store must land in " + w.intermediate + "[0, blocks) or *" + w.output);
    }
  };
  for (const Record& p : probes) {
    outside(p.guard_words_changed > 0, "write-past-n",
            count_of(p.guard_words_changed, "word") + " just outside " + w.input + ", the " + w.intermediate +
                " or the " + w.output + " changed (" + at(p) + ")");
    outside(p.launches_writing_outside > 0, "write-outside-buffers",
            "device memory the kernels were not given changed (" + at(p) + ")");
    if (p.input_changed) {
      inputs = false;
      add_mistake(report, "input-modified",
                  w.input + " changed during the run (" + at(p) + "): it is read-only");
    }
  }
  finding = std::string(inside ? "nothing written outside the " + w.intermediate + " and the " + w.output
                               : "a write outside them") +
            ", " + w.input + " " + (inputs ? "unchanged" : "modified");
  return inside && inputs;
}

void require(bool holds, const std::string& exercise, const std::string& what) {
  if (!holds) {
    throw std::invalid_argument("exercise '" + exercise + "': " + what);
  }
}

bool pointer(const ContractParameter& p, const std::string& name) {
  return p.name == name && p.type.find('*') != std::string::npos;
}

}  // namespace

double ReductionRecord::got() const {
  float value = 0.0f;
  std::memcpy(&value, &output_bits, sizeof value);
  return value;
}

bool ReductionRecord::right() const {
  return output_written() && std::isfinite(got()) && got() == expected;
}

Json to_json(const ReductionRecord& p) {
  return Json{{"size_label", p.size_label},
              {"probe", p.probe},
              {"elements", p.elements},
              {"call", p.call},
              {"blocks", p.blocks},
              {"output_bits", p.output_bits},
              {"expected", p.expected},
              {"input_total", p.input_total},
              {"replaced_input", p.replaced_input},
              {"partials_unwritten", p.partials_unwritten},
              {"partials_total", p.partials_total},
              {"partials_not_whole", p.partials_not_whole},
              {"own_words_written", p.own_words_written},
              {"guard_words_changed", p.guard_words_changed},
              {"input_changed", p.input_changed},
              {"lab_buffers_written", p.lab_buffers_written},
              {"launches_writing_outside", p.launches_writing_outside}};
}

ReductionRecord reduction_record_from_json(const Json& j) {
  return ReductionRecord{j.at("size_label").get<std::string>(),
                         j.at("probe").get<std::string>(),
                         j.at("elements").get<std::uint64_t>(),
                         j.at("call").get<int>(),
                         j.at("blocks").get<std::uint64_t>(),
                         j.at("output_bits").get<std::uint32_t>(),
                         j.at("expected").get<double>(),
                         j.at("input_total").get<double>(),
                         j.at("replaced_input").get<double>(),
                         j.at("partials_unwritten").get<std::uint64_t>(),
                         j.at("partials_total").get<double>(),
                         j.at("partials_not_whole").get<std::uint64_t>(),
                         j.at("own_words_written").get<std::uint64_t>(),
                         j.at("guard_words_changed").get<std::uint64_t>(),
                         j.at("input_changed").get<bool>(),
                         j.at("lab_buffers_written").get<bool>(),
                         j.at("launches_writing_outside").get<std::uint64_t>()};
}

void judge_reduction_probes(const ReductionDeclaration& d, ProbeJudging& in) {
  ProbeRowJudges<Record> judges;
  judges.read = reduction_record_from_json;
  // planted checks the structure: its output is the planted partials' total.
  judges.output_wrong = [](const Record& p) { return p.probe != "planted" && !p.right(); };
  judges.size = [&d](GradeReport& report, const std::vector<Record>& records, const std::string& size,
                     bool odd_right, std::string& finding) {
    return judge_size(report, d, records, size, odd_right, finding);
  };
  judges.structure = [&d](GradeReport& report, const std::vector<Record>& records, std::string& finding) {
    return judge_structure(report, d, records, finding);
  };
  judges.buffers = [&d](GradeReport& report, const std::vector<Record>& records, std::string& finding) {
    return judge_buffers(report, d.words, records, finding);
  };
  judge_probe_rows(kReductionProbes, in, judges);
}

Exercise reduction_exercise(Exercise base, ReductionDeclaration declaration) {
  const ReductionWords& w = declaration.words;
  require(declaration.reference && declaration.reference_scratch && declaration.lab_inputs &&
              declaration.launch_lab_case,
          base.name,
          "a reduction exercise declares its reference, its lab inputs and its lab cases' launcher");
  require(declaration.after_lab_case < base.lab_cases.size(), base.name,
          "the after-lab case is not one of its lab cases");
  require(base.kernels.size() == 2 && base.kernels[0].parameters.size() == 3 &&
              base.kernels[1].parameters.size() == 3,
          base.name, "a reduction exercise's contract is two kernels of three parameters");
  const std::vector<ContractParameter>& first = base.kernels[0].parameters;
  const std::vector<ContractParameter>& finish = base.kernels[1].parameters;
  require(pointer(first[0], w.input) && pointer(first[1], w.intermediate) && first[2].name == "n" &&
              pointer(finish[0], w.intermediate) && pointer(finish[1], w.output) &&
              finish[2].name == "blocks" && base.kernels[1].one_block,
          base.name,
          "a reduction exercise's kernels are (" + w.input + ", " + w.intermediate +
              ", n) and, one block, (" + w.intermediate + ", " + w.output + ", blocks)");
  const auto shared = std::make_shared<const ReductionDeclaration>(std::move(declaration));
  base.probes = kReductionProbes;
  base.watch_own_memory = true;
  base.judge_probes = [shared](ProbeJudging& in) { judge_reduction_probes(*shared, in); };
  base.record_checks.probe = [](const Json& record) {
    static_cast<void>(reduction_record_from_json(record));
  };
  base.record_checks.inspection = base.record_checks.probe;
  base.child = [shared](ChildSession& session) { return reduction_child(session, shared); };
  return base;
}

}  // namespace labrun
