// A stand-in for the grading child (src/exercise/grade_child.cpp) on a machine with no GPU, for the
// fault-injection test of the batch scheduler (fault_injection_test.cpp). It speaks the child's
// protocol (exercise/child_protocol.hpp) exactly: the request file, the phase file, the results
// file, "ready-to-time", "may-time" and "timed", for the exercise the request names (its probe records are
// the exercise's own). What it reports is not measured: an honest submission gets the results a
// correct one gets, every time, so that any difference between a submission graded alone and in a
// batch comes from the scheduler. A submission chooses how its stand-in
// behaves with a marker compiled into its image, `LABRUN-FAKE:<behaviour>;`:
//
//   slow                 correct, timed at twice the lab's half-way pair
//   wrong-output         every element of y wrong at the odd size
//   hang-when-timed      correct while checked; once it holds the GPU alone to time, it never ends
//                        and ignores its own time limits (labrun must end it)
//   stall-every-launch   every launch takes 0.9 of the kernel time limit, checked or timed; the
//                        timing phase then ends at its limit, as the real child's watchdog ends it
//   hog-memory           takes most of the simulated GPU memory while it is checked
//   spoil-neighbours     while it is checked, every other stand-in checking beside it fails with
//                        cudaErrorLaunchFailure (what a context-switch time-out does to them)
//
// The simulated GPU memory and the spoiling are files in the folder given by --pool, shared by
// every stand-in of one test: memory is counted in units of a grading's buffers, per process,
// under flock, and what an ended process held is free again.
//
//   labrun-fake-grade-child --pool DIR --request FILE | --serve CONTROL

#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <thread>

#include "base/atomic_file.hpp"
#include "base/bounded_read.hpp"
#include "exercise/chain_pair_exercise.hpp"
#include "exercise/child_protocol.hpp"
#include "exercise/reduction_exercise.hpp"
#include "exercise/worker_protocol.hpp"
#include "grading/exercise.hpp"

namespace {

namespace fs = std::filesystem;
using labrun::ChildRequest;
using labrun::ChildResults;

// Units of simulated GPU memory: a grading takes one; the hog takes all but one.
constexpr int kMemoryUnits = 8;

// The lab's kernels as the stand-in "times" them, milliseconds at the card-scaled size, and the one
// a correct submission runs as fast as.
struct StandInExercise {
  std::vector<std::pair<std::string, double>> lab_ms;
  std::string reference_key;
  std::vector<std::string> kernels;
  std::vector<std::string> probes;
};

StandInExercise stand_in_for(const std::string& exercise) {
  if (exercise == "sum-of-squares") {
    return {{{"two_kernels_ms", 0.60}, {"folded_ms", 0.20}, {"copy_floor_ms", 0.25}},
            "folded_ms",
            {"sum_of_squares_partials", "sum_of_squares_finish"},
            labrun::kReductionProbes};
  }
  return {{{"staged_ms", 0.90},
           {"fused_ms", 0.30},
           {"lab_halfway_ms", 0.50},
           {"copy_floor_ms", 0.25},
           {"copy_vectorized_ms", 0.22},
           {"copy_memcpy_ms", 0.22}},
          "lab_halfway_ms",
          {day48::grading::kFirstKernel, day48::grading::kSecondKernel},
          {"alone", "after-staged", "planted"}};
}

labrun::LabTimes lab_times(const StandInExercise& exercise, std::uint64_t n) {
  return labrun::LabTimes{n, exercise.lab_ms};
}

class Pool {
 public:
  explicit Pool(fs::path folder) : folder_(std::move(folder)) {}

  // Takes `units` of memory for this process; false when fewer are free. Memory held by a process
  // that has ended is free again, as the driver frees a killed process's memory.
  bool take(int units) {
    return update([&](std::map<long, int>& held) {
      int used = 0;
      for (const auto& [pid, count] : held) {
        used += count;
      }
      if (used + units > kMemoryUnits) {
        return false;
      }
      held[static_cast<long>(::getpid())] += units;
      return true;
    });
  }
  void give() {
    update([&](std::map<long, int>& held) {
      held.erase(static_cast<long>(::getpid()));
      return true;
    });
  }
  void spoil(bool on) {
    std::error_code ignored;
    if (on) {
      labrun::write_file_atomically(folder_ / "spoiled", "\n", true);
    } else {
      fs::remove(folder_ / "spoiled", ignored);
    }
  }
  [[nodiscard]] bool spoiled() const {
    std::error_code ignored;
    return fs::exists(folder_ / "spoiled", ignored);
  }

