// The sum-of-squares exercise declared (exercise.hpp): its contract, manifest, rubric and words; the
// judge of its probes' records; its device side in the grading child; and its row of
// `labrun run fusion-verdicts --submission DIR`.

#include "exercise.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "../case_names.hpp"
#include "../constants.hpp"
#include "../declarations.hpp"
#include "../kernels.hpp"
#include "../reference.hpp"
#include "base/format.hpp"
#include "cases/fill.hpp"
#include "exercise/child_session.hpp"
#include "exercise/exercise_entry.hpp"
#include "exercise/judge.hpp"
#include "exercise/probe_rows.hpp"
#include "exercise/submission_row.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"

namespace verdicts::grading {
namespace {

using labrun::OwnedRegion;
using Json = nlohmann::ordered_json;

enum InputKind : int { kLabInputs = 0, kCounted = 1 };

// ---- the judge of the probes' records ---------------------------------------------------------

std::string at(const SumProbe& p) {
  return "n = " + std::to_string(p.elements) + ", " + p.probe + " (call " + std::to_string(p.call) + ")";
}

// Whether `value` is a sum of squares of counted inputs: a whole multiple of 1/16.
bool whole_sixteenths(double value) {
  return std::isfinite(value) && std::fabs(value * 16.0 - std::round(value * 16.0)) == 0.0;
}

// Whether a wrong sum is the sum of the squares of the x that replaced the call's own before the
// finish ran: the finish read x.
bool follows_replaced_x(const SumProbe& p) {
  return p.sum_written() && !p.right() && p.got() == p.replaced_x;
}

// Whether the sum, and every partial it was made of, is a sum of whole squares of counted inputs:
// the partials all whole sixteenths, and the sum their total. A sum scaled up from some of the
// elements is not, wherever it was scaled: its partials, or its total.
bool whole_squares(const SumProbe& p) {
  return whole_sixteenths(p.got()) && p.partials_not_whole == 0 && p.partials_unwritten == 0 &&
         p.partials_total == p.got();
}

// What a wrong sum is, from the first probe at this size it was wrong in. On counted inputs every
// correct float32 sum is exact, so the difference from the reference says what happened: whole
// squares short (elements left out) or over (counted twice), or no sum of squares at all (estimated
// from a sample and scaled, or computed otherwise).
void name_wrong_sum(labrun::GradeReport& report, const std::vector<const SumProbe*>& probes) {
  for (const SumProbe* p : probes) {
    if (p->right()) {
      continue;
    }
    const double got = p->got();
    if (follows_replaced_x(*p)) {
      return;  // the structure's mistake says why: the finish reads x
    }
    if (!p->sum_written()) {
      labrun::add_mistake(
          report, "sum-unwritten",
          "the finish never stored the sum (" + at(*p) + "): it must write *sum from the partial sums");
    } else if (!std::isfinite(got)) {
      labrun::add_mistake(report, "nan-output",
                          "the sum is " + labrun::scientific(got) + " (" + at(*p) +
                              "): look for a read of memory nothing wrote");
    } else if (got == p->sum_of_x) {
      labrun::add_mistake(report, "square-missing",
                          "the sum is that of x, not of x squared (" + at(*p) + ")");
    } else if (whole_squares(*p) && got < p->expected) {
      labrun::add_mistake(report, "elements-missed",
                          "the sum is " + labrun::fixed(p->expected - got, 4) +
                              " short of the exact sum of the squares (" + at(*p) +
                              "): the squares of some elements were not added; the grid, or each block's "
                              "loop, must cover every element of [0, n) once");
    } else if (whole_squares(*p)) {
      labrun::add_mistake(report, "elements-counted-twice",
                          "the sum is " + labrun::fixed(got - p->expected, 4) +
                              " over the exact sum of the squares (" + at(*p) +
                              "): some elements were added more than once; look at the stride");
    } else {
      labrun::add_mistake(
          report, "wrong-sum",
          "the sum is " + labrun::scientific(got) + ", the exact sum of the squares " +
              labrun::scientific(p->expected) + " (" + at(*p) +
              "): on the grader's inputs every float32 sum of the squares, in any order, is exact, and this "
              "is "
              "not one: a sum of some of the elements scaled up, or a value computed another way");
    }
    return;
  }
}

// A probe at this size that gave, bit for bit, the sum an earlier right probe gave on other inputs
// (a kept answer); nullptr when there is none. (A call right and a later one wrong says nothing
// more: counted inputs leave most elements zero at the card-scaled size, so a kernel that misses a
// few can be right on one draw.)
const SumProbe* replayed(const std::vector<SumProbe>& probes, const std::vector<const SumProbe*>& checked) {
  for (const SumProbe* later : checked) {
    if (later->right()) {
      continue;
    }
    for (const SumProbe& earlier : probes) {
      if (earlier.call < later->call && earlier.right() && earlier.sum_bits == later->sum_bits &&
          earlier.expected != later->expected) {
        return later;
      }
    }
  }
  return nullptr;
}

// The sum at one size, in every probe that checks it; names what is wrong.
bool judge_size(labrun::GradeReport& report, const std::vector<SumProbe>& probes, const std::string& size,
                bool odd_right, std::string& finding) {
  std::vector<const SumProbe*> checked;
  for (const char* name : {"alone", "after-lab", "repeat"}) {
    if (const SumProbe* p = labrun::record_at(probes, size, name)) {
      checked.push_back(p);
    }
  }
  if (checked.size() < 3) {
    return false;
  }
  const bool right =
      std::all_of(checked.begin(), checked.end(), [](const SumProbe* p) { return p->right(); });
  finding = "n = " + std::to_string(checked[0]->elements) + ": ";
  for (const SumProbe* p : checked) {
    finding += p->probe + " " + labrun::scientific(p->got()) + (p->right() ? " exact" : " wrong") +
               (p == checked.back() ? "" : "; ");
  }
  if (right) {
    return true;
  }
  // alone and repeat had the same inputs, but x is replaced anew before each probe's finish: a
  // finish that reads x differs between them without any race (finish-reads-x names it).
  const bool reads_replaced_x =
      std::any_of(probes.begin(), probes.end(), [](const SumProbe& p) { return follows_replaced_x(p); });
  if (!reads_replaced_x && checked[0]->sum_bits != checked[2]->sum_bits) {
    labrun::add_mistake(report, "race-on-partials",
                        "the same inputs gave " + labrun::scientific(checked[0]->got()) + " and then " +
                            labrun::scientific(checked[2]->got()) + " (" + at(*checked[2]) +
                            "): threads update a partial sum without ordering; a shared-memory tree needs a "
                            "barrier between its steps, and adds from many threads need atomics");
    return false;  // what the race made of the sum says nothing more
  }
  if (const SumProbe* replay = replayed(probes, checked)) {
    labrun::add_mistake(
        report, "wrong-on-later-calls",
        "a later call on new inputs gave an earlier call's sum, or was wrong where the first was "
        "right (" +
            at(*replay) +
            "): compute from the inputs on every call and keep nothing "
            "between calls");
    return false;
  }
  if (size != "odd" && odd_right) {
    labrun::add_mistake(report, "wrong-at-large-size",
                        "right at the odd size but wrong at n = " + std::to_string(checked[0]->elements) +
                            ": look at index arithmetic that overflows and at what each block covers");
  }
  name_wrong_sum(report, checked);
  return false;
}

// The structure, in every probe and in the first timed call that broke it (a kernel skipped while
// timed, or doing another's work, leaves the partials unwritten or not adding up to the sum), last in
// `probes` where labrun::timed_record_to_judge admits it.
bool judge_structure(labrun::GradeReport& report, const std::vector<SumProbe>& probes, std::string& finding) {
  bool good = true;
  for (const SumProbe& p : probes) {
    if (p.own_words_written * 4 >= p.elements) {
      good = false;
      labrun::add_mistake(
          report, "squares-materialised",
          "the first kernel wrote " + std::to_string(p.own_words_written) +
              " words to its own global memory (" + at(p) +
              "): an array of squares written and read back; square each x[i] as it is loaded "
              "and keep the sum in registers and shared memory");
    } else if (p.partials_unwritten > 0) {
      good = false;
      labrun::add_mistake(report, "partials-unwritten",
                          labrun::count_of(p.partials_unwritten, "block") + " of " +
                              std::to_string(p.blocks) + " left partials[blockIdx.x] unwritten (" + at(p) +
                              "): every block stores its partial sum there, and the finish adds them");
    } else if ((p.probe != "planted" && p.right() && !p.partials_right()) ||
               (p.probe == "timed" && (p.partials_not_whole > 0 || p.partials_total != p.expected))) {
      good = false;
      labrun::add_mistake(report, "partials-not-sums",
                          "the partial sums add up to " + labrun::scientific(p.partials_total) + ", not " +
                              labrun::scientific(p.expected) + " (" + at(p) +
                              "): partials[b] is block b's sum of the squares it covers");
    }
    if (p.probe != "timed" && follows_replaced_x(p)) {
      good = false;
      labrun::add_mistake(report, "finish-reads-x",
                          "with x replaced after the first kernel, the sum followed x (" + at(p) +
                              "): the finish must total partials[0, blocks) and nothing else");
    } else if (p.probe == "planted" && p.sum_written() && !p.right()) {
      good = false;
      labrun::add_mistake(report, "finish-ignores-partials",
                          "with the partial sums replaced, the sum did not follow them (" + at(p) +
                              "): the finish must total partials[0, blocks) and nothing else");
    }
    if (p.lab_buffers_written) {
      good = false;
      labrun::add_mistake(
          report, "uses-lab-buffer",
          "the lab's own squares, partials or sum changed (" + at(p) + "): use only your buffers");
    }
  }
  finding = good ? "one partial sum per block, the finish follows them, no array of squares written; "
                   "2 launches"
                 : "see the mistakes above";
  return good;
}

bool judge_buffers(labrun::GradeReport& report, const std::vector<SumProbe>& probes, std::string& finding) {
  bool inside = true;
  bool inputs = true;
  const auto outside = [&](bool changed, const char* id, const std::string& what) {
    if (changed) {
      inside = false;
      labrun::add_mistake(report, id, what + ": every store must land in partials[0, blocks) or *sum");
    }
  };
  for (const SumProbe& p : probes) {
    outside(p.guard_words_changed > 0, "write-past-n",
            labrun::count_of(p.guard_words_changed, "word") +
                " just outside x, the partials or the sum changed (" + at(p) + ")");
    outside(p.launches_writing_outside > 0, "write-outside-buffers",
            "device memory the kernels were not given changed (" + at(p) + ")");
    if (p.input_changed) {
      inputs = false;
      labrun::add_mistake(report, "input-modified",
                          "x changed during the run (" + at(p) + "): it is read-only");
    }
  }
  finding =
      std::string(inside ? "nothing written outside the partials and the sum" : "a write outside them") +
      ", x " + (inputs ? "unchanged" : "modified");
  return inside && inputs;
}

void judge_probes(labrun::ProbeJudging& in) {
  labrun::ProbeRowJudges<SumProbe> judges;
  judges.read = sum_probe_from_json;
  // planted checks the structure: its sum is the planted partials'.
  judges.output_wrong = [](const SumProbe& p) { return p.probe != "planted" && !p.right(); };
  judges.size = judge_size;
  judges.structure = judge_structure;
  judges.buffers = judge_buffers;
  labrun::judge_probe_rows(kProbes, in, judges);
}

// ---- the device side in the grading child -----------------------------------------------------

class SumChild final : public labrun::ExerciseChild {
 public:
  explicit SumChild(labrun::ChildSession& session) : session_(session), stream_(session.stream()) {}

