// An output exercise's records and their judge (output_exercise.hpp): host logic only.

#include "exercise/output_exercise.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include "exercise/child_session.hpp"
#include "exercise/judge.hpp"
#include "exercise/probe_rows.hpp"

namespace labrun {
namespace {

using Json = nlohmann::ordered_json;

// "pixel (12, 0)" for an image, "element 12" otherwise.
std::string element_at(const OutputDeclaration& d, const OutputRecord& r, std::uint64_t index) {
  if (r.height > 1 && r.width > 0) {
    return d.element_noun + " (" + std::to_string(index % r.width) + ", " + std::to_string(index / r.width) +
           ")";
  }
  return d.element_noun + " " + std::to_string(index);
}

std::string at(const OutputRecord& r) {
  const std::string size = r.height > 1 ? std::to_string(r.width) + " x " + std::to_string(r.height)
                                        : "n = " + std::to_string(r.elements);
  return size + ", " + r.probe + " (call " + std::to_string(r.call) + ")";
}

std::string first_bad(const OutputDeclaration& d, const OutputRecord& r) {
  return "; first wrong " + element_at(d, r, r.first_bad) + ": got " + std::to_string(r.first_bad_got) +
         ", expected " + std::to_string(r.first_bad_expected);
}

// What a wrong output is, from the first probe it was wrong in: unwritten, one of the lab's classic
// mistakes (every wrong element in its class), or wrong.
// The classic mistake whose class holds every wrong element of r (and, where the mistake says, with
// every one of them set or cleared); nullptr when none does.
const ClassMistake* class_mistake_of(const OutputDeclaration& d, const OutputRecord& r) {
  for (const ClassMistake& m : d.class_mistakes) {
    const std::uint64_t in_class = r.class_mismatches.at(m.class_bit);
    const std::uint64_t set = r.class_set.at(m.class_bit);
    if (in_class == r.mismatches && (m.got < 0 || (m.got == 1 ? set : in_class - set) == in_class)) {
      return &m;
    }
  }
  return nullptr;
}

void name_wrong_output(GradeReport& report, const OutputDeclaration& d, const OutputRecord& r) {
  if (r.unwritten == r.elements) {
    add_mistake(report, "output-unwritten",
                "no element of the output was written (" + at(r) + "): the kernel must store every element");
    return;
  }
  if (const ClassMistake* m = class_mistake_of(d, r)) {
    add_mistake(report, m->id,
                count_of(r.mismatches, d.element_noun) + " wrong (" + at(r) + ")" + first_bad(d, r) + ": " +
                    m->explanation);
    return;
  }
  add_mistake(report, "wrong-output",
              count_of(r.mismatches, d.element_noun) + " of the output differ from the lab's own kernel (" +
                  at(r) + ")" + first_bad(d, r));
}

struct SizeVerdict {
  bool measured = false;
  bool right = false;
  std::string finding;
};

SizeVerdict judge_size(GradeReport& report, const OutputDeclaration& d,
                       const std::vector<OutputRecord>& records, const std::string& size, bool odd_right) {
  SizeVerdict verdict;
  std::vector<const OutputRecord*> checked;
  for (const std::string& probe : kOutputProbes) {
    if (const OutputRecord* r = record_at(records, size, probe)) {
      checked.push_back(r);
    }
  }
  if (checked.size() < kOutputProbes.size()) {
    return verdict;
  }
  verdict.measured = true;
  verdict.right =
      std::all_of(checked.begin(), checked.end(), [](const OutputRecord* r) { return r->right(); });
  verdict.finding =
      (checked[0]->height > 1 ? std::to_string(checked[0]->width) + " x " + std::to_string(checked[0]->height)
                              : "n = " + std::to_string(checked[0]->elements)) +
      ": ";
  for (const OutputRecord* r : checked) {
    verdict.finding += r->probe + " " +
                       (r->right() ? "exact" : count_of(r->mismatches, "wrong " + d.element_noun)) +
                       (r == checked.back() ? "" : "; ");
  }
  if (verdict.right) {
    return verdict;
  }
  const OutputRecord& alone = *checked[0];
  if (alone.right()) {
    const auto later =
        std::find_if(checked.begin(), checked.end(), [](const OutputRecord* r) { return !r->right(); });
    // A classic mistake whose class the first call's inputs happened to leave empty (no pixel on the
    // threshold, say) is that mistake, not state kept between calls.
    if (class_mistake_of(d, **later) != nullptr) {
      name_wrong_output(report, d, **later);
      return verdict;
    }
    add_mistake(report, "wrong-on-later-calls",
                "the first call at this size was right, a later one was wrong (" + at(**later) +
                    "): compute the output from the inputs on every call and keep nothing between calls");
    return verdict;
  }
  if (size != "odd" && odd_right) {
    add_mistake(
        report, "wrong-at-large-size",
        "right at the odd size but wrong at " + at(alone) +
            ": look at index arithmetic that overflows and at a grid that does not cover every element");
  }
  name_wrong_output(report, d, alone);
  return verdict;
}

bool judge_structure(GradeReport& report, const OutputDeclaration& d,
                     const std::vector<OutputRecord>& records, std::string& finding) {
  bool good = true;
  for (const OutputRecord& r : records) {
    for (const MaterialisedMistake& m : d.materialised) {
      if (static_cast<double>(r.own_words_written) >= m.share * static_cast<double>(r.elements)) {
        good = false;
        add_mistake(report, m.id,
                    count_of(r.own_words_written, "word") + " of the kernel's own global memory written (" +
                        at(r) + "): " + m.explanation);
      }
    }
    if (r.lab_buffers_written) {
      good = false;
      add_mistake(report, "uses-lab-buffer",
                  "the submission wrote a buffer of the lab's own case (" + at(r) +
                      "): it has its own buffers and touches nothing else");
    }
  }
  finding =
      good ? "one kernel from the inputs to the output, nothing in between stored" : "see the mistakes above";
  return good;
}

bool judge_buffers(GradeReport& report, const std::vector<OutputRecord>& records, std::string& finding) {
  bool inside = true;
  bool inputs = true;
  for (const OutputRecord& r : records) {
    if (r.guard_elements_changed > 0) {
      inside = false;
      add_mistake(
          report, "write-past-n",
          count_of(r.guard_elements_changed, "element") + " outside the output's elements changed (" + at(r) +
              "): every index the kernel stores to must lie inside the output; check the bounds test");
    }
    if (r.launches_writing_outside > 0) {
      inside = false;
      add_mistake(report, "write-outside-buffers",
                  "device memory the kernel was not given changed (" + at(r) +
                      "): a store landed outside every buffer passed to it, past their guards");
    }
    if (r.input_changed) {
      inputs = false;
      add_mistake(report, "input-modified",
                  "an input changed during the run (" + at(r) + "): inputs are read-only");
    }
  }
  finding = std::string(inside ? "nothing written outside the output" : "a write outside the output") +
            ", inputs " + (inputs ? "unchanged" : "modified");
  return inside && inputs;
}

}  // namespace

Json to_json(const OutputRecord& r) {
  return Json{{"size_label", r.size_label},
              {"probe", r.probe},
              {"elements", r.elements},
              {"width", r.width},
              {"height", r.height},
              {"call", r.call},
              {"mismatches", r.mismatches},
              {"unwritten", r.unwritten},
              {"first_bad", r.first_bad},
              {"first_bad_got", r.first_bad_got},
              {"first_bad_expected", r.first_bad_expected},
              {"class_mismatches", r.class_mismatches},
              {"class_set", r.class_set},
              {"guard_elements_changed", r.guard_elements_changed},
              {"input_changed", r.input_changed},
              {"lab_buffers_written", r.lab_buffers_written},
              {"launches_writing_outside", r.launches_writing_outside},
              {"own_words_written", r.own_words_written}};
}

OutputRecord output_record_from_json(const Json& j) {
  OutputRecord r;
  r.size_label = j.at("size_label").get<std::string>();
  r.probe = j.at("probe").get<std::string>();
  r.elements = j.at("elements").get<std::uint64_t>();
  r.width = j.at("width").get<std::uint64_t>();
  r.height = j.at("height").get<std::uint64_t>();
  r.call = j.at("call").get<int>();
  r.mismatches = j.at("mismatches").get<std::uint64_t>();
  r.unwritten = j.at("unwritten").get<std::uint64_t>();
  r.first_bad = j.at("first_bad").get<std::uint64_t>();
  r.first_bad_got = j.at("first_bad_got").get<std::int64_t>();
  r.first_bad_expected = j.at("first_bad_expected").get<std::int64_t>();
  r.class_mismatches = j.at("class_mismatches").get<std::vector<std::uint64_t>>();
  r.class_set = j.at("class_set").get<std::vector<std::uint64_t>>();
  if (r.class_mismatches.size() != 8 || r.class_set.size() != 8 || r.unwritten > r.elements ||
      r.mismatches > r.elements) {
    throw std::invalid_argument("an output record's counts are not those of one call");
  }
  r.guard_elements_changed = j.at("guard_elements_changed").get<std::uint64_t>();
  r.input_changed = j.at("input_changed").get<bool>();
  r.lab_buffers_written = j.at("lab_buffers_written").get<bool>();
  r.launches_writing_outside = j.at("launches_writing_outside").get<std::uint64_t>();
  r.own_words_written = j.at("own_words_written").get<std::uint64_t>();
  return r;
}

void judge_output_probes(const OutputDeclaration& d, ProbeJudging& in) {
  ProbeRowJudges<OutputRecord> judges;
  judges.read = output_record_from_json;
  judges.output_wrong = [](const OutputRecord& r) { return !r.right(); };
  judges.size = [&d](GradeReport& report, const std::vector<OutputRecord>& records, const std::string& size,
                     bool odd_right, std::string& finding) {
    const SizeVerdict verdict = judge_size(report, d, records, size, odd_right);
    if (verdict.measured) {
      finding = verdict.finding;
    }
    return verdict.right;
  };
  judges.structure = [&d](GradeReport& report, const std::vector<OutputRecord>& records,
                          std::string& finding) { return judge_structure(report, d, records, finding); };
  judges.buffers = judge_buffers;
  judge_probe_rows(kOutputProbes, in, judges);
}

Exercise output_exercise(Exercise base, OutputDeclaration declaration) {
  if (base.kernels.size() != 1 || !declaration.graded_inputs || !declaration.reference ||
      !declaration.launch_lab_case || !declaration.lab_inputs) {
    throw std::invalid_argument("exercise '" + base.name +
                                "': an output exercise declares one kernel, its graded and lab inputs, its "
                                "reference and its lab cases' launcher");
  }
  std::size_t outputs = 0;
  for (const ContractParameter& parameter : base.kernels.front().parameters) {
    const bool pointer = parameter.type.find('*') != std::string::npos;
    const auto buffer = std::find_if(declaration.buffers.begin(), declaration.buffers.end(),
                                     [&](const DeclaredBuffer& b) { return b.name == parameter.name; });
    if (pointer && buffer == declaration.buffers.end()) {
      throw std::invalid_argument("exercise '" + base.name + "': the pointer parameter '" + parameter.name +
                                  "' names no declared buffer");
    }
    outputs += pointer && buffer->output ? 1 : 0;
  }
  if (outputs != 1) {
    throw std::invalid_argument("exercise '" + base.name +
                                "': an output exercise's kernel writes one buffer");
  }
  for (const ClassMistake& m : declaration.class_mistakes) {
    if (m.class_bit >= 8 || !declaration.classify) {
      throw std::invalid_argument("exercise '" + base.name + "': the mistake '" + m.id +
                                  "' names a class the declaration does not compute");
    }
  }
  const auto shared = std::make_shared<const OutputDeclaration>(std::move(declaration));
  base.probes = kOutputProbes;
  base.watch_own_memory = base.watch_own_memory || !shared->materialised.empty();
  base.judge_probes = [shared](ProbeJudging& in) { judge_output_probes(*shared, in); };
  base.record_checks.probe = [](const Json& record) { static_cast<void>(output_record_from_json(record)); };
  base.record_checks.inspection = base.record_checks.probe;
  base.child = [shared](ChildSession& session) { return output_child(session, shared); };
  return base;
}

}  // namespace labrun
