// Day 20's float64 reference: the Sobel magnitude and its threshold, computed on the host from the
// same image the kernels read (kernels.cu), edges clamped the same way. lab.cpp declares these.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace day20 {

//! The Sobel magnitude of every pixel of a row-major width x height image, in float64.
std::vector<double> sobel_reference(const std::vector<float>& image, std::size_t width, std::size_t height) {
  if (image.size() < width * height) {
    throw std::invalid_argument("the Sobel reference needs " + std::to_string(width * height) +
                                " pixels, got " + std::to_string(image.size()));
  }
  const auto at = [&](std::size_t x, std::size_t y) { return static_cast<double>(image[y * width + x]); };
  std::vector<double> magnitude(width * height);
  for (std::size_t y = 0; y < height; ++y) {
    const std::size_t above = y > 0 ? y - 1 : 0;
    const std::size_t below = y + 1 < height ? y + 1 : y;
    for (std::size_t x = 0; x < width; ++x) {
      const std::size_t left = x > 0 ? x - 1 : 0;
      const std::size_t right = x + 1 < width ? x + 1 : x;
      const double gx = (at(right, above) + 2.0 * at(right, y) + at(right, below)) -
                        (at(left, above) + 2.0 * at(left, y) + at(left, below));
      const double gy = (at(left, below) + 2.0 * at(x, below) + at(right, below)) -
                        (at(left, above) + 2.0 * at(x, above) + at(right, above));
      magnitude[y * width + x] = std::sqrt(gx * gx + gy * gy);
    }
  }
  return magnitude;
}

//! The mask of every pixel: 1 where the float64 magnitude is above `threshold`, 0 where it is not,
//! and 0.5 where it lies within `ambiguity` (relative) of the threshold, so close that float32's
//! rounding may put the kernel's magnitude on either side. A check with an absolute tolerance of 0.5
//! then accepts 0 or 1 there and exactly the float64 answer everywhere else.
std::vector<double> mask_reference(const std::vector<float>& image, std::size_t width, std::size_t height,
                                   float threshold, double ambiguity) {
  std::vector<double> mask = sobel_reference(image, width, height);
  const double limit = static_cast<double>(threshold);
  for (double& value : mask) {
    if (std::fabs(value - limit) <= ambiguity * limit) {
      value = 0.5;
    } else {
      value = value > limit ? 1.0 : 0.0;
    }
  }
  return mask;
}

}  // namespace day20
