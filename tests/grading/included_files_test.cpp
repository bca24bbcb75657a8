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

TEST_CASE("the files a compiler could not open are read from its messages, whatever the reason") {
  const std::string gcc =
      "In file included from submission.cu:3:\n"
      "/toolkit/include/thrust/x.h:35:46: fatal error: thrust/system/../../etc/y/memory.h: No such file or "
      "directory\n"
      "   35 | #include <a>\n"
      "cc1plus: fatal error: /etc/passwd: No such file or directory\n"
      "cc1plus: fatal error: /dev/tty: No such device or address\n"
      "submission.cu:9:10: fatal error: /proc/1/environ: Permission denied\n"
      "submission.cu:12:2: fatal error: #include nested depth 200 exceeds maximum of 200\n";
  CHECK(labrun::files_named_by_compiler(gcc).not_opened ==
        std::vector<std::string>{"thrust/system/../../etc/y/memory.h", "/etc/passwd", "/dev/tty",
                                 "/proc/1/environ"});
  CHECK(labrun::files_named_by_compiler(
            "submission.cu(4): catastrophic error: cannot open source file \"/x/y.h\"\r\n")
            .not_opened == std::vector<std::string>{"/x/y.h"});
  CHECK(labrun::files_named_by_compiler("submission.cu(4): error: identifier \"x\" is undefined\n")
            .not_opened.empty());
}

TEST_CASE("the compiler's trace names every header it opened, with its depth, even when it then failed") {
  const std::string output =
      ". /lab/grading/submission.cuh\n"
      ".. /lab/stages.cuh\n"
      "... /usr/include/c++/12/cmath\n"
      ". /usr/bin/gettext.sh\n"
      "In file included from submission.cu:4:\n"
      "/usr/bin/gettext.sh:1:2: error: invalid preprocessing directive #!\n"
      "    1 | #!/bin/sh\n"
      "Multiple include guards may be useful for:\n"
      "/usr/include/x86_64-linux-gnu/bits/byteswap.h\n";
  const labrun::CompilerFileRecord record = labrun::files_named_by_compiler(output);
  REQUIRE(record.opened.size() == 4);
  CHECK(record.opened[0].path == "/lab/grading/submission.cuh");
  CHECK(record.opened[0].depth == 1);
  CHECK(record.opened[2].depth == 3);
  CHECK(record.opened[3].path == "/usr/bin/gettext.sh");
  // Files the messages are located in: the submission, and the script that broke the preprocessor.
  CHECK(record.located == std::vector<std::string>{"submission.cu", "/usr/bin/gettext.sh"});
  CHECK(labrun::files_named_by_compiler("x.cu(7): error: expected a \";\"\n").located ==
        std::vector<std::string>{"x.cu"});
  CHECK(labrun::files_named_by_compiler("                 from /toolkit/include/cub/cub.cuh:52,\n").located ==
        std::vector<std::string>{"/toolkit/include/cub/cub.cuh"});
  CHECK(labrun::files_named_by_compiler("ptxas info    : Used 10 registers\n").located.empty());
}

TEST_CASE("the compiler's messages are read apart from its trace of the headers it opened") {
  const std::string output =
      ". /usr/include/c++/12/cstdint\n"
      "submission.cu(3): error: identifier \"x\" is undefined\n"
      ".. /usr/include/stdint.h\n"
      "Multiple include guards may be useful for:\n"
      "/usr/include/x86_64-linux-gnu/bits/byteswap.h\n"
      "1 error detected in the compilation of \"submission.cu\".\n";
  CHECK(labrun::without_include_trace(output) ==
        "submission.cu(3): error: identifier \"x\" is undefined\n"
        "1 error detected in the compilation of \"submission.cu\".\n");
}

TEST_CASE("what the source includes itself must be a header the policy names") {
  labrun::DirectIncludes allowed;
  allowed.files = {"/lab/stages.cuh"};
  allowed.trees = {"/toolkit/include"};
  allowed.system_names = {"cstdint", "stdint.h"};
  const std::vector<labrun::TracedFile> opened{{"/toolkit/include/cuda_runtime.h", 1},
                                               {"/lab/stages.cuh", 1},
                                               {"/usr/include/c++/12/cstdint", 1},
                                               {"/usr/include/c++/12/cstdio", 1},
                                               {"/usr/include/stdio.h", 2},
                                               {"/lab/grading/judge.hpp", 1},
                                               {"/usr/include/x86_64-linux-gnu/bits/stdint.h", 1}};
  const std::vector<fs::path> refused = labrun::direct_includes_not_allowed(opened, "/work/scratch", allowed);
  CHECK(refused == std::vector<fs::path>{"/usr/include/c++/12/cstdio", "/lab/grading/judge.hpp"});
}

TEST_CASE("the line that includes a file is found by the file's name") {
  const std::string source = "#include <cstdint>\n  #  include \"../../x/secret.h\"\nint secret_h;\n";
  CHECK(labrun::line_including(source, "/etc/x/secret.h") == 2);
  CHECK(labrun::line_including(source, "/usr/include/stdint.h") == 0);
  CHECK(labrun::line_including(source, "/usr/include/c++/12/cstdint") == 1);
}
