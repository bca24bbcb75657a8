// The grader's own kernels (the chain pair's, exercise/chain_pair_checks.cuh, as day 48's
// grading/checks.cu makes them; exercise/device_checks.hpp) against the
// host's float64 reference: what they count is what a host comparison finds. Skips without a GPU.

#include <catch2/catch_test_macros.hpp>
#include <cstring>
#include <utility>
#include <vector>

#include "exercise/counted_inputs.hpp"
#include "exercise/device_checks.hpp"
#include "grading/checks.hpp"
#include "kernels.hpp"
#include "reference.hpp"
#include "support/require_gpu.hpp"
#include "timing/cuda_check.hpp"
#include "timing/device_buffer.hpp"
#include "verify/compare.hpp"

namespace {

using labrun::count_words_not;
using labrun::DeviceBuffer;
using labrun::digest_words;
using labrun::kPoisonWord;
using OutputCounters = labrun::ChainOutputCounters;
using IntermediateCounters = labrun::ChainIntermediateCounters;

// Day 48's chain's checks, as the grading child calls them.
const labrun::ChainPairChecks& chain_checks() {
  static const labrun::ChainPairChecks made = day48::grading::halfway_checks();
  return made;
}

template <typename T>
std::vector<T> download(const DeviceBuffer<T>& buffer, std::size_t count) {
  std::vector<T> host(count);
  LABRUN_CUDA_CHECK(cudaMemcpy(host.data(), buffer.data(), count * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

template <typename T>
void upload(DeviceBuffer<T>& buffer, const std::vector<T>& host) {
  LABRUN_CUDA_CHECK(cudaMemcpy(buffer.data(), host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
}

OutputCounters inspect(const DeviceBuffer<float>& y, std::size_t n, std::uint64_t seed) {
  DeviceBuffer<OutputCounters> counters(1);
  chain_checks().inspect_output(y.data(), n, seed, seed, 1e-5, 1e-5, true, counters.data(), nullptr);
  return download(counters, 1).front();
}

}  // namespace

TEST_CASE("the grader's inputs are the lab's, and its inspection agrees with the host reference") {
  labrun::testing::require_gpu();
  constexpr std::size_t n = 100003;
  constexpr std::uint64_t seed = 4242;
  DeviceBuffer<float> x(n), residual(n), lab_x(n), lab_residual(n), halfway(n), y(n);
  day48::ChainBuffers lab{lab_x.data(), lab_residual.data(), nullptr, nullptr, nullptr,
                          y.data(),     halfway.data(),      nullptr};
  day48::fill_inputs(lab, n, seed, nullptr);
  chain_checks().generate_inputs(x.data(), residual.data(), n, seed, seed, nullptr);
  LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(download(x, n) == download(lab_x, n));
  CHECK(download(residual, n) == download(lab_residual, n));

  day48::launch_halfway_pair(lab, n, nullptr);
  LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  const OutputCounters right = inspect(y, n, seed);
  CHECK(right.mismatches == 0);
  CHECK(right.unwritten == 0);
  CHECK(right.written_end == n);
  const auto host = labrun::compare_with_reference(
      "halfway", download(y, n), day48::chain_reference(download(x, n), download(residual, n)),
      labrun::Tolerance{1e-5, 1e-5});
  CHECK(host.mismatches == 0);

  // One wrong value, one unwritten tail element.
  std::vector<float> damaged = download(y, n);
  damaged[17] = 3.5f;
  std::uint32_t poison = kPoisonWord;
  std::memcpy(&damaged[n - 1], &poison, sizeof poison);
  upload(y, damaged);
  const OutputCounters wrong = inspect(y, n, seed);
  CHECK(wrong.mismatches == 2);
  CHECK(wrong.unwritten == 1);
  CHECK(wrong.first_bad == 17);
  CHECK(wrong.written_end == n - 1);

  // An output of a wrong composition is recognised as that composition everywhere.
  const std::vector<float> xs = download(x, n);
  const std::vector<float> rs = download(residual, n);
  std::vector<float> twice(n);
  for (std::size_t i = 0; i < n; ++i) {
    twice[i] = static_cast<float>(day48::chain_element(day48::Composition::kGeluTwice, xs[i], rs[i]));
  }
  upload(y, twice);
  const OutputCounters composed = inspect(y, n, seed);
  CHECK(composed.mismatches > n / 2);
  CHECK(composed.composition_matches[static_cast<int>(day48::Composition::kGeluTwice)] == n);
}

TEST_CASE("the intermediate, guard, input and digest checks count what changed") {
  labrun::testing::require_gpu();
  constexpr std::size_t n = 5003;
  constexpr std::uint64_t seed = 7;
  DeviceBuffer<float> x(n), residual(n), intermediate(n);
  DeviceBuffer<IntermediateCounters> counters(1);
  DeviceBuffer<unsigned long long> tally(1);
  chain_checks().generate_inputs(x.data(), residual.data(), n, seed, seed, nullptr);
  chain_checks().plant_intermediate(intermediate.data(), n, seed, nullptr);
  chain_checks().inspect_intermediate(intermediate.data(), n, seed, 1e-5, 1e-5, counters.data(), nullptr);
  CHECK(download(counters, 1).front().mismatches == 0);
  CHECK(download(counters, 1).front().unwritten == 0);

  LABRUN_CUDA_CHECK(cudaMemset(tally.data(), 0, sizeof(unsigned long long)));
  chain_checks().count_input_changes(x.data(), residual.data(), n, seed, seed, tally.data(), nullptr);
  CHECK(download(tally, 1).front() == 0);
  const float changed = 0.25f;
  LABRUN_CUDA_CHECK(cudaMemcpy(x.data() + 9, &changed, sizeof changed, cudaMemcpyHostToDevice));
  chain_checks().count_input_changes(x.data(), residual.data(), n, seed, seed, tally.data(), nullptr);
  CHECK(download(tally, 1).front() == 1);

  LABRUN_CUDA_CHECK(cudaMemset(intermediate.data(), 0xFF, n * sizeof(float)));
  LABRUN_CUDA_CHECK(cudaMemset(tally.data(), 0, sizeof(unsigned long long)));
  count_words_not(intermediate.data(), n, kPoisonWord, tally.data(), nullptr);
  CHECK(download(tally, 1).front() == 0);
  LABRUN_CUDA_CHECK(
      cudaMemcpy(intermediate.data() + n - 1, &changed, sizeof changed, cudaMemcpyHostToDevice));
  count_words_not(intermediate.data(), n, kPoisonWord, tally.data(), nullptr);
  CHECK(download(tally, 1).front() == 1);

  // The digest, at every alignment and length (n is odd: 16-byte units, then a tail of words; from
  // the second word on, a word a unit).
  const auto digest_at = [&](std::size_t first, std::size_t count, std::uint64_t key) {
    LABRUN_CUDA_CHECK(cudaMemset(tally.data(), 0, sizeof(unsigned long long)));
    digest_words(residual.data() + first, count, key, tally.data(), nullptr);
    return download(tally, 1).front();
  };
  const auto set = [&](std::size_t at, float value) {
    LABRUN_CUDA_CHECK(cudaMemcpy(residual.data() + at, &value, sizeof value, cudaMemcpyHostToDevice));
  };
  const auto get = [&](std::size_t at) {
    float value = 0.0f;
    LABRUN_CUDA_CHECK(cudaMemcpy(&value, residual.data() + at, sizeof value, cudaMemcpyDeviceToHost));
    return value;
  };
  for (const auto& [first, count] : {std::pair<std::size_t, std::size_t>{0, n}, {1, n - 1}, {0, n - 1}}) {
    INFO("words " << first << " to " << first + count);
    const unsigned long long before = digest_at(first, count, 99);
    CHECK(digest_at(first, count, 99) == before);
    CHECK(digest_at(first, count, 100) != before);
    // One word changed, in the 16-byte units and in the tail.
    for (const std::size_t at : {first + 1234, first + count - 1}) {
      const float kept = get(at);
      set(at, -0.5f);
      CHECK(digest_at(first, count, 99) != before);
      set(at, kept);
      CHECK(digest_at(first, count, 99) == before);
    }
    // Two words swapped, within a unit and across units: the sum is of positions, not values.
    for (const std::size_t other : {first + 1235, first + 5000}) {
      const float a = get(first + 1234);
      const float b = get(other);
      REQUIRE(a != b);
      set(first + 1234, b);
      set(other, a);
      CHECK(digest_at(first, count, 99) != before);
      set(first + 1234, a);
      set(other, b);
    }
  }
}

TEST_CASE("the harness's counted inputs on the device are the host's, and its streams move what they say") {
  labrun::testing::require_gpu();
  constexpr std::size_t n = 1049187;
  DeviceBuffer<float> x(n), y(n), sink(4096);
  labrun::fill_counted_inputs(x.data(), n, 77, nullptr);
  const std::vector<float> device = download(x, n);
  const int sparsity = labrun::counted_input_sparsity(n);
  std::size_t differing = 0;
  for (std::size_t i = 0; i < n; ++i) {
    differing += device[i] != labrun::counted_input(77, i, sparsity) ? 1 : 0;
  }
  CHECK(differing == 0);
  int multiprocessors = 0;
  LABRUN_CUDA_CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, 0));
  LABRUN_CUDA_CHECK(cudaMemset(sink.data(), 0xFF, 4096 * sizeof(float)));
  labrun::read_stream(x.data(), n, sink.data(), multiprocessors, nullptr);
  labrun::copy_stream(x.data(), y.data(), n, multiprocessors, nullptr);
  LABRUN_CUDA_CHECK(cudaDeviceSynchronize());
  CHECK(download(y, n) == device);  // every element, the odd tail included
  DeviceBuffer<unsigned long long> count(1);
  LABRUN_CUDA_CHECK(cudaMemset(count.data(), 0, sizeof(unsigned long long)));
  count_words_not(sink.data(), 4096, kPoisonWord, count.data(), nullptr);
  CHECK(download(count, 1).front() == 0);  // the read stream wrote nothing
}
