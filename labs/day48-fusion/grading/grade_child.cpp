// The grading child: loads a compiled submission, runs it on seeded inputs with its buffers
// poisoned and guarded, times it beside the lab's own kernels, and writes raw results as JSON.
// It decides nothing: the parent (labrun grade) judges. It runs in its own process so that a
// crash, a CUDA error or a kernel that never ends cannot take the grader down.
//
//   labrun-day48-grade-child --library S.so --results OUT.json --seed S --odd N --card N
//   labrun-day48-grade-child --library S.so --sanitize --odd N       (one small run, for compute-sanitizer)

#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "core/statistics.hpp"
#include "evidence/atomic_file.hpp"
#include "grading/child_results.hpp"
#include "grading/submission.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"
#include "timing/sampler.hpp"
#include "verify/compare.hpp"

namespace {

using day48::grading::ChildResults;
using day48::grading::SizeResult;
using labrun::DeviceBuffer;

constexpr std::size_t kGuard = 1024;                // poisoned floats after y and the intermediate
constexpr std::uint32_t kPoisonBits = 0xFFFFFFFFu;  // what cudaMemset(0xFF) leaves: a NaN

bool is_poison(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits == kPoisonBits;
}

struct Options {
  std::string library;
  std::string results;
  std::uint64_t seed = 48;
  std::size_t odd = 1049187;
  std::size_t card = 0;
  bool sanitize = false;
};

std::vector<float> download(const float* device, std::size_t count) {
  std::vector<float> host(count);
  LABRUN_CUDA_CHECK(cudaMemcpy(host.data(), device, count * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

class Bench {
 public:
  //! `guard` poisoned floats stand before and after y and the intermediate, and after the inputs:
  //! guarded runs tell a write outside [0, n) from a correct one; unguarded runs (for
  //! compute-sanitizer) make any access outside [0, n) leave its allocation.
  Bench(Day48HalfwayLaunch launch, std::size_t capacity, std::uint64_t seed, std::size_t guard)
      : launch_(launch),
        capacity_(capacity),
        guard_(guard),
        x_(capacity + guard),
        residual_(capacity + guard),
        t1_(capacity),
        t2_(capacity),
        t3_(capacity),
        intermediate_(capacity + 2 * guard),
        y_(capacity + 2 * guard),
        lab_y_(capacity),
        lab_halfway_(capacity),
        copy_out_(capacity) {
    lab_ = day48::ChainBuffers{x_.data(),  residual_.data(), t1_.data(),          t2_.data(),
                               t3_.data(), lab_y_.data(),    lab_halfway_.data(), copy_out_.data()};
    student_.x = x_.data();
    student_.residual = residual_.data();
    student_.intermediate = intermediate_.data() + guard_;
    student_.y = y_.data() + guard_;
    student_.t1 = t1_.data();
    student_.t2 = t2_.data();
    student_.t3 = t3_.data();
    day48::fill_inputs(lab_, capacity_, seed, nullptr);
    LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  }

  void poison_staged(std::size_t n) {
    for (float* b : {t1_.data(), t2_.data(), t3_.data()}) {
      LABRUN_CUDA_CHECK(cudaMemset(b, 0xFF, n * sizeof(float)));
    }
  }
  void poison_outputs(std::size_t n) {
    LABRUN_CUDA_CHECK(cudaMemset(y_.data(), 0xFF, (n + 2 * guard_) * sizeof(float)));
    LABRUN_CUDA_CHECK(cudaMemset(intermediate_.data(), 0xFF, (n + 2 * guard_) * sizeof(float)));
  }
  void run_student(std::size_t n) {
    launch_(&student_, n, nullptr);
    LABRUN_CUDA_CHECK(cudaGetLastError());
    LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  }
  void run_staged(std::size_t n) {
    day48::launch_staged_chain(lab_, n, nullptr);
    LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  }

  // Compares y[0, n) with the reference and counts what the parent needs to name a mistake.
  void inspect_output(std::size_t n, const std::vector<float>& x, const std::vector<float>& r,
                      SizeResult& out) {
    // [guard | y[0, n) | guard], as allocated.
    const std::vector<float> guarded = download(y_.data(), n + 2 * guard_);
    const std::vector<float> y(guarded.begin() + static_cast<std::ptrdiff_t>(guard_),
                               guarded.begin() + static_cast<std::ptrdiff_t>(guard_ + n));
    std::vector<double> expected(n);
    for (std::size_t i = 0; i < n; ++i) {
      expected[i] = day48::chain_element(day48::Composition::kCorrect, x[i], r[i]);
    }
    out.check = labrun::compare_with_reference("submission", y, expected, labrun::Tolerance{1e-5, 1e-5});
    const labrun::Tolerance tolerance{1e-5, 1e-5};
    // Only a wrong output needs naming; the first 2^20 elements are enough to recognise it.
    const std::size_t sampled = out.check.passed ? 0 : std::min<std::size_t>(n, std::size_t{1} << 20);
    out.composition_elements = sampled;
    for (const day48::Composition c : day48::kWrongCompositions) {
      if (sampled == 0) {
        break;
      }
      std::uint64_t matching = 0;
      for (std::size_t i = 0; i < sampled; ++i) {
        const double want = day48::chain_element(c, x[i], r[i]);
        const double got = y[i];
        matching += std::isfinite(got) &&
                    std::fabs(got - want) <= tolerance.absolute + tolerance.relative * std::fabs(want);
      }
      out.compositions.push_back({day48::composition_name(c), matching});
    }
    for (std::size_t i = 0; i < n; ++i) {
      if (is_poison(y[i])) {
        ++out.unwritten;
      } else if (!std::isfinite(y[i])) {
        ++out.computed_non_finite;
      }
    }
    for (std::size_t i = n; i > 0 && is_poison(y[i - 1]); --i) {
      ++out.trailing_unwritten;
    }
    out.guards_around_output_intact = guards_intact(guarded, n);
    out.guards_around_intermediate_intact = guards_intact(download(intermediate_.data(), n + 2 * guard_), n);
    out.inputs_unchanged = download(x_.data(), n) == x && download(residual_.data(), n) == r;
  }

  labrun::CorrectnessCheck check_only(std::size_t n, const std::vector<float>& x,
                                      const std::vector<float>& r) {
    const std::vector<float> y = download(y_.data() + guard_, n);
    std::vector<double> expected(n);
    for (std::size_t i = 0; i < n; ++i) {
      expected[i] = day48::chain_element(day48::Composition::kCorrect, x[i], r[i]);
    }
    return labrun::compare_with_reference("submission, run alone", y, expected,
                                          labrun::Tolerance{1e-5, 1e-5});
  }

  // Both guard regions of a [guard | n elements | guard] download still hold the poison pattern.
  bool guards_intact(const std::vector<float>& guarded, std::size_t n) const {
    for (std::size_t i = 0; i < guard_; ++i) {
      if (!is_poison(guarded[i]) || !is_poison(guarded[guard_ + n + i])) {
        return false;
      }
    }
    return true;
  }

  std::vector<std::vector<float>> staged_contents(std::size_t n) {
    return {download(t1_.data(), n), download(t2_.data(), n), download(t3_.data(), n)};
  }

  day48::grading::TimingResult time_all(std::size_t n) {
    const auto median_of = [](const std::function<void()>& region) {
      return labrun::median(labrun::time_region(3, 20, 1, region));
    };
    day48::grading::TimingResult t;
    t.elements = n;
    t.submission_samples_ms = labrun::time_region(3, 20, 1, [&] { launch_(&student_, n, nullptr); });
    t.submission_ms = labrun::median(t.submission_samples_ms);
    t.staged_ms = median_of([&] { day48::launch_staged_chain(lab_, n, nullptr); });
    t.fused_ms = median_of([&] { day48::launch_fused_chain(lab_, n, nullptr); });
    t.reference_halfway_ms = median_of([&] { day48::launch_halfway_pair(lab_, n, nullptr); });
    t.copy_ms = median_of([&] { day48::launch_copy_floor(lab_.x, lab_.copy_out, n, nullptr); });
    return t;
  }

  std::vector<float> inputs_x(std::size_t n) { return download(x_.data(), n); }
  std::vector<float> inputs_r(std::size_t n) { return download(residual_.data(), n); }

 private:
  Day48HalfwayLaunch launch_;
  std::size_t capacity_;
  std::size_t guard_;
  DeviceBuffer<float> x_, residual_, t1_, t2_, t3_, intermediate_, y_, lab_y_, lab_halfway_, copy_out_;
  day48::ChainBuffers lab_;
  day48::HalfwayBuffers student_;
};

void write_results(const Options& options, const ChildResults& results) {
  labrun::write_file_atomically(options.results, day48::grading::to_json(results).dump(2) + "\n", true);
}

int run(const Options& options) {
  ChildResults results;
  results.seed = options.seed;
  cudaDeviceProp properties{};
  LABRUN_CUDA_CHECK(cudaGetDeviceProperties(&properties, 0));
  results.device = properties.name;
  void* library = dlopen(options.library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    results.error = std::string("cannot load the submission: ") + dlerror();
    write_results(options, results);
    return 4;
  }
  auto launch = reinterpret_cast<Day48HalfwayLaunch>(dlsym(library, DAY48_HALFWAY_LAUNCH_SYMBOL));
  if (launch == nullptr) {
    results.error = std::string("the submission defines no extern \"C\" ") + DAY48_HALFWAY_LAUNCH_SYMBOL;
    write_results(options, results);
    return 4;
  }
  try {
    const std::size_t capacity = std::max(options.odd, options.card);
    Bench bench(launch, capacity, options.seed, options.sanitize ? 0 : kGuard);
    if (options.sanitize) {
      bench.poison_outputs(options.odd);
      bench.run_student(options.odd);
      return 0;
    }
    // Odd size. First alone: no staged run has happened in this process yet, and the staged
    // buffers are poisoned, so a kernel that reads them gets NaN.
    SizeResult odd;
    odd.label = "odd";
    odd.elements = options.odd;
    const std::vector<float> x = bench.inputs_x(options.odd);
    const std::vector<float> r = bench.inputs_r(options.odd);
    bench.poison_staged(options.odd);
    bench.poison_outputs(options.odd);
    bench.run_student(options.odd);
    odd.isolated_check = bench.check_only(options.odd, x, r);
    // Then as the lesson's program runs it: after the staged chain, which leaves t1..t3 behind.
    bench.run_staged(options.odd);
    const auto staged_before = bench.staged_contents(options.odd);
    bench.poison_outputs(options.odd);
    bench.run_student(options.odd);
    bench.inspect_output(options.odd, x, r, odd);
    const auto staged_after = bench.staged_contents(options.odd);
    const char* names[] = {"t1", "t2", "t3"};
    for (std::size_t b = 0; b < 3; ++b) {
      if (staged_before[b] != staged_after[b]) {
        odd.staged_buffers_written.emplace_back(names[b]);
      }
    }
    results.sizes.push_back(odd);
    write_results(options, results);
    if (options.card > 0) {
      SizeResult card;
      card.label = "card-scaled";
      card.elements = options.card;
      const std::vector<float> card_x = bench.inputs_x(options.card);
      const std::vector<float> card_r = bench.inputs_r(options.card);
      bench.run_staged(options.card);
      bench.poison_outputs(options.card);
      bench.run_student(options.card);
      bench.inspect_output(options.card, card_x, card_r, card);
      results.sizes.push_back(card);
      write_results(options, results);
      results.timing = bench.time_all(options.card);
    }
    results.completed = true;
    write_results(options, results);
    return 0;
  } catch (const labrun::CudaError& error) {
    results.error = error.what();
    write_results(options, results);
    return 3;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << "grade-child: " << arg << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--library") {
      options.library = value();
    } else if (arg == "--results") {
      options.results = value();
    } else if (arg == "--seed") {
      options.seed = std::stoull(value());
    } else if (arg == "--odd") {
      options.odd = std::stoull(value());
    } else if (arg == "--card") {
      options.card = std::stoull(value());
    } else if (arg == "--sanitize") {
      options.sanitize = true;
    } else {
      std::cerr << "grade-child: unknown argument " << arg << "\n";
      return 2;
    }
  }
  if (options.library.empty() || (options.results.empty() && !options.sanitize)) {
    std::cerr << "grade-child: --library and --results are required\n";
    return 2;
  }
  try {
    return run(options);
  } catch (const std::exception& error) {
    std::cerr << "grade-child: " << error.what() << "\n";
    return 1;
  }
}