  // The sum is the finish's alone: it starts at a place drawn from each call's seed, so that the
  // first kernel cannot know where it is.
  void allocate(std::size_t capacity) override {
    x_ = &session_.guarded(capacity);
    partials_ = &session_.guarded(session_.has_submission() ? session_.plan(0, capacity).blocks : 1);
    sum_ = &session_.guarded(1, labrun::kSlots);
    const ReductionGrid grid = reduction_grid();
    lab_.x = x_->data();
    lab_.mid = session_.owned_array<float>(capacity);
    lab_.y = session_.owned_array<float>(capacity);
    lab_.partials = session_.owned_array<float>(std::max(grid.blocks, 1u));
    lab_.sum = session_.owned_array<float>(1);
    lab_.reduction_blocks = grid.blocks;
    sums_ = session_.owned_array<double>(4);
  }

  Json probe(const std::string& label, std::size_t n, const std::string& probe) override {
    SumProbe p;
    p.size_label = label;
    p.probe = probe;
    p.elements = n;
    // repeat: the inputs of alone at this size again, whose sum must be the same.
    const std::uint64_t seed = session_.next_seed();
    if (probe == "alone") {
      alone_seed_ = seed;
    }
    const std::uint64_t inputs = probe == "repeat" ? alone_seed_ : seed;
    p.call = session_.calls();
    slot_ = labrun::ChildSession::slot_of(seed);
    for (const labrun::GuardedBuffer* b : {x_, partials_, sum_}) {
      b->poison(stream_);
    }
    session_.phase("preparing the inputs at n = " + std::to_string(n) + " (" + probe + ")");
    fill_inputs(x_->data(), n, inputs, kCounted, stream_);
    const std::vector<OwnedRegion> lab_buffers{{lab_.mid, n * sizeof(float)},
                                               {lab_.partials, lab_.reduction_blocks * sizeof(float)},
                                               {lab_.sum, sizeof(float)}};
    unsigned long long lab_before = 0;
    if (probe == "after-lab") {
      launch_sum_two_kernels(lab_, n, stream_);
      lab_before = session_.digest_of(lab_buffers);
    }
    std::vector<double> sums = reference(n, inputs);
    p.expected = sums[0];
    p.sum_of_x = sums[1];
    p.blocks = session_.plan(0, n).blocks;
    std::uint64_t x_digest = session_.digest_of({x_->elements(n)});
    session_.reset_outside_writes();
    if (session_.exercise().watch_own_memory) {
      session_.snapshot_own_memory();
    }
    launch_partials(n, probe);
    p.own_words_written = session_.own_words_changed();
    sums = partials_totals(p.blocks);
    p.partials_total = sums[0];
    p.partials_unwritten = static_cast<std::uint64_t>(sums[1]);
    p.partials_not_whole = static_cast<std::uint64_t>(sums[2]);
    // The finish must total the partials it is given, and nothing else: before it runs, x holds other
    // counted inputs in every probe (so that no probe can be told from another by comparing x with
    // the partials), and planted, the partials are those a correct first kernel would store for yet
    // others. Every sum here is exact, so a sum that followed x is told from one that followed
    // neither.
    const bool changed_by_first = session_.digest_of({x_->elements(n)}) != x_digest;
    const std::uint64_t replaced = session_.next_seed();
    fill_inputs(x_->data(), n, replaced, kCounted, stream_);
    p.replaced_x = reference(n, replaced)[0];
    if (probe == "planted") {
      plant_partials(partials_->data(), p.blocks, n, session_.next_seed(), stream_);
      p.expected = partials_totals(p.blocks)[0];
    }
    x_digest = session_.digest_of({x_->elements(n)});
    launch_finish(n, p.blocks, probe);
    p.launches_writing_outside = session_.outside_writes();
    p.sum_bits = session_.download_one(reinterpret_cast<const std::uint32_t*>(sum_->data(slot_)));
    p.input_changed = changed_by_first || session_.digest_of({x_->elements(n)}) != x_digest;
    p.guard_words_changed = guard_changes(n, p.blocks);
    p.lab_buffers_written = probe == "after-lab" && session_.digest_of(lab_buffers) != lab_before;
    return to_json(p);
  }