 private:
  // Applies `change` to the units each live process holds, under an exclusive lock; written back
  // when it returns true.
  template <typename Change>
  bool update(Change change) {
    const int fd = ::open((folder_ / "memory.lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0) {
      std::cerr << "fake child: cannot lock the pool\n";
      std::exit(1);
    }
    std::map<long, int> held;
    std::ifstream in(folder_ / "memory.held");
    long pid = 0;
    int units = 0;
    while (in >> pid >> units) {
      if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) {
        held[pid] += units;
      }
    }
    in.close();
    const bool changed = change(held);
    if (changed) {
      std::ofstream out(folder_ / "memory.held", std::ios::trunc);
      for (const auto& [holder, count] : held) {
        out << holder << " " << count << "\n";
      }
    }
    ::flock(fd, LOCK_UN);
    ::close(fd);
    return changed;
  }
  fs::path folder_;
};

std::string behaviour_in(const std::string& image) {
  const std::string marker = "LABRUN-FAKE:";
  const std::size_t at = image.find(marker);
  if (at == std::string::npos) {
    return "";
  }
  const std::size_t end = image.find(';', at);
  return image.substr(at + marker.size(),
                      end == std::string::npos ? std::string::npos : end - at - marker.size());
}

void sleep_for(double seconds) {
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

labrun::ChainOutputInspection output(std::uint64_t n, bool right) {
  labrun::ChainOutputInspection o;
  o.elements = n;
  o.mismatches = right ? 0 : n;
  o.max_abs_error = right ? 1e-7 : 1.0;
  if (!right) {
    o.first_bad_index = 0;
    o.first_bad_got = 2.0;
    o.first_bad_expected = 1.0;
    for (const char* c : {"gelu-twice", "skip-scale-bias", "skip-gelu", "skip-residual", "skip-clamp"}) {
      o.compositions.push_back({c, 0});
    }
  }
  return o;
}

class FakeGrading {
 public:
  FakeGrading(const ChildRequest& request, Pool& pool)
      : request_(request), pool_(pool), exercise_(stand_in_for(request.exercise)) {}

  int run() {
    results_.device = "Simulated GPU";
    results_.device_uuid = "GPU-00000000-0000-0000-0000-000000000000";
    phase("starting CUDA");
    if (request_.mode == "lab-times") {
      labrun::TimingResult timing;
      timing.elements = request_.card_elements;
      timing.lab = lab_times(exercise_, request_.card_elements);
      results_.timing = timing;
      results_.completed = true;
      write();
      return 0;
    }
    if (request_.mode == "sanitize") {
      return 0;
    }
    behaviour_ = behaviour_in(labrun::read_regular_file(request_.image, std::size_t{64} << 20));
    const int units = behaviour_ == "hog-memory" ? kMemoryUnits - 1 : 1;
    if (!pool_.take(units)) {
      return stop("grader-out-of-memory",
                  "the child's buffers did not fit in the simulated GPU's free memory");
    }
    const int status = grade();
    pool_.give();
    return status;
  }

 private:
  int grade() {
    for (const std::string& name : exercise_.kernels) {
      labrun::KernelInfo k;
      k.name = name;
      k.found = true;
      k.parameter_bytes = name == day48::grading::kSecondKernel ? std::vector<std::uint64_t>{8, 8, 8, 8}
                                                                : std::vector<std::uint64_t>{8, 8, 8};
      k.registers = 16;
      k.max_threads_per_block = 1024;
      results_.kernels.push_back(k);
    }
    if (behaviour_ == "spoil-neighbours") {
      pool_.spoil(true);
    }
    const std::pair<const char*, std::uint64_t> sizes[] = {{"odd", request_.odd_elements},
                                                           {"card-scaled", request_.card_elements}};
    int call = 0;
    for (const auto& [label, n] : sizes) {
      for (const std::string& probe : exercise_.probes) {
        for (const std::string& kernel : exercise_.kernels) {
          phase(kernel + " at n = " + std::to_string(n) + " (" + probe + ")");
          if (behaviour_ == "stall-every-launch") {
            sleep_for(0.9 * request_.kernel_time_limit_s);
          } else if (behaviour_ == "hog-memory" || behaviour_ == "spoil-neighbours") {
            sleep_for(0.25);  // holds what it took while the others check beside it
          } else {
            sleep_for(0.02);
          }
          if (behaviour_ != "spoil-neighbours" && pool_.spoiled()) {
            return stop("cuda-error", "cudaErrorLaunchFailure (unspecified launch failure)");
          }
        }
        const bool right = !(behaviour_ == "wrong-output" && std::string(label) == "odd");
        results_.probes.push_back(probe_record(label, n, probe, ++call, right));
        write();
      }
    }
    if (behaviour_ == "spoil-neighbours") {
      pool_.spoil(false);
    }
    if (request_.card_elements > 0) {
      time_pair();
    }
    results_.completed = true;
    phase("finished");
    write();
    return 0;
  }

  void time_pair() {
    if (request_.wait_for_timing_turn) {
      phase("waiting for a turn to time, with the GPU to itself");
      labrun::write_file_atomically("ready-to-time", "\n", true);
      std::error_code missing;
      while (!fs::exists("may-time", missing)) {
        sleep_for(0.001);
      }
    }
    const std::uint64_t n = request_.card_elements;
    phase("timing at n = " + std::to_string(n));
    if (behaviour_ == "hang-when-timed") {
      while (true) {
        sleep_for(1.0);  // never ends, never says so: labrun must end it and give the turn back
      }
    }
    if (behaviour_ == "stall-every-launch") {
      // Each sample's two launches stall just under their limits; the phase ends at its own limit,
      // as the real child's watchdog ends it.
      sleep_for(request_.timing_limit_s);
      stop("hang", "timing at n = " + std::to_string(n) + " had not finished after " +
                       std::to_string(static_cast<int>(request_.timing_limit_s)) + " s");
      std::_Exit(3);
    }
    labrun::TimingResult timing;
    timing.elements = n;
    timing.samples = request_.timing_samples;
    const labrun::LabTimes lab = request_.lab_times ? *request_.lab_times : lab_times(exercise_, n);
    const double pair = (behaviour_ == "slow" ? 2.0 : 1.0) * lab.at(exercise_.reference_key);
    timing.pair_samples_ms.assign(static_cast<std::size_t>(request_.timing_samples), pair);
    timing.pair_ms = pair;
    timing.lab = lab;
    timing.lab_times_shared = request_.lab_times.has_value();
    sleep_for(0.05);
    results_.timing = timing;
    if (request_.wait_for_timing_turn) {
      labrun::say_timed(".", labrun::TurnSpent{0.05, 0.0, 0.0});  // as the real child, once off the GPU
    }
  }

  int stop(const std::string& kind, const std::string& message) {
    results_.error_kind = kind;
    results_.error = message;
    results_.failed_step = step_;
    write();
    return 3;
  }

  void phase(const std::string& step) {
    step_ = step;
    labrun::write_file_atomically(request_.phase, step + "\n", true);
  }

  void write() const {
    labrun::write_file_atomically(request_.results, labrun::to_json(results_).dump(2) + "\n", true);
  }

  // An honest call's record, as the exercise's child writes it: right, or (wrong-output) every
  // element wrong.
  [[nodiscard]] nlohmann::ordered_json probe_record(const std::string& label, std::uint64_t n,
                                                    const std::string& probe, int call, bool right) const {
    if (request_.exercise == "sum-of-squares") {
      labrun::ReductionRecord p;
      p.size_label = label;
      p.probe = probe;
      p.elements = n;
      p.call = call;
      p.blocks = 64;
      // The sum of x^2 at the odd size, or the count of the ones, or the planted partials' total:
      // a right sum is that exactly, a wrong one a tenth of it.
      p.expected = probe.rfind("counted", 0) == 0 ? static_cast<double>(n) : 0.25 * static_cast<double>(n);
      p.partials_total = p.expected;
      p.replaced_input = 0.5 * p.expected;
      const float sum = static_cast<float>(right ? p.expected : 0.1 * p.expected);
      std::memcpy(&p.output_bits, &sum, sizeof sum);
      return labrun::to_json(p);
    }
    labrun::ChainPairRecord p;
    p.size_label = label;
    p.probe = probe;
    p.elements = n;
    p.call = call;
    p.output = output(n, right);
    if (probe != "planted") {
      p.intermediate = labrun::ChainIntermediateInspection{0, 0};
    } else {
      p.matches_chain_of_input = right ? 0 : n;
    }
    return labrun::to_json(p, {"x", "intermediate", "residual", "y"});
  }

  const ChildRequest& request_;
  Pool& pool_;
  StandInExercise exercise_;
  ChildResults results_;
  std::string behaviour_;
  std::string step_;
};

// One request, as the one-shot stand-in grades it.
int grade_request(const fs::path& request_file, Pool& pool) {
  try {
    const ChildRequest request = labrun::request_from_json(
        nlohmann::ordered_json::parse(labrun::read_regular_file(request_file, labrun::kRequestMaxBytes)));
    return FakeGrading(request, pool).run();
  } catch (const std::exception& error) {
    std::cerr << "fake child: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace

// As the real child: --request FILE grades one request; --serve CONTROL is a grading worker
// (exercise/worker_protocol.hpp), whose context check finds nothing (it has no context).
int main(int argc, char** argv) {
  const std::string mode = argc == 5 ? argv[3] : "";
  if (argc != 5 || std::string(argv[1]) != "--pool" || (mode != "--request" && mode != "--serve")) {
    std::cerr << "usage: labrun-fake-grade-child --pool DIR --request FILE | --serve CONTROL\n";
    return 2;
  }
  Pool pool(argv[2]);
  if (mode == "--request") {
    return grade_request(argv[4], pool);
  }
  return labrun::serve_grading_jobs(
      fs::absolute(argv[4]), [&](const fs::path& request) { return grade_request(request, pool); },
      [] { return std::string(); });
}
