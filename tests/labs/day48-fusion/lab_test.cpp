#include "lab.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <set>

#include "reference.hpp"

namespace {

const labrun::CaseSpec& spec(const labrun::Lab& lab, const std::string& short_name) {
  const labrun::CaseSpec* found = lab.find_case("day48-fusion/" + short_name);
  REQUIRE(found != nullptr);
  return *found;
}

}  // namespace

TEST_CASE("the lesson's byte counts and launch counts") {
  const labrun::Lab lab = day48::make_lab();
  CHECK(spec(lab, "part2/staged-chain").model.bytes_per_element() == 36.0);
  CHECK(spec(lab, "part2/staged-chain").model.launches == 4);
  CHECK(spec(lab, "part2/fused-chain").model.bytes_per_element() == 12.0);
  CHECK(spec(lab, "part2/halfway-pair").model.bytes_per_element() == 20.0);
  CHECK(spec(lab, "part2/halfway-pair").model.launches == 2);
  CHECK(spec(lab, "part2/copy-floor").model.bytes_per_element() == 8.0);
  // The four stages add up to the staged chain.
  double stages = 0.0;
  for (const char* s : {"part2/stage-scale-bias", "part2/stage-gelu", "part2/stage-add-residual",
                        "part2/stage-clamp-range"}) {
    stages += spec(lab, s).model.bytes_per_element();
  }
  CHECK(stages == 36.0);
  for (const int width : {1, 2, 4, 8, 16, 32}) {
    CHECK(spec(lab, "part4/fused-wide-k" + std::to_string(width)).model.bytes_per_element() == 12.0);
  }
  CHECK(spec(lab, "part1/empty-single-thread").launches_per_sample == 1000);
}

TEST_CASE("the lab's predictions are the lesson's ratios") {
  const labrun::Lab lab = day48::make_lab();
  std::set<std::string> seen;
  for (const labrun::Prediction& p : lab.predictions) {
    const auto r =
        labrun::predicted_ratios(lab.find_case(p.slower_case)->model, lab.find_case(p.faster_case)->model);
    if (p.description == "staged over fused") {
      CHECK(r.bytes == Catch::Approx(3.0));
      CHECK(r.launches == Catch::Approx(4.0));
    } else if (p.description == "staged over half-way (exercise)") {
      CHECK(r.bytes == Catch::Approx(1.8));
      CHECK(r.launches == Catch::Approx(2.0));
    } else if (p.description == "half-way over fused (exercise)") {
      CHECK(r.bytes == Catch::Approx(1.6667).epsilon(1e-4));
      CHECK(r.launches == Catch::Approx(2.0));
    }
    seen.insert(p.description);
  }
  CHECK(seen.count("staged over fused") == 1);
  CHECK(seen.count("half-way over fused (exercise)") == 1);
}

TEST_CASE("part 3 sweeps from 1024 by powers of four to the lesson size - then the card") {
  const labrun::Lab lab = day48::make_lab();
  const std::vector<labrun::SizeRequest> sizes = spec(lab, "part3/staged-chain").sizes;
  REQUIRE(sizes.size() == 9);
  CHECK(sizes.front().elements == 1024);
  CHECK(sizes[1].elements == 4096);
  CHECK(sizes[7].elements == 16777216);
  CHECK(sizes.back().label == "card-scaled");
  CHECK(lab.correctness_elements == 1049187);
  CHECK(lab.correctness_elements % 2 == 1);
}

TEST_CASE("every case names the correctness version that covers it - except the empty kernel") {
  const labrun::Lab lab = day48::make_lab();
  for (const labrun::CaseSpec& c : lab.cases) {
    if (c.part == "part1") {
      CHECK(c.verified_by.empty());
    } else {
      CHECK_FALSE(c.verified_by.empty());
    }
  }
}

TEST_CASE("the float64 reference follows the four stages") {
  // x = 1: t1 = 1.125; gelu(1.125) = 0.5 * 1.125 * (1 + erf(1.125 / sqrt 2)); + r; clamp to [-1, 4].
  const double t1 = 1.125;
  const double gelu = 0.5 * t1 * (1.0 + std::erf(t1 / std::sqrt(2.0)));
  const std::vector<double> y =
      day48::chain_reference({1.0f, 1.0f, 4.0f, -4.0f}, {0.25f, -0.5f, 1.0f, -1.0f});
  CHECK(y[0] == Catch::Approx(gelu + 0.25).epsilon(1e-15));
  CHECK(y[1] == Catch::Approx(gelu - 0.5).epsilon(1e-15));
  CHECK(y[2] == 4.0);   // 4.875 + 1 clamps to the top
  CHECK(y[3] == -1.0);  // gelu(-5.125) is about -0, minus 1 gives -1 (the bottom of the range)
}
