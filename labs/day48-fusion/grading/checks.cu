// Day 48's chain as the harness's checking kernels need it (checks.hpp).

#include "chain_math.hpp"
#include "exercise/chain_pair_checks.cuh"
#include "grading/checks.hpp"
#include "stages.cuh"

namespace day48::grading {
namespace {

struct ChainMath {
  static constexpr int kCompositions = kCompositionCount - 1;
  __host__ __device__ static float input(std::uint64_t seed, std::uint64_t i) { return input_x_at(seed, i); }
  __host__ __device__ static float second(std::uint64_t seed, std::uint64_t i) {
    return residual_at(seed, i);
  }
  __host__ __device__ static double output(int composition, float x, float residual) {
    return chain_element(static_cast<Composition>(composition), x, residual);
  }
  __device__ static double intermediate(float x) { return intermediate_element(x); }
  //! Stage 2's output in float, with the lab's own stage functions.
  __device__ static float planted(float x) { return gelu(scale_bias(x)); }
};

}  // namespace

labrun::ChainPairChecks halfway_checks() {
  return labrun::chain_pair_checks<ChainMath>();
}

}  // namespace day48::grading
