#include "grading/compiler_messages.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

using Catch::Matchers::ContainsSubstring;

TEST_CASE("only the compiler's messages about the submission's own lines are kept") {
  const std::string output =
      "In file included from submission.cu:3:\n"
      "/etc/secret.h:1:1: error: expected unqualified-id before 'root'\n"
      "    1 | root:x:0:0:root\n"
      "      | ^~~~\n"
      "submission.cu(12): error: identifier \"foo\" is undefined\n"
      "      y[i] = foo;\n"
      "             ^\n"
      "/usr/local/cuda/include/crt/host_config.h(10): warning: something\n"
      "    detail of that warning\n"
      "ptxas error   : Entry function 'k' uses too much shared data\n"
      "1 error detected in the compilation of \"submission.cu\".\n";
  const std::string kept = labrun::messages_about(output, "submission.cu");
  CHECK_THAT(kept, ContainsSubstring("submission.cu(12): error: identifier \"foo\" is undefined"));
  CHECK_THAT(kept, ContainsSubstring("      y[i] = foo;"));
  CHECK_THAT(kept, ContainsSubstring("ptxas error"));
  CHECK_THAT(kept, ContainsSubstring("1 error detected in the compilation of \"submission.cu\"."));
  CHECK(kept.find("root") == std::string::npos);
  CHECK(kept.find("secret") == std::string::npos);
  CHECK(kept.find("host_config") == std::string::npos);
  CHECK_THAT(kept, ContainsSubstring("[6 lines of the compiler's output about other files left out]"));
}

TEST_CASE("invalid bytes in the compiler's messages become U+FFFD, and long output keeps its end") {
  const std::string kept =
      labrun::messages_about("submission.cu(1): error: bad \xff\xfe name\n", "submission.cu");
  CHECK_THAT(kept, ContainsSubstring("bad \xEF\xBF\xBD\xEF\xBF\xBD name"));
  std::string many;
  for (int i = 0; i < 2000; ++i) {
    many += "submission.cu(" + std::to_string(i) + "): error: x\n";
  }
  many += "2000 errors detected in the compilation of \"submission.cu\".\n";
  const std::string bounded = labrun::messages_about(many, "submission.cu", 2000);
  CHECK(bounded.size() < 2100);
  CHECK_THAT(bounded, ContainsSubstring("2000 errors detected"));
}
