#include "grading/included_files.hpp"

#include <catch2/catch_test_macros.hpp>
#include <filesystem>

namespace fs = std::filesystem;

TEST_CASE("a make rule's prerequisites are read as make reads them") {
  const auto words = labrun::make_rule_prerequisites(
      "submission.o : submission.cu \\\n    /usr/include/stdio.h \\\n    /opt/a\\ b/x.h $$HOME/y.h \\\r\n"
      "    /c/\\#d.h\n");
  REQUIRE(words.has_value());
  CHECK(*words == std::vector<std::string>{"submission.cu", "/usr/include/stdio.h", "/opt/a b/x.h",
                                           "$HOME/y.h", "/c/#d.h"});
  CHECK(labrun::make_rule_prerequisites("a.o: b.cu c.h\nother: d.h\n") ==
        std::vector<std::string>{"b.cu", "c.h"});
  CHECK_FALSE(labrun::make_rule_prerequisites("no rule here").has_value());
}

TEST_CASE("only the submission, the allowed files and trees and the system's headers may be opened") {
  labrun::AllowedIncludes allowed;
  allowed.files = {"/work/scratch/submission.cu", "/lab/stages.cuh"};
  allowed.trees = {"/toolkit/include"};
  const std::vector<std::string> opened{"submission.cu",
                                        "/lab/stages.cuh",
                                        "/toolkit/include/cuda_runtime.h",
                                        "/toolkit/include/cccl/cuda/std/cstdint",
                                        "/usr/include/stdio.h",
                                        "/usr/lib/gcc/x86_64-linux-gnu/12/include/stddef.h",
                                        "/usr/lib/gcc/x86_64-linux-gnu/12/include-fixed/limits.h",
                                        "/lab/grading/judge.hpp",
                                        "/usr/share/dict/words",
                                        "/usr/lib/gcc/x86_64-linux-gnu/12/libgcc.a",
                                        "/toolkit/include/../../etc/shadow",
                                        "../scratch2/other.cu",
                                        "/proc/self/environ"};
  const std::vector<fs::path> refused = labrun::files_not_allowed(opened, "/work/scratch", allowed);
  REQUIRE(refused.size() == 6);
  CHECK(refused[0] == "/lab/grading/judge.hpp");
  CHECK(refused[1] == "/usr/share/dict/words");
  CHECK(refused[2] == "/usr/lib/gcc/x86_64-linux-gnu/12/libgcc.a");
  CHECK(refused[3] == "/etc/shadow");
  CHECK(refused[4] == "/work/scratch2/other.cu");
  CHECK(refused[5].string().rfind("/proc/", 0) == 0);
}

TEST_CASE("the files a compiler could not open are read from its messages") {
  const std::string gcc =
      "In file included from submission.cu:3:\n"
      "/toolkit/include/thrust/x.h:35:46: fatal error: thrust/system/../../etc/y/memory.h: No such file or "
      "directory\n"
      "   35 | #include <a>\n"
      "cc1plus: fatal error: /etc/passwd: No such file or directory\n";
  CHECK(labrun::files_not_found(gcc) ==
        std::vector<std::string>{"thrust/system/../../etc/y/memory.h", "/etc/passwd"});
  CHECK(labrun::files_not_found(
            "submission.cu(4): catastrophic error: cannot open source file \"/x/y.h\"\r\n") ==
        std::vector<std::string>{"/x/y.h"});
  CHECK(labrun::files_not_found("submission.cu(4): error: identifier \"x\" is undefined\n").empty());
}

TEST_CASE("the line that includes a file is found by the file's name") {
  const std::string source = "#include <cstdint>\n  #  include \"../../x/secret.h\"\nint secret_h;\n";
  CHECK(labrun::line_including(source, "/etc/x/secret.h") == 2);
  CHECK(labrun::line_including(source, "/usr/include/stdint.h") == 0);
  CHECK(labrun::line_including(source, "/usr/include/c++/12/cstdint") == 1);
}
