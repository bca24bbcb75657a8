#include "grading/source_check.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>

using Catch::Matchers::ContainsSubstring;

namespace {

labrun::IncludePolicy policy() {
  labrun::IncludePolicy p;
  p.quoted = {"grading/submission.cuh", "stages.cuh"};
  p.angled = {"cstdint"};
  p.angled_roots = {std::filesystem::path(LABRUN_TEST_DATA_DIR) /
                    "grading"};  // stands in for CUDA's include/
  return p;
}

std::vector<labrun::SourceProblem> check(const std::string& source) {
  return labrun::check_submission_source(source, policy());
}

bool refused(const std::string& source) {
  return !check(source).empty();
}

}  // namespace

TEST_CASE("the lab's and CUDA's headers may be included, literally") {
  CHECK(check("#include \"grading/submission.cuh\"\n#include <cstdint>\n__global__ void k() {}\n").empty());
  CHECK(check("  #  include   \"stages.cuh\"  // the stages\n").empty());
  CHECK(check("#include <source_check_test.cpp>\n").empty());  // a file under angled_roots
  CHECK(check("int a = 1'000'000; // digit separators are numbers, not characters\n#include <cstdint>\n")
            .empty());
}

TEST_CASE("an include of anything else is refused, with its line") {
  const auto problems = check("\n\n#include \"/etc/passwd\"\n");
  REQUIRE(problems.size() == 1);
  CHECK(problems.front().line == 3);
  CHECK_THAT(problems.front().message, ContainsSubstring("\"/etc/passwd\" is not allowed"));
  CHECK(refused("#include \"../../etc/passwd\"\n"));
  CHECK(refused("#include <../grading/source_check_test.cpp>\n"));
  CHECK(refused("#include </etc/passwd>\n"));
  CHECK(refused("#include <stdio.h>\n"));
  CHECK(refused("#include \"submission.cu\"\n"));
  CHECK(refused("#include_next <cstdint>\n"));
  CHECK(refused("#import \"stages.cuh\"\n"));
  CHECK(refused("#embed \"/etc/passwd\"\n"));
}

TEST_CASE("an include the check cannot read literally is refused") {
  CHECK(refused("#define SECRET \"/etc/shadow\"\n#include SECRET\n"));
  CHECK(refused("#include \"stages.cuh\" extra\n"));
  CHECK(refused("%:include \"/etc/passwd\"\n"));
  CHECK(refused("#if __has_include(\"/etc/shadow\")\n#endif\n"));
  CHECK(refused("#if __has_include_next(<cstdint>)\n#endif\n"));
  CHECK(refused("_Pragma(\"GCC dependency \\\"/etc/passwd\\\"\")\n"));
  CHECK(refused("_Pragma ( \"GCC  system_header\" )\n"));
  CHECK(refused("#pragma GCC dependency \"/etc/passwd\"\n"));
  CHECK(refused("#line 1 \"other.cu\"\n"));
  CHECK(refused(std::string("int a;\0\n", 8)));
  CHECK(refused(std::string(std::size_t{300} * 1024, ' ')));
  // C++17 has no trigraphs: GCC reads ??= as three characters, and this line as no directive.
  CHECK(check("?\?=include \"/etc/passwd\"\n").empty());
}

TEST_CASE("splices and comments cannot hide a directive") {
  CHECK(refused("#inc\\\nlude \"/etc/passwd\"\n"));
  CHECK(refused("/* a */ # /* b */ include \"/etc/passwd\"\n"));
  CHECK(refused("/* a comment\n   over lines */ #include \"/etc/passwd\"\n"));
  // A digit separator read as a quote would make the rest of its line a character literal and the
  // comment opener after it text; the next line must still be seen as a directive.
  CHECK(refused("int a = 1'0; /* x */\n#include \"/etc/passwd\"\n"));
  CHECK(refused("const char* s = \"'\"; int b = 2'0; /* */\n#include \"/etc/passwd\"\n"));
  // After a comment that joins two lines, a # that follows code on the first is not first on its
  // line, and GCC does not take it for a directive (the sandbox would stop what it could reach).
  CHECK(check("int a = 1; /*\n*/ #include \"/etc/passwd\"\n").empty());
}

TEST_CASE("every end of line the preprocessor knows ends a line for the check too") {
  // A lone CR, CR LF, and a backslash before CR LF or before spaces and a newline (a splice to GCC).
  CHECK(refused("int a;\r#include \"/etc/passwd\"\r"));
  CHECK(refused("int a;\r\n#include \"/etc/passwd\"\r\n"));
  CHECK(refused("#inc\\\r\nlude \"/etc/passwd\"\n"));
  CHECK(refused("#inc\\   \nlude \"/etc/passwd\"\n"));
  CHECK(refused("#inc\\\t \rlude \"/etc/passwd\"\n"));
  const auto problems = check("int a;\r\rint b;\r#include \"/etc/passwd\"\r");
  REQUIRE(problems.size() == 1);
  CHECK(problems.front().line == 4);
  CHECK(check("#include <cstdint>\r\n__global__ void k() {}\r\n").empty());
}

