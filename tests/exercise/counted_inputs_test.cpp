// Counted inputs (exercise/counted_inputs.hpp) on the host: the argument for a tolerance of 0, tried
// on the actual inputs of the sizes the grader uses. Every correct float32 sum of their squares, in
// any order, is the float64 reference exactly; an answer that leaves out elements, or estimates the
// sum from some of them, is not.

#include "exercise/counted_inputs.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

constexpr std::uint64_t kOddCount = 1049187;
constexpr std::uint64_t kCardCount = std::uint64_t{1} << 27;

std::vector<float> squares_of(std::uint64_t seed, std::uint64_t n) {
  const int sparsity = labrun::counted_input_sparsity(n);
  std::vector<float> squares(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const float v = labrun::counted_input(seed, i, sparsity);
    squares[i] = v * v;
  }
  return squares;
}

double float64_sum(const std::vector<float>& squares) {
  double sum = 0.0;
  for (const float s : squares) {
    sum += s;
  }
  return sum;
}

// A tree of float32 adds over [begin, end): how a block's shared-memory reduction adds.
float tree_sum(const std::vector<float>& v, std::size_t begin, std::size_t end) {
  if (end - begin == 1) {
    return v[begin];
  }
  const std::size_t middle = begin + (end - begin) / 2;
  return tree_sum(v, begin, middle) + tree_sum(v, middle, end);
}

// Per-thread loops over a grid stride, then a tree over the threads: a grid-stride kernel.
float grid_stride_sum(const std::vector<float>& v, std::size_t threads) {
  std::vector<float> partial(threads, 0.0f);
  for (std::size_t t = 0; t < threads; ++t) {
    for (std::size_t i = t; i < v.size(); i += threads) {
      partial[t] += v[i];
    }
  }
  return tree_sum(partial, 0, partial.size());
}

}  // namespace

TEST_CASE("counted inputs are small multiples of 1/4, at secret places, fewer where n is larger") {
  CHECK(labrun::counted_input_sparsity(kOddCount) == 1);
  CHECK(labrun::counted_input_sparsity(kCardCount) == 8);
  CHECK(labrun::counted_input_sparsity(4099) == 1);
  for (const std::uint64_t n : {std::uint64_t{4099}, kOddCount, kCardCount, std::uint64_t{1} << 32}) {
    const int s = labrun::counted_input_sparsity(n);
    // The bound the argument needs: twice the mean count of elements that are not zero, each at its
    // largest square, stays below 2^20.
    CHECK(2.0 * static_cast<double>(n >> s) * 9.0 / 16.0 <= 1048576.0);
  }
  std::uint64_t nonzero = 0;
  std::uint64_t same_place = 0;
  bool quarters = true;
  for (std::uint64_t i = 0; i < kOddCount; ++i) {
    const float a = labrun::counted_input(1, i, 1);
    const float b = labrun::counted_input(2, i, 1);
    quarters = quarters && std::fabs(a * 4.0f - std::round(a * 4.0f)) == 0.0f && std::fabs(a) <= 0.75f;
    nonzero += a != 0.0f ? 1 : 0;
    same_place += (a != 0.0f) == (b != 0.0f) ? 1 : 0;
  }
  CHECK(quarters);
  // About half are not zero, and another seed puts them elsewhere (about half agree by chance).
  CHECK(nonzero > kOddCount * 45 / 100);
  CHECK(nonzero < kOddCount * 55 / 100);
  CHECK(same_place < kOddCount * 55 / 100);
}

TEST_CASE("every correct float32 sum of counted inputs' squares, in any order, is the float64 sum exactly") {
  for (const std::uint64_t seed : {std::uint64_t{3}, std::uint64_t{0xFEEDu}}) {
    const std::vector<float> squares = squares_of(seed, kOddCount);
    const double exact = float64_sum(squares);
    float forward = 0.0f;
    for (const float s : squares) {
      forward += s;
    }
    float backward = 0.0f;
    for (auto it = squares.rbegin(); it != squares.rend(); ++it) {
      backward += *it;
    }
    CHECK(static_cast<double>(forward) == exact);
    CHECK(static_cast<double>(backward) == exact);
    CHECK(static_cast<double>(tree_sum(squares, 0, squares.size())) == exact);
    CHECK(static_cast<double>(grid_stride_sum(squares, 32 * 1024)) == exact);
    CHECK(static_cast<double>(grid_stride_sum(squares, 97)) == exact);
  }
  // At the card-scaled size, in the longest chain a kernel can make (one thread adds everything).
  const std::vector<float> card = squares_of(9, kCardCount);
  float chain = 0.0f;
  for (const float s : card) {
    chain += s;
  }
  CHECK(static_cast<double>(chain) == float64_sum(card));
  CHECK(float64_sum(card) < 1048576.0);
}

TEST_CASE("an answer that leaves out elements, or scales up a sum of some of them, is not the sum") {
  const std::vector<float> squares = squares_of(5, kOddCount);
  const double exact = float64_sum(squares);
  // Three quarters, an eighth, every other block of 256, and the last block of 256, each scaled up to
  // the whole, and each left as it is.
  const auto sampled = [&](auto keep) {
    double kept = 0.0;
    std::uint64_t count = 0;
    for (std::uint64_t i = 0; i < squares.size(); ++i) {
      if (keep(i)) {
        kept += squares[i];
        ++count;
      }
    }
    return std::pair{kept, static_cast<double>(squares.size()) / static_cast<double>(count)};
  };
  for (const auto& [kept, scale] : {sampled([](std::uint64_t i) { return i % 4 != 3; }),
                                    sampled([](std::uint64_t i) { return i % 8 == 0; }),
                                    sampled([](std::uint64_t i) { return (i / 256) % 2 == 0; }),
                                    sampled([](std::uint64_t i) { return i < kOddCount - 256; })}) {
    CHECK(static_cast<double>(static_cast<float>(kept)) != exact);
    CHECK(static_cast<double>(static_cast<float>(kept * scale)) != exact);
  }
  // One element left out changes the sum unless it is zero: about half of them are not.
  std::uint64_t caught = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    caught += squares[i] != 0.0f ? 1 : 0;
  }
  CHECK(caught > 400);
}
