#pragma once
// Tests that compile inside the compiler sandbox call this first: on a machine where the sandbox
// cannot run (no user namespaces, say) the test is skipped (Catch2 SKIP), never passed.

#include <catch2/catch_test_macros.hpp>

#include "process/sandbox.hpp"

namespace labrun::testing {

inline void require_sandbox() {
  if (!sandbox_availability().usable) {
    SKIP("no compiler sandbox on this machine: " + sandbox_availability().problem);
  }
}

}  // namespace labrun::testing
