#include "base/csv.hpp"

#include <catch2/catch_test_macros.hpp>

TEST_CASE("CSV fields are quoted only when they must be") {
  CHECK(labrun::csv_line({"a", "b c", ""}) == "a,b c,");
  CHECK(labrun::csv_line({"x,y", "say \"hi\"", "two\nlines"}) == "\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\"");
  CHECK(labrun::csv_line({"carriage\rreturn"}) == "\"carriage\rreturn\"");
  CHECK(labrun::csv_line({}).empty());
}

TEST_CASE("CSV text a spreadsheet would run as a formula is written as text") {
  CHECK(labrun::csv_line({"=HYPERLINK(\"http://x\")", "+1+1", "@SUM(A1)", "-cmd"}) ==
        "\"'=HYPERLINK(\"\"http://x\"\")\",'+1+1,'@SUM(A1),'-cmd");
  CHECK(labrun::csv_line({"\tx", "\r=1"}) == "'\tx,\"'\r=1\"");
  // Numbers keep their sign, and text that merely contains a formula character is left alone.
  CHECK(labrun::csv_line({"-1.5", "+3", "-2e-05", "a=b", "x-y"}) == "-1.5,+3,-2e-05,a=b,x-y");
  CHECK(labrun::csv_line({"-inf", "-nan", "-0x1p3"}) == "'-inf,'-nan,'-0x1p3");
  // strtod reads all of these as numbers; a spreadsheet reads each as a formula.
  CHECK(labrun::csv_line({"-nan(1)", "+nan(0x7)", "-infinity", "-1e", "-.", "- 1", "-1.2.3", "+1e+"}) ==
        "'-nan(1),'+nan(0x7),'-infinity,'-1e,'-.,'- 1,'-1.2.3,'+1e+");
  CHECK(labrun::csv_line({"\t1", "\r-2"}) == "'\t1,\"'\r-2\"");
  CHECK(labrun::csv_line({"-.5", "+7.", "-1E+3", "12"}) == "-.5,+7.,-1E+3,12");
}
