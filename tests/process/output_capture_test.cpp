#include "process/output_capture.hpp"

#include <catch2/catch_test_macros.hpp>
#include <string>

TEST_CASE("output under the cap is kept whole") {
  labrun::HeadTailBuffer buffer(100);
  buffer.append("hello ");
  buffer.append("world");
  CHECK(buffer.text() == "hello world");
  CHECK(buffer.total_bytes() == 11);
}

TEST_CASE("output over the cap keeps its first and last bytes, in order") {
  labrun::HeadTailBuffer buffer(10);
  for (char c = 'a'; c <= 'z'; ++c) {
    buffer.append(std::string(1, c));
  }
  CHECK(buffer.text() == "abcde\n[... 16 bytes left out ...]\nvwxyz");
  labrun::HeadTailBuffer at_once(10);
  at_once.append("abcdefghijklmnopqrstuvwxyz");
  CHECK(at_once.text() == buffer.text());
  labrun::HeadTailBuffer in_pieces(10);
  in_pieces.append("abcdefgh");
  in_pieces.append("ijklmnopq");
  in_pieces.append("rstuvwxyz");
  CHECK(in_pieces.text() == buffer.text());
}
