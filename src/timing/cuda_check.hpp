#pragma once
// Checked CUDA runtime calls. Compiles as host C++ and under nvcc (C++17); no logging here.

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace labrun {

//! A failed CUDA runtime call: the call's text, where it was made, and the CUDA error.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& call, const char* file, int line);
  [[nodiscard]] cudaError_t code() const { return code_; }
  //! "cudaErrorInsufficientDriver" and the like.
  [[nodiscard]] std::string error_name() const;

 private:
  cudaError_t code_;
};

//! Throws CudaError when code is not cudaSuccess.
void throw_on_cuda_error(cudaError_t code, const char* call, const char* file, int line);

//! "cudaErrorX: description" for an error code.
[[nodiscard]] std::string describe_cuda_error(cudaError_t code);

}  // namespace labrun

#define LABRUN_CUDA_CHECK(call) ::labrun::throw_on_cuda_error((call), #call, __FILE__, __LINE__)

//! After a launch: checks the launch itself (not the kernel's completion).
#define LABRUN_CHECK_LAUNCH(what) \
  ::labrun::throw_on_cuda_error(cudaGetLastError(), "launch of " what, __FILE__, __LINE__)

//! For destructors: reports nothing and never throws.
#define LABRUN_CUDA_NOTHROW(call) static_cast<void>(call)
