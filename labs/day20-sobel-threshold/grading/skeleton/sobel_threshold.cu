// The day-20 exercise, your starting point: fuse the Sobel edge magnitude and its threshold into one
// kernel that reads the image and writes the mask, with no magnitude image in between. Fill in the
// kernel, then the worked answer in sobel_threshold.json beside this file, and check your work with
//
//   labrun grade labs/day20-sobel-threshold/grading/skeleton/sobel_threshold.cu
//
// As it stands it compiles, writes 0 to every mask byte and scores 0. The contract (docs/grading.md):
// the kernel has C linkage and exactly these parameters. The image is row-major, width x height
// floats with no padding; the mask is width x height bytes, laid out the same way. The grader
// launches the kernel once, with blocks of threads_per_block = [bx, by] threads and a grid of
// ceil(width / (bx * ex)) x ceil(height / (by * ey)) blocks, elements_per_thread being [ex, ey], both
// from your manifest. Any width and height must work, odd ones included. You may include a few
// standard headers and CUDA's own (cub, cuda/std), nothing else.
//
// For every pixel (x, y): mask[y * width + x] = magnitude(x, y) > threshold ? 1 : 0, where the
// magnitude is the lab's (labs/day20-sobel-threshold/kernels.cu, sobel_at), edges clamped: a
// neighbour outside the image is replaced by the nearest pixel inside it. With a the row above, r
// the pixel's own row and b the row below, and l, c, rt the columns left, centre and right:
//
//   gx = (a[rt] + 2 r[rt] + b[rt]) - (a[l] + 2 r[l] + b[l])
//   gy = (b[l] + 2 b[c] + b[rt]) - (a[l] + 2 a[c] + a[rt])
//   magnitude = sqrtf(gx * gx + gy * gy)
//
// The grader compares your mask with the lab's byte for byte, and its images put pixels exactly on
// the threshold: keep the sums in this order, in float, and take sqrtf.

extern "C" __global__ void sobel_threshold(const float* __restrict__ image, unsigned char* __restrict__ mask,
                                           unsigned int width, unsigned int height, float threshold) {
  // One pixel per thread, as the skeleton's manifest launches it (elements_per_thread [1, 1]).
  const unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) {
    return;
  }
  // TODO: find the clamped neighbours' columns and rows, read the eight neighbours (the centre's
  // weight is 0 in both gradients), compute gx, gy and the magnitude, and compare it with the threshold.
  (void)image;
  (void)threshold;
  mask[static_cast<unsigned long long>(y) * width + x] = 0;
}
