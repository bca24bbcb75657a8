#include "exercise/outside_watch.hpp"

#include <catch2/catch_test_macros.hpp>
#include <cstdint>
#include <functional>
#include <set>
#include <stdexcept>
#include <vector>

namespace {

// The child's memory outside one call's buffers, as the timed phase sees it: `untouched` (the
// lab's buffers: nothing of the child's writes them between calls) and `rest` (the checks' counters,
// which the child's own check writes after every call).
struct Outside {
  std::vector<std::uint32_t> untouched = std::vector<std::uint32_t>(64, 7);
  std::vector<std::uint32_t> rest = std::vector<std::uint32_t>(4, 0);
};

// A keyed, position-dependent digest of words, standing in for the device's (device_checks.hpp).
std::uint64_t digest(const std::vector<std::uint32_t>& words, std::uint64_t key) {
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::uint64_t z = key ^ (i * 0x9E3779B97F4A7C15ull) ^ (static_cast<std::uint64_t>(words[i]) << 17);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    sum += z ^ (z >> 31);
  }
  return sum;
}
std::uint64_t digest_untouched(const Outside& o) {
  return digest(o.untouched, 0x1234);
}
std::uint64_t digest_rest(const Outside& o) {
  return digest(o.rest, 0x5678);
}
std::uint64_t digest_all(const Outside& o) {
  return digest_untouched(o) + digest_rest(o);
}

// What the submission's call `k` (from 0) does to the memory outside its buffers.
using Call = std::function<void(int k, Outside&)>;

// The child's own work between calls: its check counts into the counters after each call.
void check_writes_counters(int k, Outside& o) {
  o.rest[0] = static_cast<std::uint32_t>(k + 1);
  o.rest[1] = 0xFFFFFFFFu - static_cast<std::uint32_t>(k);
}

// The calls that changed memory outside, digested whole before and after every call (as before).
std::set<int> flagged_digesting_every_call(int calls, const Call& call) {
  Outside o;
  std::set<int> flagged;
  for (int k = 0; k < calls; ++k) {
    const std::uint64_t before = digest_all(o);
    call(k, o);
    if (digest_all(o) != before) {
      flagged.insert(k);
    }
    check_writes_counters(k, o);
  }
  return flagged;
}

// The same, with OutsideWatch: the untouched part digested before the first call only.
std::set<int> flagged_reusing_after_digests(int calls, const Call& call, int* untouched_digests) {
  Outside o;
  labrun::OutsideWatch watch;
  std::set<int> flagged;
  for (int k = 0; k < calls; ++k) {
    std::optional<std::uint64_t> untouched;
    if (watch.needs_untouched_before()) {
      untouched = digest_untouched(o);
      ++*untouched_digests;
    }
    watch.before_call(digest_rest(o), untouched);
    call(k, o);
    ++*untouched_digests;
    if (watch.changed_by_call(digest_rest(o), digest_untouched(o))) {
      flagged.insert(k);
    }
    check_writes_counters(k, o);
  }
  return flagged;
}

constexpr int kCalls = 32;  // 2 warm-ups and 30 timed

void require_same_calls(const Call& call, const std::set<int>& expected) {
  int untouched_digests = 0;
  const std::set<int> reusing = flagged_reusing_after_digests(kCalls, call, &untouched_digests);
  CHECK(flagged_digesting_every_call(kCalls, call) == expected);
  CHECK(reusing == expected);
  CHECK(untouched_digests == kCalls + 1);  // one before the first call, one after each
}

}  // namespace

TEST_CASE("an honest pair changes nothing outside, though the checks write their counters between calls",
          "[outside-watch]") {
  require_same_calls([](int, Outside&) {}, {});
}

TEST_CASE("a write outside in any single call is caught in that call alone, reusing after-digests",
          "[outside-watch]") {
  for (const int at : {0, 1, kCalls / 2, kCalls - 1}) {
    INFO("the write in call " << at);
    require_same_calls(
        [at](int k, Outside& o) {
          if (k == at) {
            o.untouched[5] ^= 1u;
          }
        },
        {at});
  }
}

TEST_CASE("a write outside restored in the next call is caught in both calls", "[outside-watch]") {
  for (const int at : {0, kCalls / 2, kCalls - 2}) {
    INFO("the write in call " << at);
    require_same_calls(
        [at](int k, Outside& o) {
          if (k == at) {
            o.untouched[9] += 3u;
          } else if (k == at + 1) {
            o.untouched[9] -= 3u;
          }
        },
        {at, at + 1});
  }
}

TEST_CASE("a call that writes the checks' counters, or puts back what the check wrote, is caught",
          "[outside-watch]") {
  // The counters are digested afresh before every call: a call that restores the value they held
  // before the check wrote them changes them, as much as one that scribbles over them.
  require_same_calls(
      [](int k, Outside& o) {
        if (k == 3) {
          o.rest[2] = 42;
        }
        if (k == 10) {
          o.rest[0] = 0;
          o.rest[1] = 0;
        }
      },
      {3, 10});
}

TEST_CASE("a write in every call, or the same value written twice, counts as often as before",
          "[outside-watch]") {
  require_same_calls([](int k, Outside& o) { o.untouched[static_cast<std::size_t>(k)] = 1000u + 1; },
                     [] {
                       std::set<int> all;
                       for (int k = 0; k < kCalls; ++k) {
                         all.insert(k);
                       }
                       return all;
                     }());
  // The second write of the same value changes nothing: uncaught both ways.
  require_same_calls(
      [](int k, Outside& o) {
        if (k == 4 || k == 5) {
          o.untouched[0] = 99;
        }
      },
      {4});
}

TEST_CASE("the watch refuses a first call without its own digest, and calls out of order",
          "[outside-watch]") {
  labrun::OutsideWatch watch;
  CHECK(watch.needs_untouched_before());
  CHECK_THROWS_AS(watch.before_call(1, std::nullopt), std::logic_error);
  CHECK_THROWS_AS(static_cast<void>(watch.changed_by_call(1, 2)), std::logic_error);
  watch.before_call(1, 2);
  CHECK_THROWS_AS(watch.before_call(1, 2), std::logic_error);
  CHECK_FALSE(watch.changed_by_call(1, 2));
  CHECK_FALSE(watch.needs_untouched_before());
  // The next call's "before" of the untouched part is the last "after", whatever is passed.
  watch.before_call(5, 999);
  CHECK_FALSE(watch.changed_by_call(5, 2));
  watch.before_call(5, std::nullopt);
  CHECK(watch.changed_by_call(5, 3));
}
