// Day-20 corpus: correct-multi-pixel. Each thread computes four consecutive rows of one column
// (elements_per_thread [1, 4], 32 x 8 blocks: a block covers 32 x 32 pixels) from a window it keeps
// in registers: it first loads the six rows its four pixels touch, three floats from each, every
// row index clamped into the image, so all eighteen loads are in flight at once and none is
// guarded; each row then serves up to three pixels instead of being loaded by each. The sums are
// the lab's, in its order. Full marks.

#include <cstddef>

namespace {

constexpr unsigned int kRowsPerThread = 4;  // the manifest's elements_per_thread [1, 4]
constexpr unsigned int kWindowRows = kRowsPerThread + 2;

// Three horizontally adjacent pixels of one row: the clamped left neighbour, the pixel, the clamped
// right neighbour.
struct Triple {
  float left;
  float centre;
  float right;
};

__device__ __forceinline__ Triple load_triple(const float* __restrict__ image, unsigned int width,
                                              unsigned int y, unsigned int left, unsigned int x,
                                              unsigned int right) {
  const float* row = image + static_cast<std::size_t>(y) * width;
  return Triple{row[left], row[x], row[right]};
}

}  // namespace

extern "C" __global__ void sobel_threshold(const float* __restrict__ image, unsigned char* __restrict__ mask,
                                           unsigned int width, unsigned int height, float threshold) {
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int first_y = (blockIdx.y * blockDim.y + threadIdx.y) * kRowsPerThread;
  if (x >= width || first_y >= height) {
    return;
  }
  const unsigned int left = x > 0 ? x - 1 : 0;
  const unsigned int right = x + 1 < width ? x + 1 : x;
  // window[k] is row first_y - 1 + k, clamped to [0, height - 1]: the row above the first pixel,
  // the four pixels' own rows, and the row below the last.
  Triple window[kWindowRows];
#pragma unroll
  for (unsigned int k = 0; k < kWindowRows; ++k) {
    const unsigned int shifted = first_y + k;  // the row's index plus one, so it never goes below 0
    const unsigned int y = shifted == 0 ? 0 : min(shifted - 1, height - 1);
    window[k] = load_triple(image, width, y, left, x, right);
  }
#pragma unroll
  for (unsigned int k = 0; k < kRowsPerThread; ++k) {
    const unsigned int y = first_y + k;
    if (y < height) {
      const Triple& above = window[k];
      const Triple& row = window[k + 1];
      const Triple& below = window[k + 2];
      const float gx =
          (above.right + 2.0f * row.right + below.right) - (above.left + 2.0f * row.left + below.left);
      const float gy =
          (below.left + 2.0f * below.centre + below.right) - (above.left + 2.0f * above.centre + above.right);
      mask[static_cast<std::size_t>(y) * width + x] = sqrtf(gx * gx + gy * gy) > threshold ? 1 : 0;
    }
  }
}
