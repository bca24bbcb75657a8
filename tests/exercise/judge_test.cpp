// The harness's bound on how fast a correct submission can be (exercise/judge.hpp): from what it
// must move, by kind of traffic, and what the card's memory was measured to do for that kind.

#include "exercise/judge.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include "support/exercises.hpp"

using Catch::Approx;

namespace {

constexpr std::uint64_t kBoundElements = std::uint64_t{1} << 27;

// Milliseconds to move `bytes` per element of kBoundElements at `gb_per_s`.
double bound_ms_at(double bytes, double gb_per_s) {
  return bytes * static_cast<double>(kBoundElements) / (gb_per_s * 1e6);
}

}  // namespace

TEST_CASE("the fastest possible time takes each kind of traffic at the bandwidth measured for it") {
  const labrun::CardBandwidths card{4500.0, 3900.0};  // GB/s: a read-only stream, a copy
  // A reduction reads and writes nothing: bound by the read-only stream, not by the copy.
  CHECK(labrun::fastest_possible_ms(labrun::ByteModel{4.0, 0.0, 2}, kBoundElements, card) ==
        Approx(bound_ms_at(4.0, 4500.0)));
  // A copy: bound by the copy.
  CHECK(labrun::fastest_possible_ms(labrun::ByteModel{4.0, 4.0, 1}, kBoundElements, card) ==
        Approx(bound_ms_at(8.0, 3900.0)));
  // Day 48's pair, 12 read and 8 written: between the two, and never faster than all of it read.
  const double pair = labrun::fastest_possible_ms(labrun::ByteModel{12.0, 8.0, 2}, kBoundElements, card);
  CHECK(pair > bound_ms_at(20.0, 4500.0));
  CHECK(pair < bound_ms_at(20.0, 3900.0));
  // A write that a copy makes cheaper than a read is counted as free, never as negative.
  CHECK(labrun::fastest_possible_ms(labrun::ByteModel{4.0, 4.0, 1}, kBoundElements, {2000.0, 5000.0}) ==
        Approx(bound_ms_at(4.0, 2000.0)));
  // One kind measured stands for both; none measured, no bound.
  CHECK(labrun::fastest_possible_ms(labrun::ByteModel{4.0, 0.0, 2}, kBoundElements, {0.0, 3900.0}) ==
        Approx(bound_ms_at(4.0, 3900.0)));
  CHECK(labrun::fastest_possible_ms(labrun::ByteModel{4.0, 0.0, 2}, kBoundElements, {}) == 0.0);
}

TEST_CASE(
    "the card's bandwidths are the best measured for each kind: the harness's streams and the lab's cases") {
  const std::string sum_name = "fusion-verdicts/sum-of-squares";  // named: g++ 13 -Wdangling-reference
  const labrun::Exercise& sum = labrun::testing::registered_exercise(sum_name);
  labrun::TimingResult t;
  t.elements = kBoundElements;
  t.lab.medians = {{"two_kernels_ms", 0.52},
                   {"folded_ms", bound_ms_at(4.0, 4100.0)},
                   {"copy_floor_ms", bound_ms_at(8.0, 3950.0)},
                   {labrun::kReadStreamKey, bound_ms_at(4.0, 4400.0)},
                   {labrun::kCopyStreamKey, bound_ms_at(8.0, 3800.0)}};
  labrun::CardBandwidths card = labrun::measured_bandwidths(sum, t);
  CHECK(card.read_only_gb_per_s == Approx(4400.0));  // the stream beats the lab's folded kernel
  CHECK(card.copy_gb_per_s == Approx(3950.0));       // the lab's copy floor beats the stream
  // The lab's folded kernel writes nothing: it is a read-only stream too.
  t.lab.medians[3].second = bound_ms_at(4.0, 3000.0);
  CHECK(labrun::measured_bandwidths(sum, t).read_only_gb_per_s == Approx(4100.0));
  // Lab times shared by a batch before the harness timed its streams: the lab's cases alone.
  t.lab.medians.resize(3);
  card = labrun::measured_bandwidths(sum, t);
  CHECK(card.read_only_gb_per_s == Approx(4100.0));
  CHECK(card.copy_gb_per_s == Approx(3950.0));
}
