#include "grading/resource_usage.hpp"

#include <catch2/catch_test_macros.hpp>
#include <fstream>
#include <sstream>
#include <string>

#include "support/test_data.hpp"

namespace {

// cuobjdump -res-usage's layout (a header, a Common block, then each function and its figures).
std::string res_usage(const std::string& first_shared, const std::string& second_shared) {
  return "\nResource usage:\n"
         " Common:\n  GLOBAL:0\n"
         " Function halfway_stages_3_4:\n"
         "  REG:16 STACK:0 SHARED:" +
         second_shared +
         " LOCAL:0 CONSTANT[0]:928 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
         " Function halfway_stages_1_2:\n"
         "  REG:12 STACK:0 SHARED:" +
         first_shared + " LOCAL:0 CONSTANT[0]:920 TEXTURE:0 SURFACE:0 SAMPLER:0\n";
}

std::string recorded(const std::string& name) {
  std::ifstream in(labrun::testing::repository_root() / "tests/grading/res-usage" / name);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("shared memory is found in any function's SHARED figure") {
  CHECK(labrun::any_function_uses_shared_memory(res_usage("0", "0")) == false);
  CHECK(labrun::any_function_uses_shared_memory(res_usage("1024", "0")) == true);
  CHECK(labrun::any_function_uses_shared_memory(res_usage("0", "4")) == true);
}

TEST_CASE("text that cannot be read as resource usage is not taken for no shared memory") {
  CHECK_FALSE(labrun::any_function_uses_shared_memory(""));
  CHECK_FALSE(labrun::any_function_uses_shared_memory("cuobjdump fatal   : Could not open input file\n"));
  CHECK_FALSE(labrun::any_function_uses_shared_memory(" Common:\n  GLOBAL:0\n"));  // no function
  // A function whose figures are missing, cut short, unreadable or too long to be a number.
  CHECK_FALSE(labrun::any_function_uses_shared_memory(" Function a:\n Function b:\n  REG:1 SHARED:0\n"));
  CHECK_FALSE(labrun::any_function_uses_shared_memory(" Function a:\n"));
  CHECK_FALSE(labrun::any_function_uses_shared_memory(" Function a:\n  REG:1 SHARED:x\n"));
  CHECK_FALSE(labrun::any_function_uses_shared_memory(" Function a:\n  REG:1 XSHARED:0\n"));
  CHECK_FALSE(labrun::any_function_uses_shared_memory(" Function a:\n  SHARED:1234567890123456789012\n"));
}

TEST_CASE("cuobjdump's output recorded on the H200 reads as the kernels declare") {
  // Written by cuobjdump -res-usage over cubins the grader compiled from the corpus (sm_90).
  CHECK(labrun::any_function_uses_shared_memory(recorded("correct.txt")) == false);
  CHECK(labrun::any_function_uses_shared_memory(recorded("correct-shared-tile.txt")) == true);
}
