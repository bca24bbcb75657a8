#include "base/gzip.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <fstream>
#include <stdexcept>
#include <string>

#include "base/atomic_file.hpp"
#include "support/temporary_directory.hpp"

using Catch::Matchers::ContainsSubstring;

namespace {

// gzip of 1 MiB of zeros (about 1 KiB compressed): with a bound below 1 MiB it is a small file that
// claims more memory than it is allowed.
std::string zeros_compressed(std::size_t bytes) {
  return labrun::gzip_compress(std::string(bytes, '\0'));
}

void write_bytes(const std::filesystem::path& file, const std::string& bytes) {
  std::ofstream(file, std::ios::binary) << bytes;
}

}  // namespace

TEST_CASE("gzip is recognised by its magic bytes, not by a name") {
  CHECK(labrun::looks_gzip(std::string("\x1f\x8b\x08", 3)));
  CHECK_FALSE(labrun::looks_gzip("{\"schema_version\": \"1.0.0\"}"));
  CHECK_FALSE(labrun::looks_gzip(std::string("\x1f", 1)));
  CHECK_FALSE(labrun::looks_gzip(""));
}

TEST_CASE("compressed text decompresses to the same bytes, every byte value included") {
  if (!labrun::gzip_supported()) {
    SKIP("this build has no zlib");
  }
  std::string text;
  for (int i = 0; i < 70000; ++i) {  // more than one 64 KiB output buffer
    text.push_back(static_cast<char>(i * 7 % 256));
  }
  const std::string compressed = labrun::gzip_compress(text);
  CHECK(labrun::looks_gzip(compressed));
  CHECK(labrun::gzip_compress(text) == compressed);  // no time or name in the header
  CHECK(labrun::gunzip(compressed, text.size(), "t.json.gz") == text);
  CHECK(labrun::gunzip(labrun::gzip_compress(""), 0, "empty.gz").empty());
}

TEST_CASE("gzip that is damaged, cut short, followed by more, or larger than allowed is refused, named") {
  if (!labrun::gzip_supported()) {
    SKIP("this build has no zlib");
  }
  const std::string text = "{\"schema_version\": \"1.11.0\", \"lab\": \"x\"}\n";
  const std::string compressed = labrun::gzip_compress(text);

  SECTION("one byte too many to decompress, as a small file claiming much memory would") {
    CHECK(labrun::gunzip(compressed, text.size(), "f.gz") == text);
    CHECK_THROWS_WITH(labrun::gunzip(compressed, text.size() - 1, "f.gz"),
                      ContainsSubstring("f.gz: decompresses to more than the"));
    CHECK_THROWS_WITH(labrun::gunzip(zeros_compressed(std::size_t{1} << 20), 1000, "bomb.gz"),
                      ContainsSubstring("bomb.gz: decompresses to more than the 1000 bytes allowed"));
  }
  SECTION("cut short, at every length") {
    for (std::size_t length = 2; length < compressed.size(); ++length) {
      INFO("first " << length << " of " << compressed.size() << " bytes");
      CHECK_THROWS_WITH(labrun::gunzip(compressed.substr(0, length), 1 << 20, "cut.gz"),
                        ContainsSubstring("cut.gz: damaged gzip data"));
    }
  }
  SECTION("a changed byte in the data or the checksum") {
    std::string flipped = compressed;
    flipped[flipped.size() - 6] = static_cast<char>(flipped[flipped.size() - 6] ^ 0x55);  // the CRC-32
    CHECK_THROWS_WITH(labrun::gunzip(flipped, 1 << 20, "crc.gz"),
                      ContainsSubstring("crc.gz: damaged gzip data"));
  }
  SECTION("anything after the one compressed member") {
    CHECK_THROWS_WITH(labrun::gunzip(compressed + compressed, 1 << 20, "two.gz"),
                      ContainsSubstring("two.gz: ") && ContainsSubstring("bytes after the gzip data"));
    CHECK_THROWS_WITH(labrun::gunzip(compressed + std::string(4, '\0'), 1 << 20, "pad.gz"),
                      ContainsSubstring("pad.gz: 4 bytes after the gzip data"));
  }
}

TEST_CASE("an evidence file's text is read whether it is stored plain or gzip-compressed") {
  const labrun::testing::TemporaryDirectory dir;
  const std::string text = "{\"schema_version\": \"1.11.0\"}\n";
  write_bytes(dir.path / "plain.json", text);
  CHECK(labrun::read_evidence_text(dir.path / "plain.json") == text);
  if (!labrun::gzip_supported()) {
    write_bytes(dir.path / "packed.json.gz", std::string("\x1f\x8b\x08\x00", 4));
    CHECK_THROWS_WITH(
        labrun::read_evidence_text(dir.path / "packed.json.gz"),
        ContainsSubstring("packed.json.gz: gzip-compressed, and this labrun was built without zlib"));
    return;
  }
  write_bytes(dir.path / "packed.json.gz", labrun::gzip_compress(text));
  CHECK(labrun::read_evidence_text(dir.path / "packed.json.gz") == text);
  // By content: a compressed file with a plain name reads too, and a plain one named .gz.
  write_bytes(dir.path / "misnamed.json", labrun::gzip_compress(text));
  CHECK(labrun::read_evidence_text(dir.path / "misnamed.json") == text);
  write_bytes(dir.path / "plain.json.gz", text);
  CHECK(labrun::read_evidence_text(dir.path / "plain.json.gz") == text);
  // Beyond the 64 MiB of text a transcript may have, from a file of about 64 KiB.
  write_bytes(dir.path / "bomb.json.gz", zeros_compressed(labrun::kEvidenceFileMaxBytes + 1));
  CHECK_THROWS_WITH(labrun::read_evidence_text(dir.path / "bomb.json.gz"),
                    ContainsSubstring("bomb.json.gz: decompresses to more than the 67108864 bytes allowed"));
}