  [[nodiscard]] labrun::CallBuffers call_buffers(std::size_t /*n*/) const override {
    return {{x_->region()}, {partials_->region(), sum_->region()}};
  }

  void fresh_call(std::size_t n, std::uint64_t seed) override {
    fill_inputs(x_->data(), n, seed, kCounted, stream_);
    partials_->poison(stream_);
    sum_->poison(stream_);
    slot_ = labrun::ChildSession::slot_of(seed);
  }

  void launch_call(std::size_t n) override {
    std::size_t blocks = session_.timed_plan(0, n).blocks;
    const float* x = x_->data();
    float* partials = partials_->data();
    float* sum = sum_->data(slot_);
    void* first[] = {&x, &partials, &n};
    void* second[] = {&partials, &sum, &blocks};
    session_.launch_timed(0, first, n);
    session_.launch_timed(1, second, n);
  }

  labrun::CallCheck check_call(std::size_t n, std::uint64_t seed) override {
    SumProbe p;
    p.size_label = "card-scaled";
    p.probe = "timed";
    p.elements = n;
    p.blocks = session_.timed_plan(0, n).blocks;
    const std::vector<double> sums = reference(n, seed);
    p.expected = sums[0];
    p.sum_of_x = sums[1];
    p.sum_bits = session_.download_one(reinterpret_cast<const std::uint32_t*>(sum_->data(slot_)));
    const std::vector<double> partials = partials_totals(p.blocks);
    p.partials_total = partials[0];
    p.partials_unwritten = static_cast<std::uint64_t>(partials[1]);
    p.partials_not_whole = static_cast<std::uint64_t>(partials[2]);
    // The partials are the first kernel's alone: whatever the finish did, they add up to the exact sum.
    const bool partials_hold =
        p.partials_unwritten == 0 && p.partials_not_whole == 0 && p.partials_total == p.expected;
    labrun::CallCheck checked{p.right(), partials_hold, std::nullopt};
    if (!checked.output_right || !checked.structure_right) {
      checked.record = to_json(p);
    }
    return checked;
  }

