#include "timing/event_timer.hpp"

#include "timing/cuda_check.hpp"

namespace labrun {

EventTimer::EventTimer() {
  LABRUN_CUDA_CHECK(cudaEventCreate(&start_));
  LABRUN_CUDA_CHECK(cudaEventCreate(&stop_));
}

EventTimer::~EventTimer() {
  LABRUN_CUDA_NOTHROW(cudaEventDestroy(start_));
  LABRUN_CUDA_NOTHROW(cudaEventDestroy(stop_));
}

void EventTimer::start(cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaEventRecord(start_, stream));
}

double EventTimer::stop_ms(cudaStream_t stream) {
  record_stop(stream);
  return elapsed_ms();
}

void EventTimer::record_stop(cudaStream_t stream) {
  LABRUN_CUDA_CHECK(cudaEventRecord(stop_, stream));
}

double EventTimer::elapsed_ms() {
  LABRUN_CUDA_CHECK(cudaEventSynchronize(stop_));
  float elapsed = 0.0f;
  LABRUN_CUDA_CHECK(cudaEventElapsedTime(&elapsed, start_, stop_));
  return static_cast<double>(elapsed);
}

std::vector<double> time_region(int warmups, int repetitions, int executions_per_sample,
                                const std::function<void()>& region, cudaStream_t stream) {
  for (int i = 0; i < warmups; ++i) {
    region();
  }
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  EventTimer timer;
  std::vector<double> samples;
  samples.reserve(static_cast<std::size_t>(repetitions));
  for (int rep = 0; rep < repetitions; ++rep) {
    timer.start(stream);
    for (int e = 0; e < executions_per_sample; ++e) {
      region();
    }
    samples.push_back(timer.stop_ms(stream));
  }
  // Surface an asynchronous kernel fault here rather than in the next case.
  LABRUN_CUDA_CHECK(cudaStreamSynchronize(stream));
  return samples;
}

}  // namespace labrun