TEST_CASE("a byte-order mark does not hide the first directive") {
  CHECK(refused("\xEF\xBB\xBF#include \"/etc/passwd\"\n"));
  CHECK(check("\xEF\xBB\xBF#include <cstdint>\n").empty());
}

TEST_CASE("a GNU line marker is refused like #line") {
  CHECK(refused("# 1 \"/etc/passwd\"\n"));
  CHECK(refused("#1\n"));
  CHECK_THAT(check("# 7 \"x.cu\" 2\n").front().message, ContainsSubstring("line marker"));
}

TEST_CASE("a refusal says what kind it is") {
  CHECK(check("#include \"/etc/passwd\"\n").front().kind == labrun::kIncludeNotAllowed);
  CHECK(check(std::string("int a;\0\n", 8)).front().kind == labrun::kSourceNotText);
  CHECK(check(std::string(std::size_t{300} * 1024, ' ')).front().kind == labrun::kSourceTooLarge);
}

TEST_CASE("several folders of angled headers may be allowed") {
  labrun::IncludePolicy p = policy();
  p.angled_roots = {std::filesystem::path(LABRUN_TEST_DATA_DIR) / "nowhere",
                    std::filesystem::path(LABRUN_TEST_DATA_DIR) / "grading"};
  CHECK(labrun::check_submission_source("#include <source_check_test.cpp>\n", p).empty());
  CHECK_FALSE(labrun::check_submission_source("#include <gpu_turns_test.cpp.missing>\n", p).empty());
}

TEST_CASE("comments and literals are never directives, however they look") {
  // A commented-out include, in a block comment over lines, after a line comment, in a comment that
  // a splice continues.
  CHECK(check("/*\n#include \"/etc/passwd\"\n*/\n#include <cstdint>\n").empty());
  CHECK(check("/* notes\n   #include <cstdio>   (used for printf while debugging)\n*/\n").empty());
  CHECK(check("// #include \"/etc/passwd\"\n").empty());
  CHECK(check("// a comment \\\n#include \"/etc/passwd\"\n").empty());
  // Raw strings, however many lines they run and whatever they hold: a directive, a quote, a
  // delimiter's near miss, a backslash at the end of a line (no splice inside a raw string).
  CHECK(check("const char* s = R\"(\n#include \"/etc/passwd\"\n)\";\n").empty());
  CHECK(check("auto s = R\"x(\n)\" #include </etc/passwd>\n#pragma GCC dependency \"y\"\n)x\";\n").empty());
  CHECK(check("auto s = u8R\"--(ends with \\\n#line 4\n)--\";\n").empty());
  // Strings and characters that mention what would be refused in code.
  CHECK(check("const char* a = \"_Pragma(\\\"GCC dependency \\\\\\\"/etc/passwd\\\\\\\"\\\")\";\n").empty());
  CHECK(check("const char* b = \"#pragma GCC dependency \\\"/etc/passwd\\\"\"; char c = '#';\n").empty());
  CHECK(check("const char* d = \"__has_include(</etc/shadow>)\"; // __has_include\n").empty());
  CHECK(check("printf(\"%s\\n\", \"use #include <cstdio> for printf\");\n").empty());
  // ... and after every such literal, a real directive is still seen.
  CHECK(refused("const char* s = R\"(\n)\";\n#include \"/etc/passwd\"\n"));
  CHECK(refused("auto s = R\"x()\")x\";\n#line 3\n"));
  CHECK(refused("char q = '\"'; const char* t = \"'\";\n#include </etc/passwd>\n"));
  // A raw string's line count keeps the lines after it right.
  const auto problems = check("auto s = R\"(\na\nb\n)\";\n#include \"/etc/passwd\"\n");
  REQUIRE(problems.size() == 1);
  CHECK(problems.front().line == 5);
}

TEST_CASE("an include inside a conditional group is left to the preprocessor's own record") {
  CHECK(check("#if 0\n#include \"/etc/passwd\"\n#endif\n").empty());
  CHECK(check("#ifdef DEBUG_PRINTS\n#  include <cstdio>\n#else\n#  include <cstdint>\n#endif\n").empty());
  CHECK(check("#ifndef X\n#if 1\n#include_next <cstdint>\n#endif\n#endif\n").empty());
  // After the group is closed, the check is the text's again.
  CHECK(refused("#if 0\n#endif\n#include \"/etc/passwd\"\n"));
  // What the preprocessor cannot be asked about is refused wherever it is.
  CHECK(refused("#if 0\n#line 7\n#endif\n"));
  CHECK(refused("#if 0\n#pragma GCC dependency \"/etc/passwd\"\n#endif\n"));
  CHECK(refused("#if 0\n#if __has_include(\"/etc/shadow\")\n#endif\n#endif\n"));
}

TEST_CASE("_Pragma and __has_include are refused only for what could reach a file") {
  CHECK(check("#define UNROLL _Pragma(\"unroll\")\n#define PRAGMA(x) _Pragma(#x)\n").empty());
  CHECK(check("_Pragma(\"nv_diag_suppress 177\")\n").empty());
  CHECK(check("#if __has_include(<cstdint>) && __has_include(\"stages.cuh\")\n#endif\n").empty());
  CHECK(refused("#if __has_include(<cstdio>)\n#endif\n"));
  CHECK(refused("#define H(x) __has_include(x)\n"));
}