  std::uint64_t output_guard_changes(std::size_t n) override {
    session_.reset_tallies();
    partials_->count_guard_changes(session_.timed_plan(0, n).blocks, session_.tally(0), stream_);
    sum_->count_guard_changes(1, session_.tally(0), stream_, slot_);
    return session_.download_tallies()[0];
  }

  void fresh_lab_inputs(std::size_t n, std::uint64_t seed) override {
    fill_inputs(x_->data(), n, seed, kLabInputs, stream_);
  }

  // Exercise::lab_cases' order: two kernels, the lab's folded kernel, the copy floor.
  void launch_lab_case(std::size_t index, std::size_t n) override {
    if (index == 0) {
      launch_sum_two_kernels(lab_, n, stream_);
    } else if (index == 1) {
      launch_sum_folded(lab_, n, stream_);
    } else {
      launch_copy_floor(lab_, n, stream_);
    }
  }

  void sanitize(std::size_t n, std::uint64_t seed) override {
    std::size_t blocks = session_.plan(0, n).blocks;
    const labrun::DeviceBuffer<float> x(n), partials(blocks), sum(1);
    fill_inputs(x.data(), n, seed, kCounted, stream_);
    LABRUN_CUDA_CHECK(cudaMemsetAsync(partials.data(), 0xFF, blocks * sizeof(float), stream_));
    const float* in = x.data();
    float* partial_sums = partials.data();
    float* total = sum.data();
    void* first[] = {&in, &partial_sums, &n};
    void* second[] = {&partial_sums, &total, &blocks};
    session_.launch(0, first, n, "sanitizer run");
    session_.launch(1, second, n, "sanitizer run");
  }

