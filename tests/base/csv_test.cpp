#include "base/csv.hpp"

#include <catch2/catch_test_macros.hpp>

TEST_CASE("CSV fields are quoted only when they must be") {
  CHECK(labrun::csv_line({"a", "b c", ""}) == "a,b c,");
  CHECK(labrun::csv_line({"x,y", "say \"hi\"", "two\nlines"}) == "\"x,y\",\"say \"\"hi\"\"\",\"two\nlines\"");
  CHECK(labrun::csv_line({"carriage\rreturn"}) == "\"carriage\rreturn\"");
  CHECK(labrun::csv_line({}).empty());
}
