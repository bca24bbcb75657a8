#include "timing/cuda_check.hpp"

namespace labrun {

std::string describe_cuda_error(cudaError_t code) {
  return std::string(cudaGetErrorName(code)) + ": " + cudaGetErrorString(code);
}

CudaError::CudaError(cudaError_t code, const std::string& call, const char* file, int line)
    : std::runtime_error(std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ") from " +
                         call + " at " + file + ":" + std::to_string(line)),
      code_(code) {}

std::string CudaError::error_name() const {
  return cudaGetErrorName(code_);
}

void throw_on_cuda_error(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) {
    // Clear a sticky-free error so later queries do not report it again.
    static_cast<void>(cudaGetLastError());
    throw CudaError(code, call, file, line);
  }
}

}  // namespace labrun