 private:
  // The checked launches: every byte the child owns but the allocations named is digested around
  // each (x has a check of its own, input_changed; the sum's allocation is the finish's alone).
  void launch_partials(std::size_t n, const std::string& what) {
    const float* x = x_->data();
    float* partials = partials_->data();
    void* arguments[] = {&x, &partials, &n};
    session_.launch(0, arguments, n, what, std::vector<OwnedRegion>{x_->region(), partials_->region()});
  }
  void launch_finish(std::size_t n, std::size_t blocks, const std::string& what) {
    const float* partials = partials_->data();
    float* sum = sum_->data(slot_);
    void* arguments[] = {&partials, &sum, &blocks};
    session_.launch(1, arguments, n, what, std::vector<OwnedRegion>{x_->region(), sum_->region()});
  }

  // [sum of squares, sum] of the counted inputs drawn from `seed`, in float64.
  std::vector<double> reference(std::size_t n, std::uint64_t seed) {
    LABRUN_CUDA_CHECK(cudaMemsetAsync(sums_, 0, 2 * sizeof(double), stream_));
    reference_sums(n, seed, kCounted, sums_, stream_);
    std::vector<double> host(2);
    session_.download(host.data(), sums_, 2 * sizeof(double));
    return host;
  }

  // [total, unwritten, not whole] of partials[0, blocks).
  std::vector<double> partials_totals(std::size_t blocks) {
    session_.reset_tallies();
    LABRUN_CUDA_CHECK(cudaMemsetAsync(sums_ + 2, 0, sizeof(double), stream_));
    total_partials(partials_->data(), blocks, sums_ + 2, session_.tally(0), session_.tally(1), stream_);
    const double total = session_.download_one(sums_ + 2);
    const std::vector<unsigned long long> counts = session_.download_tallies();
    return {total, static_cast<double>(counts[0]), static_cast<double>(counts[1])};
  }

