#include "timing/sampler.hpp"

#include <atomic>
#include <chrono>
#include <stdexcept>

#include "timing/cuda_check.hpp"
#include "timing/probes.hpp"

namespace labrun {
namespace {

class StopWatch {
 public:
  explicit StopWatch(double& total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~StopWatch() { total_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  StopWatch(const StopWatch&) = delete;
  StopWatch& operator=(const StopWatch&) = delete;

 private:
  double& total_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

L2Flusher::L2Flusher(std::size_t l2_bytes, int multiple, int sm_count)
    : buffer_((l2_bytes * static_cast<std::size_t>(multiple) + sizeof(uint4) - 1) / sizeof(uint4)),
      sink_(1),
      sm_count_(sm_count) {
  // Fill once so the reads are of defined values; the contents do not matter otherwise.
  LABRUN_CUDA_CHECK(cudaMemset(buffer_.data(), 0x3C, buffer_.bytes()));
  LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  // Cards with no persisting-L2 carve-out (before sm_80, some MIG and vGPU set-ups) refuse the reset.
  int device = 0;
  int persisting_max = 0;
  LABRUN_CUDA_CHECK(cudaGetDevice(&device));
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&persisting_max, cudaDevAttrMaxPersistingL2CacheSize, device));
  resets_persisting_lines_ = persisting_max > 0;
}

void L2Flusher::flush(cudaStream_t stream, unsigned long long* clock_out) {
  if (resets_persisting_lines_) {
    LABRUN_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
  }
  launch_l2_flush_read(buffer_.data(), buffer_.size(), sink_.data(), sm_count_, stream, clock_out);
}

ClockProbe::ClockProbe(double max_plausible_mhz, unsigned long long spin_ns)
    : result_(2), spin_ns_(spin_ns), max_plausible_mhz_(max_plausible_mhz) {}

std::optional<double> ClockProbe::sm_clock_mhz(cudaStream_t stream) {
  launch_clock_probe(result_.data(), spin_ns_, stream);
  return read_back(stream);
}

std::optional<double> ClockProbe::clock_mhz_from_flush(cudaStream_t stream) {
  return read_back(stream);
}

std::optional<double> ClockProbe::read_back(cudaStream_t stream) {
  unsigned long long host[2] = {0, 0};
  LABRUN_CUDA_CHECK(cudaMemcpyAsync(host, result_.data(), sizeof host, cudaMemcpyDeviceToHost, stream));
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  if (host[1] == 0) {
    return std::nullopt;
  }
  // cycles per nanosecond is GHz; MHz is 1000 times that.
  const double mhz = static_cast<double>(host[0]) * 1000.0 / static_cast<double>(host[1]);
  if (mhz <= 0.0 || (max_plausible_mhz_ > 0.0 && mhz > max_plausible_mhz_)) {
    return std::nullopt;
  }
  return mhz;
}

LaunchGate::LaunchGate() {
  void* host = nullptr;
  LABRUN_CUDA_CHECK(cudaHostAlloc(&host, 2 * sizeof(int), cudaHostAllocMapped));
  host_ = static_cast<volatile int*>(host);
  host_[0] = 1;
  host_[1] = 0;
  void* device = nullptr;
  LABRUN_CUDA_CHECK(cudaHostGetDevicePointer(&device, host, 0));
  device_ = static_cast<int*>(device);
}

LaunchGate::~LaunchGate() {
  LABRUN_CUDA_NOTHROW(cudaFreeHost(const_cast<int*>(host_)));
}

void LaunchGate::hold(cudaStream_t stream) {
  host_[0] = 0;
  host_[1] = 0;
  std::atomic_thread_fence(std::memory_order_seq_cst);
  launch_gate(device_, device_ + 1, kGateTimeoutNs, stream);
}

void LaunchGate::release() {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  host_[0] = 1;
}

bool LaunchGate::timed_out() const {
  return host_[1] != 0;
}

CaseSampler::CaseSampler(std::function<void()> region, int executions_per_sample, TimingMode mode,
                         L2Flusher* flusher, ClockProbe* probe, LaunchGate* gate, cudaStream_t stream)
    : region_(std::move(region)),
      executions_per_sample_(executions_per_sample),
      mode_(mode),
      flusher_(flusher),
      probe_(probe),
      gate_(gate),
      stream_(stream) {
  if (mode_ == TimingMode::kCold && flusher_ == nullptr) {
    throw std::invalid_argument("cold sampling needs an L2 flusher");
  }
  if (mode_ == TimingMode::kHotGated && gate_ == nullptr) {
    throw std::invalid_argument("gated sampling needs a launch gate");
  }
}

void CaseSampler::set_sample_hooks(std::function<void()> before, std::function<void()> after) {
  before_sample_ = std::move(before);
  after_sample_ = std::move(after);
}

void CaseSampler::warm_up(int warmups) {
  const StopWatch watch(elapsed_s_);
  for (int i = 0; i < warmups; ++i) {
    region_();
  }
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void CaseSampler::take(int count) {
  const StopWatch watch(elapsed_s_);
  for (int sample = 0; sample < count; ++sample) {
    if (before_sample_) {
      before_sample_();
    }
    // A cold sample's clock is timed by its flush: a kernel of the probe's own between cold samples
    // makes samples of three or more queued launches alternate between two levels (docs/measurement.md,
    // "The SM clock of every sample").
    const bool clock_from_flush = mode_ == TimingMode::kCold && probe_ != nullptr;
    if (mode_ == TimingMode::kCold) {
      flusher_->flush(stream_, clock_from_flush ? probe_->flush_clock_words() : nullptr);
    }
    const bool gated = mode_ == TimingMode::kHotGated;
    if (gated) {
      gate_->hold(stream_);
    }
    timer_.start(stream_);
    for (int e = 0; e < executions_per_sample_; ++e) {
      region_();
    }
    timer_.record_stop(stream_);
    if (gated) {
      gate_->release();
    }
    samples_ms_.push_back(timer_.elapsed_ms());
    if (gated && gate_->timed_out()) {
      gate_timeouts_.push_back(samples_ms_.size() - 1);
    }
    if (probe_ == nullptr) {
      sm_clock_mhz_.push_back(std::nullopt);
    } else {
      sm_clock_mhz_.push_back(clock_from_flush ? probe_->clock_mhz_from_flush(stream_)
                                               : probe_->sm_clock_mhz(stream_));
    }
    if (after_sample_) {
      after_sample_();
    }
  }
  // Surface an asynchronous kernel fault here rather than in the next case.
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

}  // namespace labrun
