// The fusion-verdicts exercise, your starting point: elementwise then reduction, fused with care.
// Sum x[i] squared over [0, n) with the square folded into the sum's loads: per-block partial sums
// and a finishing step, and no array of n squares ever written. Fill in both kernels, then the
// worked answer in sum_of_squares.json beside this file, and check your work with
//
//   labrun grade labs/fusion-verdicts/grading/skeleton/sum_of_squares.cu
//
// As it stands it compiles and scores 0. The contract (docs/grading.md, "The sum-of-squares
// exercise"): both kernels have C linkage and exactly these parameters. The grader launches the
// first with your manifest's launch shape over n, then the second as one block of its shape's
// threads, `blocks` being the first launch's grid (gridDim.x). Every buffer starts 256-byte
// aligned. You may include a few standard headers and CUDA's own (cub, cuda/std), nothing else.

#include <cstddef>

// Block b stores in partials[b] the sum of x[i] * x[i] over the elements it covers; the blocks
// together cover [0, n) once. Write nothing else: the square is computed as x[i] is loaded.
extern "C" __global__ void sum_of_squares_partials(const float* x, float* partials, std::size_t n) {
  // TODO: each thread adds its elements' squares, then the block adds its threads' (a shared-memory
  // tree with a barrier between steps, warp shuffles, or atomics), and one thread stores the total.
}

// One block: *sum = partials[0] + ... + partials[blocks - 1].
extern "C" __global__ void sum_of_squares_finish(const float* partials, float* sum, std::size_t blocks) {
  // TODO: each thread adds every blockDim.x-th partial, then the block adds its threads' as a tree.
  // On the grader's inputs every correct float32 sum is exact, in any order, and it must be exact
  // (docs/grading.md, "The inputs and the tolerance"); float32 adds in a long chain lose precision on
  // other inputs, so a tree is still the better habit.
}