  std::uint64_t guard_changes(std::size_t n, std::size_t blocks) {
    session_.reset_tallies();
    x_->count_guard_changes(n, session_.tally(0), stream_);
    partials_->count_guard_changes(blocks, session_.tally(0), stream_);
    sum_->count_guard_changes(1, session_.tally(0), stream_, slot_);
    return session_.download_tallies()[0];
  }

  labrun::ChildSession& session_;
  cudaStream_t stream_;
  labrun::GuardedBuffer* x_ = nullptr;
  labrun::GuardedBuffer* partials_ = nullptr;
  labrun::GuardedBuffer* sum_ = nullptr;
  Workspace lab_;
  double* sums_ = nullptr;  // [sum of squares, sum, partials' total, -]
  std::uint64_t alone_seed_ = 0;
  std::size_t slot_ = 0;  // where this call's sum starts
};

// ---- `labrun run fusion-verdicts --submission DIR` ---------------------------------------------

void launch_pair(const labrun::StudentKernels& kernels, const labrun::LaunchPlan& first,
                 const labrun::LaunchPlan& second, const float* x, float* partials, float* sum, std::size_t n,
                 cudaStream_t stream) {
  std::size_t elements = n;
  std::size_t blocks = first.blocks;
  void* first_arguments[] = {&x, &partials, &elements};
  void* second_arguments[] = {&partials, &sum, &blocks};
  kernels.launch(0, first_arguments, first, stream);
  kernels.launch(1, second_arguments, second, stream);
}

labrun::Lab declare_submission(const labrun::SubmissionDeclaration& submission) {
  labrun::LabDeclaration lab = declare_lab();
  const std::shared_ptr<labrun::StudentKernels> kernels = submission.kernels;
  const labrun::BufferId x = lab.input("submission-x", kInputStream, kInputLow, kInputHigh);
  const labrun::BufferId partials = lab.output("submission-partials", [kernels] {
    return std::size_t{kernels->planned(0, kernels->capacity).blocks};
  });
  const labrun::BufferId sum = lab.output("submission-sum", [] { return std::size_t{1}; });
  const labrun::RegionBuilder region = [kernels, x, partials, sum](labrun::RegionContext& ctx,
                                                                   std::uint64_t n) {
    const labrun::LaunchPlan first = kernels->planned(0, n);
    const labrun::LaunchPlan second = kernels->planned(1, n);
    const float* in = ctx[x];
    float* partial_sums = ctx[partials];
    float* total = ctx[sum];
    const cudaStream_t s = ctx.stream();
    return std::function<void()>([kernels, first, second, in, partial_sums, total, n, s] {
      launch_pair(*kernels, first, second, in, partial_sums, total, n, s);
    });
  };
  const labrun::CheckId check = lab.check({"submission-sum-of-squares", region, sum,
                                           [x](const labrun::HostInputs& inputs, std::uint64_t) {
                                             return std::vector<double>{sum_of_squares_reference(inputs[x])};
                                           },
                                           labrun::Tolerance{0.0, kSumTolerance}});
  const std::string name = case_name(kSumPart, "submission");
  lab.add_case({labrun::CaseSpec{name,
                                 kSumPart,
                                 "yours: the submission's sum of squares",
                                 submission.model,
                                 "",
                                 {{"lesson", kLessonElements}, {"card-scaled", 0}}},
                check, region, [kernels](std::uint64_t n) { return kernels->attributes(n); }});
  labrun::Lab derived =
      labrun::lab_with_submission_row(submission, lab,
                                      {{"two kernels over yours (submission)", cases::kSumTwoKernels, name},
                                       {"yours over folded (submission)", name, cases::kSumFolded}});
  derived.buffers_at_max_size += 1;  // the submission's own x
  return derived;
}

void trial(const labrun::StudentKernels& kernels, const std::vector<std::uint64_t>& sizes,
           std::uint64_t seed) {
  const std::uint64_t capacity = *std::max_element(sizes.begin(), sizes.end());
  const labrun::DeviceBuffer<float> x(capacity), partials(kernels.planned(0, capacity).blocks), sum(1);
  labrun::fill_seeded_uniform(x.data(), capacity, seed, kInputStream, kInputLow, kInputHigh, nullptr);
  labrun::trial_at_sizes(sizes, "the submission's kernels", [&](std::uint64_t n) {
    launch_pair(kernels, kernels.planned(0, n), kernels.planned(1, n), x.data(), partials.data(), sum.data(),
                n, nullptr);
  });
}

}  // namespace

double SumProbe::got() const {
  float value = 0.0f;
  std::memcpy(&value, &sum_bits, sizeof value);
  return value;
}

bool SumProbe::right() const {
  return sum_written() && std::isfinite(got()) && got() == expected;
}

Json to_json(const SumProbe& p) {
  return Json{{"size_label", p.size_label},
              {"probe", p.probe},
              {"elements", p.elements},
              {"call", p.call},
              {"blocks", p.blocks},
              {"sum_bits", p.sum_bits},
              {"expected", p.expected},
              {"sum_of_x", p.sum_of_x},
              {"replaced_x", p.replaced_x},
              {"partials_unwritten", p.partials_unwritten},
              {"partials_total", p.partials_total},
              {"partials_not_whole", p.partials_not_whole},
              {"own_words_written", p.own_words_written},
              {"guard_words_changed", p.guard_words_changed},
              {"input_changed", p.input_changed},
              {"lab_buffers_written", p.lab_buffers_written},
              {"launches_writing_outside", p.launches_writing_outside}};
}

SumProbe sum_probe_from_json(const Json& j) {
  return SumProbe{j.at("size_label").get<std::string>(),
                  j.at("probe").get<std::string>(),
                  j.at("elements").get<std::uint64_t>(),
                  j.at("call").get<int>(),
                  j.at("blocks").get<std::uint64_t>(),
                  j.at("sum_bits").get<std::uint32_t>(),
                  j.at("expected").get<double>(),
                  j.at("sum_of_x").get<double>(),
                  j.at("replaced_x").get<double>(),
                  j.at("partials_unwritten").get<std::uint64_t>(),
                  j.at("partials_total").get<double>(),
                  j.at("partials_not_whole").get<std::uint64_t>(),
                  j.at("own_words_written").get<std::uint64_t>(),
                  j.at("guard_words_changed").get<std::uint64_t>(),
                  j.at("input_changed").get<bool>(),
                  j.at("lab_buffers_written").get<bool>(),
                  j.at("launches_writing_outside").get<std::uint64_t>()};
}

labrun::Exercise sum_of_squares_exercise() {
  labrun::Exercise ex;
  ex.name = kExerciseName;
  ex.title =
      "elementwise then reduction, fused with care: the sum of x squared, the square folded into the loads";
  ex.summary =
      "two kernels of device code, the partial sums and the finish, and a manifest with the worked answer";
  ex.kernels = {
      {kPartialsKernel,
       {labrun::pointer_parameter("x", "const float*"), labrun::pointer_parameter("partials", "float*"),
        labrun::scalar_parameter<std::size_t>("n", "std::size_t")},
       false},
      {kFinishKernel,
       {labrun::pointer_parameter("partials", "const float*"), labrun::pointer_parameter("sum", "float*"),
        labrun::scalar_parameter<std::size_t>("blocks", "std::size_t")},
       true}};
  ex.skeleton = "labs/fusion-verdicts/grading/skeleton/sum_of_squares.cu";
  ex.answers = {{"bytes_per_element", false, 1000.0}, {"launches", true, 64.0}};
  ex.model_case = cases::kSumFolded;
  // Slow is over 4 times the lab's folded kernel, not day 48's 1.5: a reduction's speed depends on
  // its grid and its finish as well as its bytes, and the lab's kernel is a tuned one (about 4.1 TB/s
  // on the H200 at 2^27). On the H200 (2026-12-02) a grid-stride pair with warp shuffles took 1.62
  // times its time and a float4 one 2.76, while one element per thread with a one-block finish over
  // 2^19 partials took 10.2 and a shared atomic per element 49.
  ex.slow_factor = 4.0;
  ex.predictions = {{"predicted_ratio_vs_two_kernels", "the two kernels", cases::kSumTwoKernels, "",
                     "two kernels / yours"}};
  ex.lab_cases = {{"two_kernels_ms", "lab's two kernels", cases::kSumTwoKernels, false},
                  {"folded_ms", "lab's folded kernel", cases::kSumFolded, false},
                  {"copy_floor_ms", "copy floor", cases::kCopy, true}};
  ex.reference_case_key = "folded_ms";
  // x guarded, the lab's squares and its copy's output: 3 buffers of the largest n (the partial
  // sums and the sum are small). A correct submission reads 4 bytes per element and writes none, so
  // the card's read-only stream, not its copy, bounds how fast it can be (judge.hpp).
  ex.child_buffers = 3;
  ex.default_seed = 2;
  ex.watch_own_memory = true;
  ex.probes = kProbes;

  labrun::ExerciseWording& w = ex.wording;
  w.contract = "the contract (docs/grading.md, the skeleton sum_of_squares.cu)";
  w.parameters = "two pointers and a std::size_t each";
  w.submit = "the two kernels' device code";
  w.includes = "a few standard headers and CUDA's own";
  w.submission_noun = "pair";
  w.reference_name = "the lab's own folded kernel";
  w.slow_hint = "Look at the loads (consecutive threads should read consecutive elements) and the grid";
  w.timed_hint = "compute the whole sum from x on every call";
  w.bytes_breakdown = "(x read once; the partial sums are one float per block, not per element)";
  w.bytes_hint = "count what is read and written per element: x is read once and no square is stored";
  w.bytes_hints = {
      {cases::kSumTwoKernels, 0.0,
       "12 is the two-kernel version's: the square written and read back is what folding removes"}};
  w.launches_sentence = "the pair is 2 kernels: the partial sums and the finish";
  w.correct_summary =
      "right at both sizes, one partial sum per block and a finish, nothing outside the buffers "
      "changed";
  w.structure_part = "the partial sums and the finish";
  ex.rubric = labrun::exercise_rubric(
      {{"Correct at the odd size 1,049,187: alone, after the lab's version, and again", 10.0,
        "the sum exact on counted inputs drawn anew for each call, alone, after the lab's two kernels, and "
        "on "
        "the first call's inputs again"},
       {"Correct at the card-scaled size, likewise", 5.0,
        "the same at the card-scaled size (calls that are not timed)"},
       {"Partial sums and a finishing step, no array of squares", 5.0,
        "every block writes its partial sum, the partials add up to the sum in every call, timed ones "
        "included, no n words of the kernels' own memory written, the finish follows planted partials with x "
        "replaced"},
       {"Writes only its partials and its sum, leaves x alone", 5.0,
        "in every call, timed ones included: guards intact around x, the partials and the sum, nothing else "
        "the grader owns changed, x unchanged"}},
      ex.wording.reference_name, ex.slow_factor, ex.predictions.size());
  ex.judge_probes = judge_probes;
  ex.record_checks.probe = [](const Json& record) { static_cast<void>(sum_probe_from_json(record)); };
  ex.record_checks.inspection = ex.record_checks.probe;
  ex.child = [](labrun::ChildSession& session) -> std::unique_ptr<labrun::ExerciseChild> {
    return std::make_unique<SumChild>(session);
  };
  return ex;
}

labrun::LabExercise sum_of_squares_entry(const labrun::Lab& lab) {
  return labrun::exercise_entry(lab, sum_of_squares_exercise(),
                                labrun::SubmissionCase{declare_submission, trial});
}

}  // namespace verdicts::grading
